"""The words of refusals an operator meets by acting: a retry, cancel, reprocess or
delete the job's state forbids, corrections at stake, an edit that cannot be saved,
a registry that refuses an import, an export or an assignment. And the job states
themselves, for messages that name one.

code → {language: template}, as in ``texts_jobs``; every code has both languages and
the same placeholders in each (``tests/unit/test_messages.py``).
"""

from __future__ import annotations

#: a job state as a message names it (``state_<value>``; ``states.state_words``)
STATE_TEXTS: dict[str, dict[str, str]] = {
    "state_queued": {"en": "queued", "ru": "в очереди"},
    "state_preparing": {"en": "preparing", "ru": "подготовка"},
    "state_ocr": {"en": "ocr", "ru": "OCR"},
    "state_extracting": {"en": "extracting", "ru": "извлечение"},
    "state_submitted": {"en": "submitted", "ru": "отправлено"},
    "state_processing": {"en": "processing", "ru": "в пакете"},
    "state_building": {"en": "building", "ru": "формирование"},
    "state_done": {"en": "done", "ru": "готово"},
    "state_needs_review": {"en": "needs_review", "ru": "требует проверки"},
    "state_failed": {"en": "failed", "ru": "ошибка"},
    "state_timed_out": {"en": "timed_out", "ru": "время истекло"},
    "state_canceled": {"en": "canceled", "ru": "отменено"},
    "state_duplicate": {"en": "duplicate", "ru": "дубликат"},
    "state_already_waiting": {
        "en": "already waiting for the worker",
        "ru": "уже ждёт обработчика",
    },
}

