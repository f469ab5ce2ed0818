"""The words of the engine's and the host's log lines (``domain.said.say``): jobs
rendered, read, escalated and recovered, batches sent and collected, the budget, the
engine's state.

code → {language: template}, as in ``texts_jobs``; every code has both languages and
the same placeholders in each (``tests/unit/test_messages.py``). The English template
is the line ``logs/docbatch.log`` keeps, so it stays what support searches for.
"""

from __future__ import annotations

_ESCALATION_REASONS: dict[str, dict[str, str]] = {
    # why a group goes to the escalation model (``engine.routing.REASONS``); the English
    # keeps the reason's own name, as the log always said it
    "escalate_missing_field": {"en": "missing_field", "ru": "нет ключевого поля"},
    "escalate_unsure": {"en": "unsure", "ru": "неуверенно"},
    "escalate_check_failed": {"en": "check_failed", "ru": "поле не прошло проверку"},
    "escalate_contradiction": {"en": "contradiction", "ru": "расходится со страницей"},
    # a list of such words, one pair at a time (``{rest}`` may be another pair)
    "log_list_more": {"en": "{first}, {rest}", "ru": "{first}, {rest}"},
}

_WORKER: dict[str, dict[str, str]] = {
    "log_listener_failed": {
        "en": "job listener failed",
        "ru": "сбой получателя событий задания (окна или командной строки)",
    },
    "log_running_jobs_unread": {
        "en": "could not read the running jobs: {error}",
        "ru": "не удалось прочитать выполняемые задания: {error}",
    },
    "log_canceled_results_hidden": {
        "en": "job {job}: canceled; its partial results stay hidden: {error}",
        "ru": "задание {job}: отменено; его частичные результаты остаются скрытыми: {error}",
    },
    "log_job_not_started": {
        "en": "job {job} not started: {error}",
        "ru": "задание {job} не запущено: {error}",
    },
    "log_job_interrupted": {
        "en": "job {job} ({file}) interrupted: {error}",
        "ru": "задание {job} ({file}) прервано: {error}",
    },
    # someone else moved the job meanwhile (a cancel, a retry, a timeout)
    "log_job_moved_meanwhile": {
        "en": "job {job}: {error}",
        "ru": "задание {job}: {error}",
    },
    "log_job_unexpected": {
        "en": "job {job} failed unexpectedly",
        "ru": "задание {job}: непредвиденная ошибка",
    },
    "log_child_died_retry": {
        "en": "job {job} ({file}): {error}; retrying ({crashes})",
        "ru": "задание {job} ({file}): {error}; повторяем ({crashes})",
    },
    "log_pages_already_rendered": {
        "en": "job {job}: pages already rendered; not rendering again",
        "ru": "задание {job}: страницы уже отрисованы; повторно не отрисовываются",
    },
    "log_render_done": {
        "en": "job {job} ({file}): {pages} pages prepared ({skipped} skipped), render child "
        "peak {peak:.0f} MB",
        "ru": "задание {job} ({file}): подготовлено страниц: {pages} (пропущено: {skipped}), "
        "пик памяти процесса отрисовки {peak:.0f} МБ",
    },
    "log_page_text_capped": {
        "en": "job {job} ({file}): page {page} has {chars} characters of text; the first "
        "{limit} are kept (MAX_PAGE_TEXT_CHARS)",
        "ru": "задание {job} ({file}): на странице {page} символов текста: {chars}; "
        "сохранены первые {limit} (MAX_PAGE_TEXT_CHARS)",
    },
    "log_page_skipped": {
        "en": "job {job} ({file}) page {page} skipped: {reason}; {kept}. Splitting the file "
        "would not help: the page itself is too complex for the renderer. Look at it in the "
        "source file.",
        "ru": "задание {job} ({file}): страница {page} пропущена: {reason}; {kept}. "
        "Разделение файла не поможет: сама страница слишком сложна для отрисовки. "
        "Посмотрите её в исходном файле.",
    },
    "log_page_text_kept": {
        "en": "its text layer ({chars} characters) is kept",
        "ru": "её текстовый слой ({chars} симв.) сохранён",
    },
    "log_page_no_text": {
        "en": "it has no text layer to keep",
        "ru": "текстового слоя, который можно было бы сохранить, у неё нет",
    },
    "log_page_words_unreadable": {
        "en": "job {job} page {page}: words unreadable ({error})",
        "ru": "задание {job}, страница {page}: слова страницы не читаются ({error})",
    },
    "log_ocr_cached": {
        "en": "job {job}: {pages} page(s) from the OCR cache",
        "ru": "задание {job}: страниц из кэша OCR: {pages}",
    },
    "log_ocr_failed": {
        "en": "job {job} page {page}: OCR failed: {error}",
        "ru": "задание {job}, страница {page}: OCR не удался: {error}",
    },
    "log_ocr_layer_kept": {
        "en": "job {job} page {page}: kept the file's text layer ({layer} characters); OCR "
        "read {ocr}",
        "ru": "задание {job}, страница {page}: оставлен текстовый слой файла ({layer} симв.); "
        "OCR прочитал {ocr}",
    },
    "log_passed_over": {
        "en": "passed over {path}: {problem}",
        "ru": "пропущен {path}: {problem}",
    },
    "log_job_leased": {
        "en": "job {job} ({file}) is running on a worker; left to it",
        "ru": "задание {job} ({file}) выполняется другим обработчиком; оставлено ему",
    },
    "log_job_recovered": {
        "en": "recovered job {job} ({file}) → {state}",
        "ru": "задание {job} ({file}) восстановлено → {state}",
    },
}

