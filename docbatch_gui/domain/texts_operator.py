"""The words of refusals an operator meets by acting: a retry, cancel, reprocess or
delete the job's state forbids, corrections at stake, an edit that cannot be saved,
a registry that refuses an import, an export or an assignment. A job state a message
names (``state_<value>``) is worded from ``domain.state_names``.

code → English template, marked for the catalogue (``domain.messages``).
"""

from __future__ import annotations

from docbatch_gui.i18n import N_, NN_, Plural

OPERATOR_TEXTS: dict[str, str | Plural] = {
    "state_already_waiting": N_("already waiting for the worker"),
    # the queue
    "job_not_retryable": N_(
        "job {job} ({file}) is {state}: only a finished, failed or canceled job can be retried",
    ),
    "job_not_cancelable": N_(
        "job {job} ({file}) is {state} already: only a queued or running job can be canceled; "
        "retry it to process it again",
    ),
    "job_reprocess_running": N_("{file} is {state}; wait for it to finish or cancel it first"),
    "job_delete_running": N_("{file} is {state}; cancel it before deleting"),
    "corrections_at_risk": NN_(
        "{file}: {count} document was corrected or confirmed by a person. Processing it again "
        "keeps those corrections only where the same document is found again (the rest are "
        "archived with their audit trail). Confirm to go on (--force on the command line).",
        "{file}: {count} documents were corrected or confirmed by a person. Processing it again "
        "keeps those corrections only where the same document is found again (the rest are "
        "archived with their audit trail). Confirm to go on (--force on the command line).",
        "count",
    ),
    # Review
    "review_not_a_date": N_("{value!r} is not a date; type it as dd.mm.yyyy or yyyy-mm-dd"),
    "review_not_an_amount": N_("{value!r} is not an amount; type it like 1234.56"),
    "review_line_not_a_number": N_(
        "line {row}, {column}: {value!r} is not a number; type it like 1944.30",
    ),
    "review_pages_outside": N_(
        "pages {first}–{last} are outside the file's 1–{total}; give a first page not after the "
        "last",
    ),
    # a queued job no worker here can take (``engine.holds``)
    "held_needs_key": N_(
        "{file}: held: it is to be read by Claude ({mode} mode), and no Anthropic API key is set. "
        "Add a key in Settings → Claude (or ANTHROPIC_API_KEY), or process it offline.",
    ),
    "held_claude_unreachable": N_(
        "{file}: held: Claude cannot be reached at {host}; check the network or "
        "ANTHROPIC_BASE_URL, then Retry now."
    ),
    "held_batch_unreachable": N_(
        "{file}: held: Claude's Message Batches API cannot be reached at {host}, so its "
        "batch cannot be sent or checked; nothing is sent again until the API answers. "
        "Check the network or ANTHROPIC_BASE_URL, then Retry now."
    ),
    "held_needs_vision": N_(
        "{file}: held: OCR_ENGINE is Google Vision and no Google credentials are found, so "
        "its scanned pages cannot be read. Choose the credentials file in Settings → OCR (or "
        "GOOGLE_APPLICATION_CREDENTIALS), or use Tesseract.",
    ),
    "held_wait_ended": NN_(
        "{count} job held, not waited for: {reason}",
        "{count} jobs held, not waited for: {reason}",
        "count",
    ),
    # a state change refused inside the store (a race, or a worker of an older attempt)
    "transition_refused": N_("job {job} cannot move from {current} to {target}"),
    "transition_refused_any": N_("job cannot move from {current} to {target}"),
    "transition_not_expected": N_("job {job} is {current}, not {expected}: refused"),
    "stale_attempt": N_("job {job} is at attempt {attempts}, not {attempt}: stale worker refused"),
    "batch_not_cancelable": N_("batch {batch} is {status}"),
}
