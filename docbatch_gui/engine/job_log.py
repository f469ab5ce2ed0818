"""One log line per job failure or timeout: job, file, state, kind and reason.

The Log panel and ``logs/docbatch.log`` are where an operator or support reads what
went wrong after the fact, so every failure path (intake, the worker, batch results)
goes through here.
"""

from __future__ import annotations

import logging

from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import JobState

log = logging.getLogger("docbatch_gui.engine.worker")

ENDED_BADLY = (JobState.FAILED, JobState.TIMED_OUT)


def log_failure(job: Job) -> None:
    log.warning(
        "job %s (%s) %s [%s]: %s",
        job.id,
        job.file_name,
        job.state.value,
        job.error_kind.value if job.error_kind else "?",
        job.error or "no reason recorded",
    )
