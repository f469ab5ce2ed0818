"""Recovery on start: pick up every job where the last run stopped.

Called only by the process that holds the worker lock, so any job in a local active
state has no live worker: it was interrupted by a crash or a kill. It goes back to the
queue, unless it was interrupted too often in the same place, which points at the
file itself (seed 004: isolate it rather than retry without bound).
"""

from __future__ import annotations

import logging

from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import RECOVERABLE_STATES, JobState
from docbatch_gui.storage.store import Store

log = logging.getLogger(__name__)


def recover_interrupted(store: Store, *, max_attempts: int) -> list[Job]:
    recovered = []
    for job in store.list_jobs(states=RECOVERABLE_STATES):
        if job.attempts >= max_attempts:
            job = store.transition(
                job.id,
                JobState.FAILED,
                expected=job.state,
                error_kind=ErrorKind.UNSUPPORTED,
                error=f"{job.file_name}: processing was interrupted {job.attempts} times while "
                f"in {job.state}; the file may crash the worker. Check the file, then retry.",
            )
        else:
            job = store.transition(
                job.id,
                JobState.QUEUED,
                expected=job.state,
                error=None,
                phase=job.phase,
            )
        log.info("recovered job %s (%s) → %s", job.id, job.file_name, job.state)
        recovered.append(job)
    return recovered
