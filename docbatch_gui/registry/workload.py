"""In-process stand-in for the workload manager's ``track_task`` (DESIGN.md, seed 000).

The Redis manager will register ``workload:task:{type}:{id}`` with a TTL; until it
lands, heavy registry tasks register here so that the accounting (and the refusal of
a second concurrent search of the same registry) already works on one workstation.
Replace ``track_task`` with the Redis one; callers keep the same ``with`` statement.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from docbatch_gui.domain.errors import DocBatchError, ErrorKind, RetryableError

__all__ = [
    "TASK_COSTS",
    "Busy",
    "Cancelled",
    "ProgressFn",
    "active_tasks",
    "check_cancel",
    "track_task",
]

#: DESIGN.md: the cost of each heavy task against a capacity of 12.
TASK_COSTS: dict[str, int] = {"job_processing": 2, "registry_search": 4, "registry_export": 3}

_lock = threading.Lock()
_active: dict[tuple[str, str], int] = {}


class Busy(RetryableError):
    """The same task is already running; try again when it has finished."""


@contextmanager
def track_task(kind: str, task_id: object) -> Iterator[None]:
    """Register a running task for its whole duration; released in ``finally``.

    A second task of the same kind and id is refused with Busy: two searches of one
    registry would interleave their result chunks.
    """
    key = (kind, str(task_id))
    with _lock:
        if key in _active:
            raise Busy(f"{kind} {task_id} is already running; wait for it to finish and try again")
        _active[key] = TASK_COSTS.get(kind, 1)
    try:
        yield
    finally:
        with _lock:
            _active.pop(key, None)


def active_tasks() -> dict[tuple[str, str], int]:
    """Running tasks and their costs, for the import-thread arithmetic and tests."""
    with _lock:
        return dict(_active)


# -- progress and cancel, shared by the long registry operations ------------------------

#: ``progress(done, total)``; total is None while unknown (an import before the end).
ProgressFn = Callable[[int, int | None], None]


class Cancelled(DocBatchError):
    """The operator canceled a long operation; what was written so far stays."""

    kind = ErrorKind.RETRYABLE


def check_cancel(cancel: threading.Event | None, what: str) -> None:
    """Raise Cancelled between chunks when the operator asked to stop."""
    if cancel is not None and cancel.is_set():
        raise Cancelled(f"{what} canceled by the operator")
