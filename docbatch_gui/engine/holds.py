"""Jobs held for what this installation lacks: a queued job no worker here can take.

A job to be read by Claude (sync or batch mode) needs an Anthropic API key. Without
one, the worker leaves it queued (it takes only the modes it can finish), which used
to look like a job waiting for its turn forever. Here that state has a name and a
reason in words: the queue shows it with the action that lifts it (*Add a key…*,
*Process offline*), ``docbatch jobs --json`` gives it as ``held_by``, the forecast
leaves the job out (nothing of it can be sent) and ``process --wait`` stops waiting
on it and says why.

A hold is worked out, never stored: it ends by itself as soon as the key is there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import JobState, ProcessingMode

#: what a held job lacks (``held_by["need"]``, a contract for scripts)
NEEDS_ANTHROPIC_KEY = "anthropic_key"
#: what the operator can do about it (``held_by["actions"]``)
ADD_KEY = "add_key"
PROCESS_OFFLINE = "process_offline"

#: the modes whose jobs are read by Claude, and so need its key
KEYED_MODES = frozenset({ProcessingMode.SYNC, ProcessingMode.BATCH})


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

    def of(self, job: Job) -> JobHold | None:
        """The hold of ``job``, or None when nothing it needs is missing."""
        if job.state is not JobState.QUEUED:
            return None
        if job.mode in KEYED_MODES and not self.has_anthropic_key:
            return JobHold(
                NEEDS_ANTHROPIC_KEY,
                Message("held_needs_key", {"file": job.file_name, "mode": job.mode.value}),
                (ADD_KEY, PROCESS_OFFLINE),
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
        return frozenset() if self.has_anthropic_key else KEYED_MODES
