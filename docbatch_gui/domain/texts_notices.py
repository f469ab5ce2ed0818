"""Things the services tell the operator beside a job's own error: a watched folder's
news, why the budget let a run go, a cut-off answer's note, why a webhook or a
workbook read failed.

They were once worded with the log lines; the log file is plain English now, and
these stay messages because the window and the command line show them
(notifications, a request's note, a webhook's error, a registry's reason).

code → {language: template}, as in ``texts_jobs``; every code has both languages and
the same placeholders in each (``tests/unit/test_messages.py``).
"""

from __future__ import annotations

NOTICE_TEXTS: dict[str, dict[str, str]] = {
    # a watched folder's news (``app.watching``), told to the window
    "watch_type_unsupported": {
        "en": "file type not supported",
        "ru": "этот тип файлов не поддерживается",
    },
    "watch_not_taken": {
        "en": "{folder}: {file} not taken: {why}",
        "ru": "{folder}: {file} не взят: {why}",
    },
    "watch_queued": {
        "en": "{folder}: {file} queued as job {job}",
        "ru": "{folder}: {file} поставлен в очередь как задание {job}",
    },
    "watch_changed": {
        "en": "{folder}: {file} changed after it was taken as job {job}; it is left in "
        "place and taken again once complete",
        "ru": "{folder}: {file} изменился после того, как был взят заданием {job}; он "
        "остаётся на месте и будет взят снова, когда будет готов",
    },
    "watch_not_moved": {
        "en": "{folder}: {file} not moved to {subfolder}/: {error}",
        "ru": "{folder}: {file} не перемещён в {subfolder}/: {error}",
    },
    "watch_moved": {
        "en": "{folder}: {file} moved to {subfolder}/",
        "ru": "{folder}: {file} перемещён в {subfolder}/",
    },
    "watch_folder_back": {
        "en": "{folder} is back: watching it again",
        "ru": "{folder} снова доступна: наблюдение возобновлено",
    },
    # why the budget let a run go (``engine.budget``)
    "log_budget_why_let_go": {
        "en": "let go over its cap by the operator",
        "ru": "оператор разрешил выйти за бюджет",
    },
    "log_budget_why_within": {
        "en": "forecast ${usd} within the caps",
        "ru": "прогноз ${usd} в пределах бюджета",
    },
    # what a request, a webhook, a workbook or a watched folder records for the operator
    "log_claude_cut_off": {
        "en": "{request} (pages {pages}): the answer was cut off at max_tokens {budget}; "
        "sent once more with {raised}",
        "ru": "{request} (страницы {pages}): ответ оборван на пределе max_tokens {budget}; "
        "отправлен ещё раз с пределом {raised}",
    },
    "log_webhook_no_answer": {
        "en": "the receiver did not answer in time",
        "ru": "получатель не ответил вовремя",
    },
    "log_webhook_unreachable": {
        "en": "the receiver cannot be reached",
        "ru": "получатель недоступен",
    },
    "log_webhook_refused": {
        "en": "HTTP {status}: {detail}",
        "ru": "получатель ответил HTTP {status}: {detail}",
    },
    "log_reason_calamine_failed": {"en": "calamine: {error}", "ru": "calamine: {error}"},
    "log_calamine_exit_detail": {
        "en": "exit code {exit}: {detail}",
        "ru": "код выхода {exit}: {detail}",
    },
    "log_calamine_exit": {"en": "exit code {exit}", "ru": "код выхода {exit}"},
    "log_reason_calamine_memory": {
        "en": "about {mb} MB in calamine",
        "ru": "около {mb} МБ в calamine",
    },
    "log_reason_irregular_sheet": {
        "en": "irregular sheet",
        "ru": "лист записан в нестандартном виде",
    },
    "log_watch_missing": {
        "en": "{folder} is missing or not a folder",
        "ru": "папки {folder} нет, или это не папка",
    },
    "log_watch_unreadable": {
        "en": "{folder}: {error}; tried again every {poll:g} s",
        "ru": "{folder}: {error}; повторная попытка каждые {poll:g} с",
    },
    "log_registry_export_failed": {
        "en": "export failed: {error}",
        "ru": "выгрузка не удалась: {error}",
    },
}
