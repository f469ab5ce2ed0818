"""Distributed execution: queued jobs go to Celery workers instead of this process.

The GUI and the CLI keep watching the store exactly as in-process; only who does
the work changes. Sending a job twice is harmless (the claim lets one run) but
wasteful, so each process remembers what it sent.

The budget holds as in-process: only the jobs the process's budget gate admits are
sent (a run over a cap waits queued under its hold), each with the admitted run it
counts against, so a worker's reservations keep the run cap as well as the month cap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docbatch_gui.distributed.celery_app import configure
from docbatch_gui.distributed.tasks import process_job
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.store import Store

if TYPE_CHECKING:
    from docbatch_gui.engine.budget import BudgetGate

#: batch-mode jobs are prepared and submitted by the batch loop's leader
DISPATCHED_MODES = ("offline", "sync")


def dispatch_queued(
    store: Store, settings: Settings, sent: set[int], gate: BudgetGate | None = None
) -> list[str]:
    """Send every queued job not sent yet that ``gate`` admits (all of them without a
    gate); returns the Celery task ids."""
    configure(settings)
    task_ids = []
    for mode in DISPATCHED_MODES:
        queued = store.list_jobs(states=[JobState.QUEUED], mode=mode)
        waiting = [j for j in queued if j.id not in sent]
        admitted = gate.admit(waiting) if gate is not None else waiting
        for job in admitted:
            run = gate.run_of(job.id) if gate is not None else None
            task_ids.append(process_job.delay(job.id, budget_run=run).id)
            sent.add(job.id)
    return task_ids