OPERATOR_TEXTS: dict[str, dict[str, str]] = {
    **STATE_TEXTS,
    # the queue
    "job_not_retryable": {
        "en": "job {job} ({file}) is {state}: only a finished, failed or canceled job can be "
        "retried",
        "ru": "задание {job} ({file}) в состоянии «{state}»: повторить можно только "
        "завершённое, неудачное или отменённое задание",
    },
    "job_not_cancelable": {
        "en": "job {job} ({file}) is {state} already: only a queued or running job can be "
        "canceled; retry it to process it again",
        "ru": "задание {job} ({file}) уже в состоянии «{state}»: отменить можно только "
        "задание в очереди или в работе; чтобы обработать его снова, повторите его",
    },
    "job_reprocess_running": {
        "en": "{file} is {state}; wait for it to finish or cancel it first",
        "ru": "{file} в состоянии «{state}»; дождитесь окончания или сначала отмените его",
    },
    "job_delete_running": {
        "en": "{file} is {state}; cancel it before deleting",
        "ru": "{file} в состоянии «{state}»; отмените его, прежде чем удалять",
    },
    "corrections_at_risk": {
        "en": "{file}: {count} document(s) were corrected or confirmed by a person. "
        "Processing it again keeps those corrections only where the same document is found "
        "again (the rest are archived with their audit trail). Confirm to go on (--force on "
        "the command line).",
        "ru": "{file}: документов, исправленных или подтверждённых человеком: {count}. При "
        "повторной обработке исправления сохранятся только там, где снова найден тот же "
        "документ (остальные уйдут в архив вместе с историей правок). Подтвердите, чтобы "
        "продолжить (--force в командной строке).",
    },
    # Review
    "review_not_a_date": {
        "en": "{value!r} is not a date; type it as dd.mm.yyyy or yyyy-mm-dd",
        "ru": "{value!r} — не дата; введите её как дд.мм.гггг или гггг-мм-дд",
    },
    "review_not_an_amount": {
        "en": "{value!r} is not an amount; type it like 1234.56",
        "ru": "{value!r} — не сумма; введите её как 1234.56",
    },
    "review_line_not_a_number": {
        "en": "line {row}, {column}: {value!r} is not a number; type it like 1944.30",
        "ru": "строка {row}, {column}: {value!r} — не число; введите его как 1944,30",
    },
    "review_pages_outside": {
        "en": "pages {first}–{last} are outside the file's 1–{total}; give a first page not "
        "after the last",
        "ru": "страницы {first}–{last} вне страниц файла 1–{total}; первая страница должна "
        "быть не позже последней",
    },
    # the Log panel's lines about jobs (``engine.job_log``)
    "log_job_ended": {
        "en": "job {job} ({file}) {state} [{kind}]: {error}",
        "ru": "задание {job} ({file}): {state} [{kind}]: {error}",
    },
    "log_job_retry": {
        "en": "job {job} ({file}) will be tried again (attempt {attempt} of {attempts} "
        "failed: {error})",
        "ru": "задание {job} ({file}) будет повторено (попытка {attempt} из {attempts} не "
        "удалась: {error})",
    },
    "log_job_operator": {
        "en": "job {job} ({file}) {what} by the operator",
        "ru": "задание {job} ({file}): {what} (оператор)",
    },
    "move_queued_again": {"en": "queued again", "ru": "снова в очереди"},
    "move_canceled": {"en": "canceled", "ru": "отменено"},
    "move_reprocess": {
        "en": "queued to be processed again",
        "ru": "поставлено на повторную обработку",
    },
    "move_removed_kept": {
        "en": "removed from the queue (its documents kept)",
        "ru": "убрано из очереди (документы сохранены)",
    },
    "move_deleted": {"en": "deleted with its documents", "ru": "удалено вместе с документами"},
    "move_offline": {
        "en": "set to be processed offline (no Claude request)",
        "ru": "переведено на обработку офлайн (без запросов к Claude)",
    },
    # a queued job no worker here can take (``engine.holds``)
    "held_needs_key": {
        "en": "{file}: held: it is to be read by Claude ({mode} mode), and no Anthropic API "
        "key is set. Add a key in Settings → Claude (or ANTHROPIC_API_KEY), or process it "
        "offline.",
        "ru": "{file}: задержано: его должен прочитать Claude (режим {mode}), а ключ API "
        "Anthropic не задан. Добавьте ключ в «Настройки → Claude» (или ANTHROPIC_API_KEY) "
        "или обработайте файл офлайн.",
    },
    "held_wait_ended": {
        "en": "{count} job(s) held, not waited for: {reason}",
        "ru": "задержано заданий: {count}, их не ждём: {reason}",
    },
    "log_job_child_stopped": {
        "en": "job {job} ({file}) canceled: its child process was stopped and its partial "
        "results discarded",
        "ru": "задание {job} ({file}) отменено: его дочерний процесс остановлен, частичные "
        "результаты отброшены",
    },
    "log_halt": {
        "en": "the queue stopped: {reason}. Queued jobs wait; fix the setting, then Resume.",
        "ru": "очередь остановлена: {reason}. Задания в очереди ждут; исправьте настройку, "
        "затем нажмите «Продолжить».",
    },
    # a state change refused inside the store (a race, or a worker of an older attempt)
    "transition_refused": {
        "en": "job {job} cannot move from {current} to {target}",
        "ru": "задание {job} не может перейти из состояния «{current}» в «{target}»",
    },
    "transition_refused_any": {
        "en": "job cannot move from {current} to {target}",
        "ru": "задание не может перейти из состояния «{current}» в «{target}»",
    },
    "transition_not_expected": {
        "en": "job {job} is {current}, not {expected}: refused",
        "ru": "задание {job} в состоянии «{current}», а не {expected}: отказано",
    },
    "stale_attempt": {
        "en": "job {job} is at attempt {attempts}, not {attempt}: stale worker refused",
        "ru": "задание {job} уже на попытке {attempts}, а не {attempt}: отказано "
        "устаревшему обработчику",
    },
    "batch_not_cancelable": {
        "en": "batch {batch} is {status}",
        "ru": "пакет {batch} в состоянии {status}: отменить нельзя",
    },
}
