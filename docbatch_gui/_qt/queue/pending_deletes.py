"""Deleting jobs with *Undo*: the rows leave the queue at once, the store forgets them
only after a few seconds (or when the window closes), and *Undo* in the notice
brings them back untouched.

A hard delete cannot be taken back (the documents, the page images), so the store is
not asked until the operator had the time to see what they did. A queued job the
engine starts meanwhile is not deleted: the store refuses, the row comes back and the
notice says why, as a delete of a running job always did.

The log says both moves as they happen: the delete the operator asked for (the store's
own line follows when the undo time is over) and the *Undo* that took it back, so the
log of a job that "came back" is never silent about where it went.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

from PySide6.QtCore import QObject, QTimer

from docbatch_gui.domain.models import Job
from docbatch_gui.engine.job_log import log_operator

#: how long *Undo* is offered before the store deletes the jobs
UNDO_MS = 8000


class PendingDeletes(QObject):
    """Jobs taken off the queue whose deletion waits for the undo time."""

    def __init__(
        self,
        commit: Callable[[list[tuple[Job, bool]]], Coroutine[Any, Any, None]],
        restore: Callable[[list[Job]], None],
        run: Callable[[Coroutine[Any, Any, None]], object],
        parent: QObject | None = None,
    ) -> None:
        """``commit`` deletes in the store, ``restore`` shows rows again, ``run``
        starts a coroutine on the GUI loop."""
        super().__init__(parent)
        self._commit = commit
        self._restore = restore
        self._run = run
        #: job id → (the job as it was, keep its documents)
        self._waiting: dict[int, tuple[Job, bool]] = {}
        #: how long *Undo* is offered (the tests shorten it)
        self.undo_ms = UNDO_MS

    def __contains__(self, job_id: object) -> bool:
        return job_id in self._waiting

    def add(self, jobs: Iterable[Job], keep_documents: bool) -> list[int]:
        """Hold ``jobs`` for the undo time, then delete them through ``commit``."""
        ids = []
        kept = "taken off the queue (its documents kept)"
        what = kept if keep_documents else "deleted with its documents"
        seconds = f"{self.undo_ms / 1000:g}"
        for job in jobs:
            self._waiting[job.id] = (job, keep_documents)
            ids.append(job.id)
            log_operator(job, f"set to be {what} in {seconds} s (Undo is offered until then)")
        QTimer.singleShot(self.undo_ms, self, functools.partial(self._due, ids))
        return ids

    def undo(self, job_ids: Iterable[int]) -> list[Job]:
        """Bring back those of ``job_ids`` not deleted yet; returns them."""
        back = [self._waiting.pop(i)[0] for i in job_ids if i in self._waiting]
        for job in back:
            log_operator(job, "brought back to the queue (Undo: nothing of it was deleted)")
        if back:
            self._restore(back)
        return back

    def take(self, job_ids: Iterable[int] | None = None) -> list[tuple[Job, bool]]:
        """The waiting deletions of ``job_ids`` (all when None), no longer waiting."""
        chosen = (
            list(self._waiting) if job_ids is None else [i for i in job_ids if i in self._waiting]
        )
        return [self._waiting.pop(i) for i in chosen]

    def _due(self, job_ids: list[int]) -> None:
        due = self.take(job_ids)
        if due:
            self._run(self._commit(due))

    async def flush(self) -> None:
        """Delete every waiting job now (the window closes: nothing is left undone)."""
        due = self.take()
        if due:
            await self._commit(due)
