"""Things the services tell the operator beside a job's own error: a watched folder's
news, why the budget let a run go, a cut-off answer's note, why a webhook or a
workbook read failed.

They were once worded with the log lines; the log file is plain English now, and
these stay messages because the window and the command line show them
(notifications, a request's note, a webhook's error, a registry's reason).

code → English template, marked for the catalogue (``domain.messages``).
"""

from __future__ import annotations

from docbatch_gui.i18n import N_

NOTICE_TEXTS: dict[str, str] = {
    "watch_type_unsupported": N_("file type not supported"),
    "watch_not_taken": N_("{folder}: {file} not taken: {why}"),
    "watch_queued": N_("{folder}: {file} queued as job {job}"),
    "watch_changed": N_(
        "{folder}: {file} changed after it was taken as job {job}; it is left in place and "
        "taken again once complete",
    ),
    "watch_not_moved": N_("{folder}: {file} not moved to {subfolder}/: {error}"),
    "watch_moved": N_("{folder}: {file} moved to {subfolder}/"),
    "watch_folder_back": N_("{folder} is back: watching it again"),
    "log_budget_why_let_go": N_("let go over its cap by the operator"),
    "log_budget_why_within": N_("forecast ${usd} within the caps"),
    "log_claude_cut_off": N_(
        "{request} (pages {pages}): the answer was cut off at max_tokens {budget}; sent once "
        "more with {raised}",
    ),
    "log_webhook_no_answer": N_("the receiver did not answer in time"),
    "log_webhook_unreachable": N_("the receiver cannot be reached"),
    "log_webhook_refused": N_("HTTP {status}: {detail}"),
    "webhook_no_url": N_(
        "WEBHOOK_URL is not set: there is nowhere to send to. Set it in Settings.",
    ),
    "log_reason_calamine_failed": N_("calamine: {error}"),
    "log_calamine_exit_detail": N_("exit code {exit}: {detail}"),
    "log_calamine_exit": N_("exit code {exit}"),
    "log_reason_calamine_memory": N_("about {mb} MB in calamine"),
    "log_reason_irregular_sheet": N_("irregular sheet"),
    "log_watch_missing": N_("{folder} is missing or not a folder"),
    "log_watch_unreadable": N_("{folder}: {error}; tried again every {poll:g} s"),
    "log_registry_export_failed": N_("export failed: {error}"),
}
