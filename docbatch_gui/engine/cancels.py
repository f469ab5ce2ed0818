"""A job the operator canceled while it ran: its task stopped, its partial results
hidden.

The worker's loop reads the running jobs' states now and then (from the window or
``docbatch cancel``, in any process); a canceled job's task is cancelled, which kills
the child it leased, and what the run left is not delivered.
"""

from __future__ import annotations

import asyncio
import logging

from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.documents import discard_documents
from docbatch_gui.engine.job_log import log_canceled
from docbatch_gui.storage.store import Store

log = logging.getLogger("docbatch_gui.engine.worker")


def stop_canceled(store: Store, running: dict[int, asyncio.Task[Job | None]]) -> list[int]:
    """Cancel the task of every running job the operator canceled: the child it
    leased is killed with its process group (``ChildPool.lease``), so its slot is
    free for the next queued file at once instead of after the file's last page.
    Returns those jobs, whose contexts' tokens the worker sets too."""
    # a task already being canceled is left alone: a second cancel would cut its
    # child's kill short
    busy = [i for i, task in running.items() if not task.done() and not task.cancelling()]
    if not busy:
        return []
    try:
        jobs = store.list_jobs(ids=busy)
    except DocBatchError as exc:  # a busy store: look again at the next poll
        log.warning("could not read the running jobs: %s", exc)
        return []
    canceled = [job.id for job in jobs if job.state is JobState.CANCELED]
    for job_id in canceled:
        running[job_id].cancel()
    return canceled


def discard_canceled(store: Store, job_id: int) -> Job | None:
    """What a canceled run left is not delivered: no documents, no pages shown. The
    job, to tell the listeners; None when it could not be read (deleted meanwhile)."""
    try:
        job = store.get_job(job_id)
        discard_documents(store, job_id)
        store.set_pages_deliverable(job_id, False)
    except DocBatchError as exc:  # deleted meanwhile, or a busy store
        log.warning("job %s: canceled; its partial results stay hidden: %s", job_id, exc)
        return None
    log_canceled(job, "its child process was stopped and its partial results discarded")
    return job
