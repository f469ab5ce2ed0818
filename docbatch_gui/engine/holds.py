"""Jobs held for what this installation lacks: a queued job no worker here can take.

A job to be read by Claude (sync or batch mode) needs an Anthropic API key. Without
one, the worker leaves it queued (it takes only the modes it can finish), which used
to look like a job waiting for its turn forever. Here that state has a name and a
reason in words: the queue shows it with the action that lifts it (*Add a key…*,
*Process offline*), ``docbatch jobs --json`` gives it as ``held_by``, the forecast
leaves the job out (nothing of it can be sent) and ``process --wait`` stops waiting
on it and says why.

A job that may need OCR is held the same way when ``OCR_ENGINE`` is Google Vision and
no Google credentials are found (*Set up Vision…*, *Use Tesseract*): before, every
scanned page failed its OCR one by one and went to review with empty fields.

A hold is worked out, never stored: it ends by itself as soon as the key (or the
credentials) are there. One exception: a job whose requests could not reach Claude's
API (connection refused, DNS, no connection) on its last attempt is held for
``claude_unreachable`` with the host in words, and waits, instead of failing with a
network error nobody sees; the store keeps which jobs, and
*Retry now* (``retry_unreachable``) lifts the hold and queues them again.

Batch mode is held the same way when the Message Batches API cannot be reached
(``hold_unreachable_many``; ``engine.batch_holds`` says what the batch engine does then).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import JobState, ProcessingMode
from docbatch_gui.pipeline.ocr import OcrEngineName
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.store import Store

#: what a held job lacks (``held_by["need"]``, a contract for scripts)
NEEDS_ANTHROPIC_KEY = "anthropic_key"
#: what the operator can do about it (``held_by["actions"]``)
ADD_KEY = "add_key"
PROCESS_OFFLINE = "process_offline"
#: OCR_ENGINE is Google Vision and no Google credentials are found
NEEDS_VISION_CREDENTIALS = "vision_credentials"
SET_UP_VISION = "set_up_vision"
USE_TESSERACT = "use_tesseract"
#: Claude's API could not be reached: the job waits until the operator retries
NEEDS_CLAUDE_REACHABLE = "claude_unreachable"
RETRY_NOW = "retry_now"
#: the store setting: {"host": ..., "jobs": [ids]} of the jobs held for it
UNREACHABLE_SETTING = "holds/claude_unreachable"
#: the error codes that say the API was not reached (no answer came back)
UNREACHABLE_CODES = frozenset({"claude_network"})
DEFAULT_CLAUDE_HOST = "api.anthropic.com"

#: a batch job past the queue a hold for an unreachable API stops: its batch is
#: planned (an intent, perhaps created) or running at the API
BATCH_SENT = frozenset({JobState.SUBMITTED, JobState.PROCESSING})

#: the modes whose jobs are read by Claude, and so need its key
KEYED_MODES = frozenset({ProcessingMode.SYNC, ProcessingMode.BATCH})
#: the modes whose jobs render pages and so may need OCR (not XML data)
OCR_MODES = frozenset({ProcessingMode.OFFLINE, ProcessingMode.SYNC, ProcessingMode.BATCH})


def vision_credentials_found(settings: Settings) -> bool:
    """Whether Google Vision could authenticate, judged without importing its client
    (a second): an endpoint (a local fake, anonymous), the credentials file named by
    GOOGLE_APPLICATION_CREDENTIALS, or gcloud's application-default credentials file.
    True whenever another OCR engine is chosen: nothing is missing then."""
    if settings.ocr_engine != OcrEngineName.GOOGLE_VISION.value:
        return True
    if settings.google_vision_endpoint:
        return True
    named = settings.google_application_credentials
    if named is not None:
        return named.is_file()
    return any(path.is_file() for path in _application_default_files())


def _application_default_files() -> list[Path]:
    """Where ``gcloud auth application-default login`` writes its file."""
    found = []
    if os.environ.get("CLOUDSDK_CONFIG"):
        found.append(Path(os.environ["CLOUDSDK_CONFIG"]))
    if os.environ.get("APPDATA"):  # Windows
        found.append(Path(os.environ["APPDATA"]) / "gcloud")
    found.append(Path.home() / ".config" / "gcloud")
    return [folder / "application_default_credentials.json" for folder in found]


def claude_host(settings: Settings) -> str:
    """The host (and port) requests to Claude go to: ANTHROPIC_BASE_URL's, or the API's."""
    if not settings.anthropic_base_url:
        return DEFAULT_CLAUDE_HOST
    return urlsplit(settings.anthropic_base_url).netloc or settings.anthropic_base_url


def did_not_reach_claude(message: Message) -> bool:
    """Whether a job's error says its requests never reached Claude (no answer at all,
    as opposed to an answer refusing them): alone or as the first of several."""
    if message.code in UNREACHABLE_CODES:
        return True
    first = message.params.get("first")
    code = first.code if isinstance(first, Message) else None
    if isinstance(first, dict):
        code = first.get("code")
    return message.code == "claude_requests_failed_retry" and code in UNREACHABLE_CODES


def hold_unreachable(store: Store, job_id: int, host: str) -> None:
    """``job_id`` (queued again) waits: its request did not reach Claude at ``host``."""
    held = store.get_setting(UNREACHABLE_SETTING) or {}
    jobs = sorted(set(held.get("jobs", [])) | {job_id})
    store.set_setting(UNREACHABLE_SETTING, {"host": host, "jobs": jobs})


def hold_unreachable_many(store: Store, job_ids: Iterable[int], host: str) -> None:
    """``job_ids`` wait: the API at ``host`` could not be reached for them (one write)."""
    held = store.get_setting(UNREACHABLE_SETTING) or {}
    jobs = sorted(set(held.get("jobs", [])) | set(job_ids))
    store.set_setting(UNREACHABLE_SETTING, {"host": host, "jobs": jobs})


def unreachable_jobs(store: Store) -> tuple[str, frozenset[int]]:
    """The host Claude was not reached at and the jobs held for it."""
    held = store.get_setting(UNREACHABLE_SETTING) or {}
    return str(held.get("host", "")), frozenset(int(j) for j in held.get("jobs", []))


def retry_unreachable(store: Store, job_ids: Iterable[int] | None = None) -> list[int]:
    """*Retry now*: the hold of ``job_ids`` (all when None) is lifted, and they are
    taken again as soon as a worker is free. Returns the ids lifted."""
    host, held = unreachable_jobs(store)
    lifted = held if job_ids is None else held & set(job_ids)
    left = sorted(held - lifted)
    store.set_setting(UNREACHABLE_SETTING, {"host": host, "jobs": left} if left else None)
    return sorted(lifted)


@dataclass(frozen=True)
class JobHold:
    """Why one queued job cannot start here, and what lifts that."""

    need: str
    message: Message
    actions: tuple[str, ...] = field(default=())

    def words(self, language: str = "en") -> str:
        return self.message.words(language)

    def reason(self, language: str = "en") -> str:
        """The words without their "x.pdf: held: " opening, for a place that already
        names the file and says it is held (the queue's line under the name, the
        job's detail): said there once, not twice."""
        mark = "\x00"
        text = Message(self.message.code, {**self.message.params, "file": mark}).words(language)
        if not text.startswith(mark + ": "):
            return self.words(language)
        rest = text[len(mark) + 2 :]
        _held, sep, why = rest.partition(": ")
        why = why if sep else rest
        return why[:1].upper() + why[1:]

    def as_dict(self) -> dict[str, Any]:
        """``held_by`` in ``docbatch jobs --json``: keys are added to, never renamed."""
        return {
            "need": self.need,
            "reason": self.message.english,
            "code": self.message.code,
            "actions": list(self.actions),
        }


@dataclass(frozen=True)
class Holds:
    """What this installation has, and so which queued jobs it must hold."""

    has_anthropic_key: bool
    has_vision_credentials: bool = True
    #: the jobs whose request did not reach Claude, and where it was sent
    unreachable: frozenset[int] = frozenset()
    unreachable_host: str = ""

    def of(self, job: Job) -> JobHold | None:
        """The hold of ``job``, or None when nothing it needs is missing (the key is
        said first: *Process offline* lifts it, and may leave the Vision hold)."""
        if job.state is not JobState.QUEUED:
            return self._sent_hold(job)
        if job.mode in KEYED_MODES and not self.has_anthropic_key:
            return JobHold(
                NEEDS_ANTHROPIC_KEY,
                # the mode is worded in the reader's language ("синхронный режим")
                Message("held_needs_key", {"file": job.file_name, "mode": job.mode.value}),
                (ADD_KEY, PROCESS_OFFLINE),
            )
        if job.id in self.unreachable and job.mode in KEYED_MODES:
            return JobHold(
                NEEDS_CLAUDE_REACHABLE,
                Message(
                    "held_claude_unreachable",
                    {"file": job.file_name, "host": self.unreachable_host or DEFAULT_CLAUDE_HOST},
                ),
                (RETRY_NOW, PROCESS_OFFLINE),
            )
        if job.mode in OCR_MODES and not self.has_vision_credentials:
            return JobHold(
                NEEDS_VISION_CREDENTIALS,
                Message("held_needs_vision", {"file": job.file_name}),
                (SET_UP_VISION, USE_TESSERACT),
            )
        return None

    def _sent_hold(self, job: Job) -> JobHold | None:
        """A batch job whose batch the API could not be reached for: it waits, and
        nothing of it is created again until the API answers (no *Process offline*: its
        batch may be at the API already)."""
        if job.id not in self.unreachable or job.state not in BATCH_SENT:
            return None
        if job.mode is not ProcessingMode.BATCH:
            return None
        return JobHold(
            NEEDS_CLAUDE_REACHABLE,
            Message(
                "held_batch_unreachable",
                {"file": job.file_name, "host": self.unreachable_host or DEFAULT_CLAUDE_HOST},
            ),
            (RETRY_NOW,),
        )

    def held(self, jobs: Iterable[Job]) -> dict[int, JobHold]:
        """The held ones among ``jobs``, by job id."""
        found = {}
        for job in jobs:
            hold = self.of(job)
            if hold is not None:
                found[job.id] = hold
        return found

    def held_modes(self) -> frozenset[ProcessingMode]:
        """The modes whose queued jobs are held (what a table model checks per row)."""
        held = frozenset() if self.has_anthropic_key else KEYED_MODES
        return held if self.has_vision_credentials else held | OCR_MODES
