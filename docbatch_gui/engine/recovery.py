"""Recovery on start: pick up every job where the last run stopped.

Called only by the process that holds the worker lock, so any job in a local active
state has no live worker: it was interrupted by a crash or a kill. It goes back to the
queue. An interrupted worker (killed, restarted, the machine rebooted) is not the
file's fault and does not count against it: only a crash of the file's own render or
OCR child does (``Job.crashes``, counted by the worker). ``max_attempts`` is a safety
net against a file that somehow kills the worker itself every time.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from docbatch_gui.domain.attempts import automatic_attempt
from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.messages import coded
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import RECOVERABLE_STATES, JobState, state_words
from docbatch_gui.domain.text import printable
from docbatch_gui.storage.store import Store

log = logging.getLogger(__name__)


def recover_interrupted(
    store: Store, *, max_attempts: int, leased: Callable[[int], bool] | None = None
) -> list[Job]:
    """``leased(job_id)``: a live worker elsewhere holds the job (a Celery task's lease
    in Redis); such a job is running, not interrupted, and is left alone."""
    store.settle_intents()  # an intent half written by a killed process is finished first
    recovered = []
    for job in store.list_jobs(states=RECOVERABLE_STATES):
        if leased is not None and leased(job.id):
            log.info(
                "job %s (%s) is running on a worker; left to it", job.id, printable(job.file_name)
            )
            continue
        interrupted = automatic_attempt(job)  # counted from the operator's last Retry
        if interrupted >= max_attempts:
            job = store.transition(
                job.id,
                JobState.FAILED,
                expected=job.state,
                error_kind=ErrorKind.UNSUPPORTED,
                error=coded(
                    "interrupted_repeatedly",
                    file=job.file_name,
                    attempts=interrupted,
                    state=state_words(job.state),
                ),
            )
        else:
            job = store.transition(
                job.id, JobState.QUEUED, expected=job.state, error=None, phase=job.phase
            )
        log.info("recovered job %s (%s) → %s", job.id, printable(job.file_name), job.state.value)
        recovered.append(job)
    return recovered
