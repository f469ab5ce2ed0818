"""One log line per job failure, timeout, retry, cancel and halt: job, file and why.

``logs/docbatch.log`` is where support reads what went wrong after the fact, so
every such path (intake, the worker, batch results, the operator's own cancel and
retry) goes through here. The lines are plain English; the window's Log panel shows
the same moments as job events in the interface language (``_qt.widgets.log_events``).
"""

from __future__ import annotations

import logging

from docbatch_gui.domain.attempts import attempt_reason, automatic_attempt
from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import JobState
from docbatch_gui.domain.text import printable

log = logging.getLogger("docbatch_gui.engine.worker")

ENDED_BADLY = (JobState.FAILED, JobState.TIMED_OUT)


def log_failure(job: Job) -> None:
    kind = job.error_kind.value if job.error_kind else "?"
    log.warning(
        "job %s (%s) %s [%s]: %s",
        job.id,
        printable(job.file_name),
        job.state.value,
        kind,
        job.error or "no reason recorded",
    )


def log_retry(job: Job, max_attempts: int) -> None:
    """A temporary failure the worker tries again by itself: the one line of that
    attempt, without the reason's "Retry the job" (nobody needs to, yet)."""
    reason = attempt_reason(job.error_message)
    log.warning(
        "job %s (%s) attempt %s of %s failed; trying again automatically: %s",
        job.id,
        printable(job.file_name),
        automatic_attempt(job),
        max_attempts,
        reason.english if reason is not None else "no reason recorded",
    )


def log_operator(job: Job, what: str) -> None:
    """An operator's cancel, retry or reprocess: the log says who stopped or restarted
    a job when its history is read later."""
    log.info("job %s (%s) %s by the operator", job.id, printable(job.file_name), what)


def log_canceled(job: Job, what: str) -> None:
    """What the engine did about a cancel (a running job's child stopped)."""
    log.info("job %s (%s) canceled: %s", job.id, printable(job.file_name), what)


def log_halt(reason: str) -> None:
    """A critical error stopped the queue: queued jobs wait for the operator."""
    log.error("the queue stopped: %s. Queued jobs wait; fix the setting, then Resume.", reason)


def log_skipped_page(job: Job, page_no: int, reason: Message, text_chars: int) -> None:
    """A page given up while the rest of the file went on: the line support looks for
    when a reviewer asks why page N has no image."""
    kept = (
        f"its text layer ({text_chars} characters) is kept"
        if text_chars
        else "it has no text layer to keep"
    )
    log.warning(
        "job %s (%s) page %s skipped: %s; %s. Splitting the file would not help: the page itself "
        "is too complex for the renderer. Look at it in the source file.",
        job.id,
        printable(job.file_name),
        page_no,
        reason,
        kept,
    )
