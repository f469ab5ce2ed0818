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
credentials) are there.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import JobState, ProcessingMode
from docbatch_gui.pipeline.ocr import OcrEngineName
from docbatch_gui.settings.model import Settings

#: what a held job lacks (``held_by["need"]``, a contract for scripts)
NEEDS_ANTHROPIC_KEY = "anthropic_key"
#: what the operator can do about it (``held_by["actions"]``)
ADD_KEY = "add_key"
PROCESS_OFFLINE = "process_offline"
#: OCR_ENGINE is Google Vision and no Google credentials are found
NEEDS_VISION_CREDENTIALS = "vision_credentials"
SET_UP_VISION = "set_up_vision"
USE_TESSERACT = "use_tesseract"

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


@dataclass(frozen=True)
class JobHold:
    """Why one queued job cannot start here, and what lifts that."""

    need: str
    message: Message
    actions: tuple[str, ...] = field(default=())

    def words(self, language: str = "en") -> str:
        return self.message.words(language)

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

    def of(self, job: Job) -> JobHold | None:
        """The hold of ``job``, or None when nothing it needs is missing (the key is
        said first: *Process offline* lifts it, and may leave the Vision hold)."""
        if job.state is not JobState.QUEUED:
            return None
        if job.mode in KEYED_MODES and not self.has_anthropic_key:
            return JobHold(
                NEEDS_ANTHROPIC_KEY,
                Message("held_needs_key", {"file": job.file_name, "mode": job.mode.value}),
                (ADD_KEY, PROCESS_OFFLINE),
            )
        if job.mode in OCR_MODES and not self.has_vision_credentials:
            return JobHold(
                NEEDS_VISION_CREDENTIALS,
                Message("held_needs_vision", {"file": job.file_name}),
                (SET_UP_VISION, USE_TESSERACT),
            )
        return None

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
