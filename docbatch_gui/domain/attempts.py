"""A job's automatic attempts: how many the worker makes, and what to say between them.

A temporary failure (Claude unreachable, a request that failed) is tried again by
the worker itself, up to ``MAX_ATTEMPTS`` times. While it does, the failure's own
advice ("Retry the job") would be wrong: nothing is for the operator to do yet. So
the log and the queue word the reason of a failed attempt without that advice, and
keep it for the final failure only.

An operator's *Retry* or *Process again* starts a new round of automatic attempts:
they count from the job's ``retry_base`` (its attempts at that moment), not from its
first attempt ever, so a job that failed at its last attempt is not failed again at
the first temporary failure after the operator retried it.
"""

from __future__ import annotations

from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import ACTIVE_STATES

#: attempts the worker makes at a job that fails with a temporary error
MAX_ATTEMPTS = 3

#: a failure's code → the same words without "Retry the job" (said only at the end)
_WITHOUT_ADVICE = {"claude_requests_failed_retry": "claude_requests_failed"}


def automatic_attempt(job: Job, attempt: int | None = None) -> int:
    """Which automatic attempt ``attempt`` (the job's current one by default) is,
    counted from the operator's last Retry: 1 for the first after it."""
    return (job.attempts if attempt is None else attempt) - job.retry_base


def retrying(job: Job) -> bool:
    """The job is at work again after an automatic attempt failed (the first attempt
    after an operator's Retry is not one of these)."""
    return job.state in ACTIVE_STATES and 2 <= automatic_attempt(job) <= MAX_ATTEMPTS


def attempt_reason(message: Message | None) -> Message | None:
    """Why an attempt failed, without the advice to retry the job by hand."""
    if message is None or message.code not in _WITHOUT_ADVICE:
        return message
    return Message(_WITHOUT_ADVICE[message.code], dict(message.params))