_CLAUDE: dict[str, dict[str, str]] = {
    "log_examples_tokens": {
        "en": "job {job}: the seller's confirmed examples add about {tokens} input tokens",
        "ru": "задание {job}: подтверждённые примеры продавца добавляют около {tokens} "
        "входных токенов",
    },
    "log_groups_reused": {
        "en": "job {job}: reusing {groups} answered groups",
        "ru": "задание {job}: повторно используются уже полученные ответы групп: {groups}",
    },
    "log_escalation_sent": {
        "en": "job {job} ({file}): group {group} (pages {pages}) goes to {model}: {reasons}",
        "ru": "задание {job} ({file}): группа {group} (страницы {pages}) передана старшей "
        "модели {model}: {reasons}",
    },
    "log_escalated_answer_kept": {
        "en": "job {job} ({file}): group {group}: the escalated answer is kept",
        "ru": "задание {job} ({file}): группа {group}: оставлен ответ старшей модели",
    },
    "log_first_answer_kept": {
        "en": "job {job} ({file}): group {group}: the first answer is kept",
        "ru": "задание {job} ({file}): группа {group}: оставлен первый ответ",
    },
    "log_escalated_failed": {
        "en": "job {job} ({file}): the escalated request of group {group} failed ({error}); "
        "the first answer stands",
        "ru": "задание {job} ({file}): запрос группы {group}, переданный старшей модели, не "
        "удался ({error}); остаётся первый ответ",
    },
    "log_escalated_no_answer": {
        "en": "job {job} ({file}): the escalated request of group {group} gave no answer "
        "({error}); the first answer stands",
        "ru": "задание {job} ({file}): запрос группы {group}, переданный старшей модели, "
        "остался без ответа ({error}); остаётся первый ответ",
    },
    "log_count_tokens_unavailable": {
        "en": "count_tokens unavailable ({error}); cost estimates use the formula",
        "ru": "подсчёт токенов API недоступен ({error}); стоимость оценивается по формуле",
    },
    "log_count_tokens_used": {
        "en": "cost estimates for {model} now use count_tokens: prefix {prefix} tokens, page "
        "factor {factor:.2f}",
        "ru": "стоимость для {model} теперь оценивается подсчётом токенов API: общая часть "
        "{prefix} токенов, коэффициент страницы {factor:.2f}",
    },
}

