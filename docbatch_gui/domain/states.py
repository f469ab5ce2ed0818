"""The job state contract, and the ways a job can be processed.

``queued → preparing → ocr → extracting (sync) | submitted → processing (batch)
→ building → done | needs_review``; any active state may fail, time out or be
canceled. A file seen before becomes ``duplicate``. A final state only leaves through
``queued`` (an explicit retry or force
reprocess, which starts a new attempt), so a worker that comes back after its
deadline can never move a ``timed_out`` job to ``done``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum
from typing import Any

from docbatch_gui.domain.errors import InvalidTransition
from docbatch_gui.domain.messages import Message, coded


class JobState(StrEnum):
    QUEUED = "queued"
    PREPARING = "preparing"
    OCR = "ocr"
    EXTRACTING = "extracting"
    SUBMITTED = "submitted"
    PROCESSING = "processing"
    BUILDING = "building"
    DONE = "done"
    NEEDS_REVIEW = "needs_review"
    FAILED = "failed"
    TIMED_OUT = "timed_out"
    CANCELED = "canceled"
    #: same content as an earlier job; not processed unless forced
    DUPLICATE = "duplicate"


class ProcessingMode(StrEnum):
    """How a job's documents are read: locally, by Claude now, or by a Claude batch."""

    OFFLINE = "offline"
    SYNC = "sync"
    BATCH = "batch"
    #: read exactly from the file's own data (УПД XML, Factur-X): chosen by DocBatch
    #: for such files whatever the mode asked, never by an operator; costs nothing
    DATA = "data"


class Phase(StrEnum):
    """Where a job was when something happened; recorded with every failure."""

    INTAKE = "intake"
    PREPARE = "prepare"
    OCR = "ocr"
    EXTRACT = "extract"
    SUBMIT = "submit"
    POLL = "poll"
    BUILD = "build"
    REVIEW = "review"


S = JobState

SUCCESS_STATES: frozenset[JobState] = frozenset({S.DONE, S.NEEDS_REVIEW})
FAILURE_STATES: frozenset[JobState] = frozenset({S.FAILED, S.TIMED_OUT, S.CANCELED})
FINAL_STATES: frozenset[JobState] = SUCCESS_STATES | FAILURE_STATES | {S.DUPLICATE}
ACTIVE_STATES: frozenset[JobState] = frozenset(JobState) - FINAL_STATES - {S.QUEUED}
#: Active states owned by a local worker process. If that process died (crash, power
#: loss), recovery puts the job back in the queue; batch states re-attach instead.
RECOVERABLE_STATES: frozenset[JobState] = frozenset({S.PREPARING, S.OCR, S.EXTRACTING, S.BUILDING})
#: A batch job rendered (and OCR'd) and not yet submitted: what a batch intent moves.
BATCH_READY_STATES: tuple[JobState, ...] = (S.PREPARING, S.OCR)
#: A batch job already in a batch: a later intent (a job split over batches) keeps it.
BATCH_SENT_STATES: tuple[JobState, ...] = (S.SUBMITTED, S.PROCESSING)
#: A batch record that still holds its requests: planned, or running at the API.
OPEN_BATCH_STATUSES: tuple[str, ...] = ("intent", "in_progress", "canceling")

_FORWARD: dict[JobState, frozenset[JobState]] = {
    S.QUEUED: frozenset({S.PREPARING, S.DUPLICATE}),
    S.PREPARING: frozenset({S.OCR, S.EXTRACTING, S.SUBMITTED, S.BUILDING}),
    S.OCR: frozenset({S.EXTRACTING, S.SUBMITTED, S.BUILDING}),
    S.EXTRACTING: frozenset({S.BUILDING}),
    S.SUBMITTED: frozenset({S.PROCESSING}),
    # An expired batch resubmits its unfinished requests.
    S.PROCESSING: frozenset({S.BUILDING, S.SUBMITTED}),
    S.BUILDING: frozenset({S.DONE, S.NEEDS_REVIEW}),
    # A person confirms the documents.
    S.NEEDS_REVIEW: frozenset({S.DONE}),
}

