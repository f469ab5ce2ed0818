"""What ``update_job`` and ``transition`` may change on a job, as one typed patch.

The stores take the patch as keyword arguments typed by ``JobPatch`` (PEP 692), so a
misspelt field or a value of the wrong type fails ``mypy`` at the call site, not at
run time in one backend. ``JOB_FIELDS`` is read off the same type: a column added to
the patch is one the stores write.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypedDict

from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.states import Phase, ProcessingMode


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
    #: the error's message as data: its code and parameters (the front ends word it)
    error_code: str | None
    error_params: dict[str, Any] | None
    archived: bool
    attached: list[dict[str, Any]]
    split: dict[str, Any] | None


#: Job columns that ``update_job`` and ``transition`` may set besides the state.
JOB_FIELDS: frozenset[str] = frozenset(JobPatch.__annotations__)