_BATCH: dict[str, dict[str, str]] = {
    "log_batch_paused": {
        "en": "batch worker paused: skipping submit and poll",
        "ru": "обработка пакетов приостановлена: отправка и опрос пропущены",
    },
    # a critical error (a key, billing) stopped the batch worker: the error says it all
    "log_batch_halted": {"en": "{error}", "ru": "{error}"},
    "log_batch_cycle_failed": {
        "en": "batch cycle: {error} (will try again next cycle)",
        "ru": "цикл пакетов: {error} (повтор в следующем цикле)",
    },
    "log_batch_submitted": {
        "en": "batch {batch}: {requests} requests for {jobs} jobs",
        "ru": "пакет {batch}: запросов: {requests}, заданий: {jobs}",
    },
    "log_batch_recovered": {
        "en": "recovered batch {batch} for intent {intent} after a crash",
        "ru": "после сбоя найден пакет {batch} для запланированного пакета {intent}",
    },
    "log_budget_stale_released": {
        "en": "released {count} budget reservation(s) of processes that are gone",
        "ru": "освобождено резервов бюджета завершившихся процессов: {count}",
    },
    "log_budget_reached": {
        "en": "a budget cap was reached during the run; what was answered is kept, the "
        "rest waits: {hold}",
        "ru": "во время запуска достигнут предел бюджета; полученные ответы сохранены, "
        "остальное ждёт: {hold}",
    },
    "log_batch_intent_reduced": {
        "en": "intent {intent} keeps the {kept} request(s) it still holds; the others are "
        "held elsewhere or answered and are not sent again",
        "ru": "в запланированном пакете {intent} остаются {kept} запрос(ов), которые он ещё "
        "держит; остальные уже в другом пакете или получили ответ и повторно не отправляются",
    },
    "log_batch_intent_created": {
        "en": "intent {intent} was never created; creating it now",
        "ru": "запланированный пакет {intent} так и не был создан; создаётся сейчас",
    },
    "log_batch_canceled": {
        "en": "batch {batch} canceled: all its jobs were canceled",
        "ru": "пакет {batch} отменён: все его задания отменены",
    },
    "log_batch_cache_rate": {
        "en": "batch {batch}: prompt cache hit rate {rate:.0f}% ({read} read, {written} "
        "written, {uncached} uncached input tokens)",
        "ru": "пакет {batch}: попадания в кэш промпта {rate:.0f}% (входных токенов: "
        "прочитано из кэша {read}, записано в кэш {written}, без кэша {uncached})",
    },
    "log_batch_cut_off": {
        "en": "{request} (pages {pages}): the answer was cut off at max_tokens {budget}; "
        "sent once more with {raised}",
        "ru": "{request} (страницы {pages}): ответ обрезан на пределе max_tokens {budget}; "
        "отправлен ещё раз с пределом {raised}",
    },
}

_BUDGET: dict[str, dict[str, str]] = {
    "log_budget_let_go": {
        "en": "budget: the operator let a held run go over its cap: {files} file(s), "
        "forecast ${usd}",
        "ru": "бюджет: оператор разрешил задержанному запуску выйти за бюджет: файлов: "
        "{files}, прогноз ${usd}",
    },
    "log_budget_check_failed": {
        "en": "budget: could not check the run: {error}",
        "ru": "бюджет: не удалось проверить запуск: {error}",
    },
    "log_budget_held": {"en": "budget: {hold}", "ru": "бюджет: {hold}"},
    "log_budget_admitted": {
        "en": "budget: run of {files} file(s) admitted: {why}",
        "ru": "бюджет: запуск допущен (файлов: {files}): {why}",
    },
    "log_budget_why_let_go": {
        "en": "let go over its cap by the operator",
        "ru": "оператор разрешил выйти за бюджет",
    },
    "log_budget_why_within": {
        "en": "forecast ${usd} within the caps",
        "ru": "прогноз ${usd} в пределах бюджета",
    },
}

LOG_ENGINE_TEXTS: dict[str, dict[str, str]] = {
    **_ESCALATION_REASONS,
    **_WORKER,
    **_CLAUDE,
    **_BATCH,
    **_BUDGET,
}
