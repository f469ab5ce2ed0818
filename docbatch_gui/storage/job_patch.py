"""What ``update_job`` and ``transition`` may change on a job, as one typed patch.

The stores take the patch as keyword arguments typed by ``JobPatch`` (PEP 692), so a
misspelt field or a value of the wrong type fails ``mypy`` at the call site, not at
run time in one backend. ``JOB_FIELDS`` is read off the same type: a column added to
the patch is one the stores write. ``job_of`` reads a stored job back, for both stores.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, TypedDict

from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import JobState, Phase, ProcessingMode


class JobPatch(TypedDict, total=False):
    """Job columns a store sets besides the state (every key optional)."""

    phase: Phase | str | None
    attempts: int
    deadline: datetime | None
    error_kind: ErrorKind | str | None
    #: a message (stored as its English text beside ``error_code``/``error_params``)
    #: or a plain text
    error: Message | str | None
    termination_confirmed: bool | None
    artifacts_deliverable: bool
    pages: int | None
    documents: int
    progress: float
    mode: ProcessingMode | str
    duplicate_of: int | None
    cost_estimate_usd: float | None
    cost_actual_usd: float | None
    first_model: str | None
    escalated: bool
    escalation_model: str | None
    escalation_reasons: list[str]
    answered_by: str | None
    cost_first_usd: float | None
    cost_escalation_usd: float | None
    crashes: int
    retry_base: int
    #: the error's message as data: its code and parameters (the front ends word it)
    error_code: str | None
    error_params: dict[str, Any] | None
    archived: bool
    attached: list[dict[str, Any]]
    split: dict[str, Any] | None


#: Job columns that ``update_job`` and ``transition`` may set besides the state.
JOB_FIELDS: frozenset[str] = frozenset(JobPatch.__annotations__)

#: columns SQLite keeps as JSON text (MongoDB keeps them as they are)
JSON_COLUMNS = frozenset({"error_params", "escalation_reasons", "attached", "split", "origin"})
#: how a stored value reads back: times, enums ("" is none) and 0/1 flags
_READ: dict[str, Callable[[Any], Any]] = {
    **dict.fromkeys(("deadline", "created_at", "updated_at"), datetime.fromisoformat),
    "state": JobState,
    "phase": Phase,
    "error_kind": ErrorKind,
    **dict.fromkeys(
        ("termination_confirmed", "artifacts_deliverable", "archived", "escalated"), bool
    ),
}
#: (field, whether the job has no default for it), every field but the id
_FIELDS = tuple(
    (f.name, f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
    for f in dataclasses.fields(Job)
    if f.name != "id"
)


def job_of(stored: Mapping[str, Any], job_id: int) -> Job:
    """The job a store's record holds (a SQLite row as a dict, a MongoDB document):
    JSON text decoded, times, enums and flags read back, and a field the record lacks
    (written before the field existed) or leaves empty at the job's default."""
    values: dict[str, Any] = {"id": job_id}
    for name, required in _FIELDS:
        value = stored.get(name)
        if isinstance(value, str) and (name in JSON_COLUMNS or name in _READ):
            value = (json.loads(value) if name in JSON_COLUMNS else value) or None
        if value is None:
            if required:
                values[name] = None
            continue
        read = _READ.get(name)
        values[name] = read(value) if read is not None else value
    return Job(**values)
