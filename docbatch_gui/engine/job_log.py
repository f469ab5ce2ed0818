"""One log line per job failure, timeout, retry, cancel and halt: job, file and why.

The Log panel and ``logs/docbatch.log`` are where an operator or support reads what
went wrong after the fact, so every such path (intake, the worker, batch results,
the operator's own cancel and retry) goes through here.

Each line also carries itself as a message (``extra={"worded": Message}``): the file
keeps the English line, and the Log panel words it in the interface language.
"""

from __future__ import annotations

import logging
from typing import Any

from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.said import cause, say
from docbatch_gui.domain.states import JobState
from docbatch_gui.domain.text import printable

log = logging.getLogger("docbatch_gui.engine.worker")

ENDED_BADLY = (JobState.FAILED, JobState.TIMED_OUT)


def _worded(code: str, **params: Any) -> dict[str, Message]:
    return {"worded": Message(code, params)}


def _error(job: Job) -> Any:
    """The job's error as a message parameter: its code when it has one."""
    if job.error_code:
        return Message(job.error_code, job.error_params).as_dict()
    return job.error or "no reason recorded"


def job_params(job: Job) -> dict[str, Any]:
    """The job and its file as a log line names them: ``job 7 (scan.pdf)``."""
    return {"job": job.id, "file": printable(job.file_name)}


#: what an operator did to a job (``log_operator``), as message codes
OPERATOR_MOVES = {
    "queued again": "move_queued_again",
    "canceled": "move_canceled",
    "queued to be processed again": "move_reprocess",
    "removed from the queue (its documents kept)": "move_removed_kept",
    "deleted with its documents": "move_deleted",
    "set to be processed offline (no Claude request)": "move_offline",
}


def log_failure(job: Job) -> None:
    kind = job.error_kind.value if job.error_kind else "?"
    log.warning(
        "job %s (%s) %s [%s]: %s",
        job.id,
        printable(job.file_name),
        job.state.value,
        kind,
        job.error or "no reason recorded",
        extra=_worded(
            "log_job_ended",
            **job_params(job),
            state={"code": f"state_{job.state.value}"},
            kind={"code": f"kind_{kind}"},
            error=_error(job),
        ),
    )


def log_retry(job: Job, max_attempts: int) -> None:
    """A temporary failure the worker tries again by itself."""
    log.warning(
        "job %s (%s) will be tried again (attempt %s of %s failed: %s)",
        job.id,
        printable(job.file_name),
        job.attempts,
        max_attempts,
        job.error or "no reason recorded",
        extra=_worded(
            "log_job_retry",
            **job_params(job),
            attempt=job.attempts,
            attempts=max_attempts,
            error=_error(job),
        ),
    )


def log_operator(job: Job, what: str) -> None:
    """An operator's cancel, retry or reprocess: the log says who stopped or restarted
    a job when its history is read later."""
    move = OPERATOR_MOVES.get(what)
    log.info(
        "job %s (%s) %s by the operator",
        job.id,
        printable(job.file_name),
        what,
        extra=_worded("log_job_operator", **job_params(job), what={"code": move}) if move else {},
    )


def log_canceled(job: Job, what: str) -> None:
    """What the engine did about a cancel (a running job's child stopped)."""
    log.info(
        "job %s (%s) canceled: %s",
        job.id,
        printable(job.file_name),
        what,
        extra=_worded("log_job_child_stopped", **job_params(job)),
    )


def log_halt(reason: str) -> None:
    """A critical error stopped the queue: queued jobs wait for the operator."""
    log.error(
        "the queue stopped: %s. Queued jobs wait; fix the setting, then Resume.",
        reason,
        extra=_worded("log_halt", reason=cause(reason)),
    )


def log_skipped_page(job: Job, page_no: int, reason: Message, text_chars: int) -> None:
    """A page given up while the rest of the file went on: the line support looks for
    when a reviewer asks why page N has no image."""
    kept = (
        coded("log_page_text_kept", chars=text_chars) if text_chars else coded("log_page_no_text")
    )
    say(
        log,
        logging.WARNING,
        "log_page_skipped",
        **job_params(job),
        page=page_no,
        reason=cause(reason),
        kept=kept,
    )
