"""One log line per job failure or timeout: job, file, state, kind and reason.

The Log panel and ``logs/docbatch.log`` are where an operator or support reads what
went wrong after the fact, so every failure path (intake, the worker, batch results)
goes through here.
"""

from __future__ import annotations

import logging

from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import JobState
from docbatch_gui.domain.text import printable

log = logging.getLogger("docbatch_gui.engine.worker")

ENDED_BADLY = (JobState.FAILED, JobState.TIMED_OUT)


def log_failure(job: Job) -> None:
    log.warning(
        "job %s (%s) %s [%s]: %s",
        job.id,
        printable(job.file_name),
        job.state.value,
        job.error_kind.value if job.error_kind else "?",
        job.error or "no reason recorded",
    )


def log_skipped_page(job: Job, page_no: int, reason: str, text_chars: int) -> None:
    """A page given up while the rest of the file went on: the line support looks for
    when a reviewer asks why page N has no image."""
    kept = (
        f"its text layer ({text_chars} characters) is kept"
        if text_chars
        else "it has no text layer to keep"
    )
    log.warning(
        "job %s (%s) page %s skipped: %s; %s. Splitting the file would not help: the "
        "page itself is too complex for the renderer. Look at it in the source file.",
        job.id,
        printable(job.file_name),
        page_no,
        reason,
        kept,
    )
