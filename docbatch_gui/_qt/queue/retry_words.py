"""What the queue says while the worker tries a job again after a failed attempt.

A temporary failure (Claude unreachable, a request refused) is requeued and tried
again by the worker, up to three attempts in all. The row's state and bar alone
looked like one long read; the state cell counts the attempt, and its tooltip and the
detail pane say why the last one failed, without the final failure's "Retry the job".
"""

from __future__ import annotations

from docbatch_gui._qt.language import interface_language
from docbatch_gui.domain.attempts import (
    MAX_ATTEMPTS,
    attempt_reason,
    automatic_attempt,
    retrying,
)
from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.models import Job
from docbatch_gui.i18n import _, pgettext


def retry_label(job: Job, state: str) -> str:
    """``state`` with the attempt's number while the job is tried again."""
    if not retrying(job):
        return state
    return attempt_label(state, automatic_attempt(job))


def attempt_label(state: str, attempt: int) -> str:
    """The state cell's words at an attempt: short ("Reading · 2/3"), so that they fit
    the state column at 1024 px in Russian too; the tooltip says it in words."""
    # a job's state and its attempt's number, "Reading · 2/3"; the cell is
    # narrow, the tooltip says "Attempt 1 of 3 failed…"
    return pgettext("job state while retrying", "{state} · {attempt}/{attempts}").format(
        state=state, attempt=attempt, attempts=MAX_ATTEMPTS
    )


def retry_note(job: Job, last_failure: Message | None) -> str | None:
    """Why the job is at work again: which attempt failed, and its reason if known."""
    if not retrying(job):
        return None
    note = _("Attempt {failed} of {attempts} failed; DocBatch is trying again by itself.").format(
        failed=automatic_attempt(job) - 1, attempts=MAX_ATTEMPTS
    )
    reason = attempt_reason(last_failure)
    if reason is None:
        return note
    return note + "\n" + reason.words(interface_language())
