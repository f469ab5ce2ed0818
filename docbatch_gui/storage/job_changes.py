"""A job's changes as every store makes them: what is checked against the stored job,
which columns are written and the history event that goes with them.

The backends differ only in how they make a change atomic (a SQLite transaction, a
MongoDB compare-and-swap on the job document); each reads the stored job, asks this
module what to write, and writes it with its own primitive. Deciding it once keeps
SQLite and MongoDB jobs alike after any change, as the contract suite checks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import Any, NamedTuple, Protocol, Unpack

from docbatch_gui.domain.errors import InvalidTransition
from docbatch_gui.domain.models import Job, NewJob
from docbatch_gui.domain.states import (
    JobState,
    Phase,
    check_transition,
    claim_fields,
    state_words,
    transition_fields,
)
from docbatch_gui.storage.job_patch import JOB_FIELDS, JobPatch
from docbatch_gui.storage.store import check_attempts, error_columns


class StoredHead(Protocol):
    """What a change is decided on: a job's id, state, phase and attempt as stored
    (a whole ``Job`` has them; SQLite reads only these four columns)."""

    @property
    def id(self) -> int: ...
    @property
    def state(self) -> JobState: ...
    @property
    def phase(self) -> Phase | None: ...
    @property
    def attempts(self) -> int: ...


class JobHead(NamedTuple):
    """The four columns a change is decided on, read without decoding the job."""

    id: int
    state: JobState
    phase: Phase | None
    attempts: int


@dataclass(frozen=True)
class JobChange:
    """The columns one change writes (``updated_at`` added on writing) and the event
    of the job's history written with them."""

    fields: dict[str, Any]
    event: dict[str, Any]


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def job_event(
    from_state: JobState | None,
    to_state: JobState,
    phase: Phase | str | None,
    attempt: int,
    detail: str | None,
) -> dict[str, Any]:
    """One entry of a job's history as both stores keep it: plain values, ISO UTC time."""
    return {
        "at": datetime.now(UTC).isoformat(),
        "from_state": _plain(from_state),
        "to_state": _plain(to_state),
        "phase": _plain(phase),
        "attempt": attempt,
        "detail": detail,
    }


def created(new: NewJob) -> JobChange:
    """A new job's columns, queued (each store adds the defaults it keeps), and the
    first event of its history."""
    now = datetime.now(UTC).isoformat()
    fields = {**asdict(new), "origin": new.origin or None, "created_at": now, "updated_at": now}
    fields.update(state=JobState.QUEUED.value, phase=Phase.INTAKE.value)
    return JobChange(fields, job_event(None, JobState.QUEUED, Phase.INTAKE, 0, "created"))


def written(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The columns a write sets: ``fields``, refused when one is not a job column, and
    the moment of the write."""
    unknown = set(fields) - JOB_FIELDS - {"state"}
    if unknown:
        raise ValueError(f"unknown job fields: {sorted(unknown)}")
    return {**fields, "updated_at": datetime.now(UTC)}


def check_expectations(
    job: StoredHead,
    to: JobState,
    expected: JobState | Iterable[JobState] | None,
    attempt: int | None,
) -> None:
    """The checks every backend makes inside its transaction before a state change."""
    check_attempts(job.id, job.attempts, attempt)
    if expected is not None:
        allowed = {JobState(expected)} if isinstance(expected, str) else set(expected)
        if job.state not in allowed:
            raise InvalidTransition.coded(
                "transition_not_expected",
                {
                    "job": job.id,
                    "current": state_words(job.state),
                    "expected": "/".join(sorted(allowed)),
                },
            )
    check_transition(job.state, to, job.id)


def update_patch(fields: Mapping[str, Any]) -> dict[str, Any]:
    """``update_job``'s fields as stored; the state changes through ``transition`` only."""
    patch = error_columns(dict(fields))
    if "state" in patch:
        raise ValueError("use transition() to change the state")
    return patch


@dataclass(frozen=True)
class Transition:
    """A ``transition`` as asked, before the stored job is read (a backend that loses
    a race reads the job again and applies the same request to it)."""

    to: JobState
    expected: JobState | Iterable[JobState] | None
    attempt: int | None
    patch: dict[str, Any]

    @classmethod
    def asked(
        cls,
        to: JobState,
        expected: JobState | Iterable[JobState] | None,
        attempt: int | None,
        fields: Mapping[str, Any],
    ) -> Transition:
        return cls(JobState(to), expected, attempt, error_columns(dict(fields)))

    def against(self, job: StoredHead) -> JobChange:
        """The change on ``job`` as stored; InvalidTransition when the contract, the
        expected states or the attempt refuse it."""
        check_expectations(job, self.to, self.expected, self.attempt)
        values = transition_fields(job.phase, self.to, self.patch)
        detail = values.get("error") or None
        return JobChange(
            values, job_event(job.state, self.to, values.get("phase"), job.attempts, detail)
        )


def claim_change(job: StoredHead, to: JobState, deadline: datetime | None) -> JobChange | None:
    """queued → ``to`` with a new attempt; None when the job is no longer queued
    (another worker took it)."""
    if job.state is not JobState.QUEUED:
        return None
    check_transition(job.state, to, job.id)
    values = claim_fields(job.attempts, to, deadline)
    event = job_event(job.state, to, values["phase"], values["attempts"], "claimed")
    return JobChange(values, event)


class JobMoves:
    """``transition`` and ``claim`` as every store makes them: the change is decided
    here on the job as stored, and the backend's ``_apply_change`` writes it atomically."""

    #: (job id, decide): write ``decide(job as stored)`` and its event atomically and
    #: return the job as written; None, writing nothing, when it decides no change
    _apply_change: Callable[[int, Callable[[StoredHead], JobChange | None]], Job | None]

    def transition(
        self,
        job_id: int,
        to: JobState,
        *,
        expected: JobState | Iterable[JobState] | None = None,
        attempt: int | None = None,
        **fields: Unpack[JobPatch],
    ) -> Job:
        done = self._apply_change(job_id, Transition.asked(to, expected, attempt, fields).against)
        assert done is not None  # ``against`` decides a change or raises
        return done

    def claim(self, job_id: int, to: JobState, *, deadline: datetime | None = None) -> Job | None:
        return self._apply_change(job_id, lambda job: claim_change(job, to, deadline))