#: Which phase a job is in while it holds a state.
PHASE_OF: dict[JobState, Phase] = {
    S.QUEUED: Phase.INTAKE,
    S.PREPARING: Phase.PREPARE,
    S.OCR: Phase.OCR,
    S.EXTRACTING: Phase.EXTRACT,
    S.SUBMITTED: Phase.SUBMIT,
    S.PROCESSING: Phase.POLL,
    S.BUILDING: Phase.BUILD,
    S.NEEDS_REVIEW: Phase.REVIEW,
    S.DONE: Phase.BUILD,
}


def allowed_targets(state: JobState) -> frozenset[JobState]:
    targets = set(_FORWARD.get(state, frozenset()))
    if state in ACTIVE_STATES or state is S.QUEUED:
        targets |= FAILURE_STATES
    if state in FINAL_STATES or state in RECOVERABLE_STATES:
        targets.add(S.QUEUED)  # retry, force reprocess or recovery: a new attempt
    return frozenset(targets)


def can_transition(current: JobState, target: JobState) -> bool:
    return target in allowed_targets(current)


def check_transition(current: JobState, target: JobState, job_id: int | None = None) -> None:
    if not can_transition(current, target):
        raise InvalidTransition.coded(
            "transition_refused" if job_id is not None else "transition_refused_any",
            {"job": job_id, "current": state_words(current), "target": state_words(target)},
        )


def check_operator_move(job_id: int, file_name: str, current: JobState, target: JobState) -> None:
    """A retry or cancel the state forbids, refused in words the operator acts on (the
    store's own check inside its transaction stays, for a race)."""
    if can_transition(current, target):
        return
    if target is S.QUEUED:
        state = coded("state_already_waiting") if current is S.QUEUED else state_words(current)
        raise InvalidTransition.coded(
            "job_not_retryable", {"job": job_id, "file": file_name, "state": state}
        )
    raise InvalidTransition.coded(
        "job_not_cancelable", {"job": job_id, "file": file_name, "state": state_words(current)}
    )


def state_words(state: str) -> Message:
    """A job state as a message parameter: worded in the reader's language by its name
    in the one table (``domain.state_names``)."""
    return coded(f"state_{state}")


#: What a move back to ``queued`` (retry, force reprocess, recovery) clears unless the
#: caller says otherwise: the previous attempt's failure and progress must not show
#: on the new one.
REQUEUE_RESETS: Mapping[str, Any] = {
    "error_kind": None,
    "error": None,
    "error_code": None,
    "error_params": None,
    "termination_confirmed": None,
    "progress": 0.0,
}


def transition_fields(
    current_phase: Phase | str | None, to: JobState, fields: Mapping[str, Any]
) -> dict[str, Any]:
    """The job fields a store writes for a move to ``to``: the caller's ``fields``
    over the defaults (the phase of the new state, the resets of a requeue). Every
    store backend applies this, so SQLite and MongoDB jobs look alike after any move."""
    values = dict(fields)
    values.setdefault("phase", PHASE_OF.get(to, current_phase))
    if to is S.QUEUED:
        for name, value in REQUEUE_RESETS.items():
            values.setdefault(name, value)
    values["state"] = to
    return values


def claim_fields(attempts: int, to: JobState, deadline: datetime | None) -> dict[str, Any]:
    """The job fields a claim out of ``queued`` writes: a new attempt, its deadline."""
    return {"state": to, "phase": PHASE_OF.get(to), "attempts": attempts + 1, "deadline": deadline}


#: the store setting that pauses the worker (no new job starts, no batch is submitted
#: or polled); here, not in the batch engine, so checking it imports no client SDK
PAUSED_SETTING = "batch_worker_paused"
