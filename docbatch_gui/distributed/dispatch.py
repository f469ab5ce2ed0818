"""Distributed execution: queued jobs go to Celery workers instead of this process.

The GUI and the CLI keep watching the store exactly as in-process; only who does
the work changes. Sending a job twice is harmless (the claim lets one run) but
wasteful, so each process remembers what it sent.
"""

from __future__ import annotations

from docbatch_gui.distributed.celery_app import configure
from docbatch_gui.distributed.tasks import process_job
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.store import Store

#: batch-mode jobs are prepared and submitted by the batch loop's leader
DISPATCHED_MODES = ("offline", "sync")


def dispatch_queued(store: Store, settings: Settings, sent: set[int]) -> list[str]:
    """Send every queued job not sent yet; returns the Celery task ids."""
    configure(settings)
    task_ids = []
    for mode in DISPATCHED_MODES:
        for job in store.list_jobs(states=[JobState.QUEUED], mode=mode):
            if job.id not in sent:
                task_ids.append(process_job.delay(job.id).id)
                sent.add(job.id)
    return task_ids
