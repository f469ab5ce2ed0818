"""The words of what the outside services say: Claude (sync and Message Batches) and
Google Vision, from a refused key to a request that expired in a batch.

code → {language: template}, as in ``texts_jobs``; every code has both languages and
the same placeholders in each (``tests/unit/test_messages.py``).
"""

from __future__ import annotations

SERVICE_TEXTS: dict[str, dict[str, str]] = {
    # Claude
    "claude_key_refused": {
        "en": "Claude refused the API key ({status}: {detail}). Check ANTHROPIC_API_KEY; "
        "processing has stopped and nothing else is sent until it is fixed.",
        "ru": "Claude отклонил API-ключ ({status}: {detail}). Проверьте ANTHROPIC_API_KEY; "
        "обработка остановлена, и ничего не отправляется, пока ключ не исправлен.",
    },
    "claude_billing": {
        "en": "Claude refused the request for billing or permission reasons ({status}: "
        "{detail}). Check the account's plan and billing; processing has stopped.",
        "ru": "Claude отклонил запрос из-за оплаты или прав доступа ({status}: {detail}). "
        "Проверьте тариф и оплату аккаунта; обработка остановлена.",
    },
    "claude_timeout": {
        "en": "Claude did not answer in time (timeout).",
        "ru": "Claude не ответил вовремя (тайм-аут).",
    },
    "claude_network": {
        "en": "Claude could not be reached (network).",
        "ru": "Claude недоступен (сеть).",
    },
    "claude_busy": {
        "en": "Claude is busy or failing ({status}: {detail}).",
        "ru": "Claude занят или даёт сбой ({status}: {detail}).",
    },
    "claude_failed": {
        "en": "Claude call failed ({error}).",
        "ru": "Вызов Claude не удался ({error}).",
    },
    "claude_request_refused": {
        "en": "Claude refused a request DocBatch built ({reason}). This is a DocBatch or "
        "configuration problem (model, effort, thinking), not a problem with the file: "
        "processing has stopped. Check Settings → Claude, run `docbatch doctor --live`, "
        "and report it if the settings are right.",
        "ru": "Claude отклонил запрос, собранный DocBatch ({reason}). Это проблема DocBatch "
        "или настроек (модель, effort, thinking), а не файла: обработка остановлена. "
        "Проверьте «Настройки → Claude», запустите `docbatch doctor --live` и сообщите "
        "о проблеме, если настройки верны.",
    },
    # the Claude *Test connection* (``diagnostics.claude_words``)
    "claude_test_no_key": {
        "en": "No API key is set: type the Anthropic API key above, then test again.",
        "ru": "Ключ API не задан: введите ключ API Anthropic выше и проверьте снова.",
    },
    "claude_test_silent": {
        "en": "Claude gave no answer within {seconds} s: check the network or a proxy, then "
        "test again.",
        "ru": "Claude не ответил за {seconds} с: проверьте сеть или прокси и проверьте снова.",
    },
    "claude_test_ok": {
        "en": "Claude answers at {where}: the key is accepted and {model} read the sample "
        "page (cost {cost}).",
        "ru": "Claude отвечает по адресу {where}: ключ принят, {model} прочитал пробную "
        "страницу (стоимость {cost}).",
    },
    "claude_test_refused": {
        "en": "Nothing answers at {where}: the connection was refused. Check the Base URL "
        "above (leave it empty for Anthropic's own), or start the server it names.",
        "ru": "По адресу {where} никто не отвечает: в подключении отказано. Проверьте "
        "базовый URL выше (оставьте пустым для сервера Anthropic) или запустите сервер, "
        "который он называет.",
    },
    "claude_test_no_host": {
        "en": "The host of {where} cannot be found. Check the spelling of the Base URL "
        "above, and the network.",
        "ru": "Сервер {where} не найден. Проверьте написание базового URL выше и сеть.",
    },
    "claude_test_tls": {
        "en": "{where} answered, but its certificate was refused. Check the Base URL above, "
        "or a proxy that replaces certificates.",
        "ru": "{where} ответил, но его сертификат отклонён. Проверьте базовый URL выше или "
        "прокси, который подменяет сертификаты.",
    },
    "claude_test_timeout": {
        "en": "{where} did not answer in time. Check the network or a proxy, then test again.",
        "ru": "{where} не ответил вовремя. Проверьте сеть или прокси и проверьте снова.",
    },
    "claude_test_unreachable": {
        "en": "Claude cannot be reached at {where}. Check the network, a proxy, or the Base "
        "URL above.",
        "ru": "Claude недоступен по адресу {where}. Проверьте сеть, прокси или базовый URL выше.",
    },
    "claude_test_api_refused": {
        "en": "{where} answered but refused the test: {reason}",
        "ru": "{where} ответил, но отклонил проверку: {reason}",
    },
    "claude_test_step_failed": {
        "en": "The test request to {where} failed: {reason}",
        "ru": "Пробный запрос к {where} не удался: {reason}",
    },
    "claude_test_broke": {
        "en": "The test could not run: an unexpected error (see Details). Send the details "
        "to support.",
        "ru": "Проверку не удалось выполнить: непредвиденная ошибка (см. «Подробности»). "
        "Отправьте подробности в поддержку.",
    },
    "sync_needs_key": {
        "en": "{file}: sync mode needs ANTHROPIC_API_KEY. Set the key in Settings → Claude, "
        "or process the file offline.",
        "ru": "{file}: для синхронного режима нужен ANTHROPIC_API_KEY. Укажите ключ в "
        "«Настройки → Claude» или обработайте файл офлайн.",
    },
    "claude_job_timeout": {
        "en": "{file}: Claude did not finish reading it within JOB_TIMEOUT ({seconds} s); the "
        "requests were stopped. Retry it later, or raise JOB_TIMEOUT for very long files.",
        "ru": "{file}: Claude не закончил чтение за JOB_TIMEOUT ({seconds} с); запросы "
        "остановлены. Повторите позже или увеличьте JOB_TIMEOUT для очень длинных файлов.",
    },
    "claude_answer_too_long": {
        "en": "The answer for pages {pages} did not fit in {budget} output tokens, even "
        "after one retry with a larger budget. Lower GROUP_SIZE (fewer pages per request) "
        "or lower CLAUDE_EFFORT, then retry the job: answered pages are kept.",
        "ru": "Ответ для страниц {pages} не уместился в {budget} выходных токенов даже "
        "после повтора с большим лимитом. Уменьшите GROUP_SIZE (меньше страниц на запрос) "
        "или CLAUDE_EFFORT, затем повторите задание: полученные ответы сохранены.",
    },
    "claude_invalid_answer": {
        "en": "invalid answer: {problem}",
        "ru": "ответ Claude не соответствует схеме: {problem}",
    },
    "claude_requests_failed": {
        "en": "{file}: {failed} of {total} requests to Claude failed; first: {first}",
        "ru": "{file}: не удались {failed} из {total} запросов к Claude; первый: {first}",
    },
    "claude_requests_failed_retry": {
        "en": "{file}: {failed} of {total} requests to Claude failed; first: {first} Retry "
        "the job: answered pages are kept.",
        "ru": "{file}: не удались {failed} из {total} запросов к Claude; первый: {first} "
        "Повторите задание: полученные ответы сохранены.",
    },
    "batch_requests_failed": {
        "en": "{file}: {count} request(s) failed {times} times; last: {last}. Retry the "
        "job: answered pages are kept.",
        "ru": "{file}: {count} запрос(а) не удались {times} раз(а); последняя ошибка: "
        "{last}. Повторите задание: полученные ответы сохранены.",
    },
    "file_error": {"en": "{file}: {error}", "ru": "{file}: {error}"},
    # a Message Batches request that came back without an answer
    "batch_request_expired": {
        "en": "the request expired before Claude ran it (a batch runs at most 24 hours)",
        "ru": "срок запроса истёк до того, как Claude его выполнил (пакет выполняется не "
        "дольше 24 часов)",
    },
    "batch_request_canceled": {
        "en": "the batch was canceled before Claude ran the request",
        "ru": "пакет был отменён до того, как Claude выполнил запрос",
    },
    "batch_request_unknown": {
        "en": "the request came back as '{kind}', without an answer",
        "ru": "запрос вернулся со статусом «{kind}», без ответа",
    },
    "batch_request_overloaded": {
        "en": "Claude was overloaded and did not run the request",
        "ru": "Claude был перегружен и не выполнил запрос",
    },
    "batch_request_api_error": {
        "en": "Claude failed on its side while running the request",
        "ru": "у Claude произошёл внутренний сбой при выполнении запроса",
    },
    "batch_request_rate_limited": {
        "en": "the account's rate limit stopped the request",
        "ru": "запрос остановлен ограничением частоты запросов аккаунта",
    },
    "batch_request_key_refused": {
        "en": "Claude refused the API key or its permissions for the request ({detail}); "
        "check ANTHROPIC_API_KEY and the account's access",
        "ru": "Claude отклонил API-ключ или его права для запроса ({detail}); проверьте "
        "ANTHROPIC_API_KEY и доступ аккаунта",
    },
    "batch_request_billing": {
        "en": "Claude refused the request for billing reasons ({detail}); check the "
        "account's plan and billing",
        "ru": "Claude отклонил запрос из-за оплаты ({detail}); проверьте тариф и оплату аккаунта",
    },
    "batch_request_errored": {
        "en": "Claude returned an error for the request ({detail})",
        "ru": "Claude вернул ошибку на запрос ({detail})",
    },
    "batch_cut_off": {
        "en": "the answer was cut off at {budget} output tokens (sent again with {raised})",
        "ru": "ответ оборван на {budget} выходных токенах (отправлен снова с лимитом {raised})",
    },
    "vision_no_answer": {
        "en": "Google Vision did not answer page {page} after {attempts} attempts: {cause}",
        "ru": "Google Vision не ответил на страницу {page} после {attempts} попыток: {cause}",
    },
    # Google Vision: credentials and the account (these stop the queue)
    "vision_credentials_none": {
        "en": "Google Vision has no credentials: neither GOOGLE_APPLICATION_CREDENTIALS nor "
        "the credentials file setting names a service-account JSON file ({detail}). Set "
        "one of them, or choose another OCR engine in Settings → OCR.",
        "ru": "У Google Vision нет учётных данных: ни GOOGLE_APPLICATION_CREDENTIALS, ни "
        "настройка файла учётных данных не указывают JSON-файл сервисного аккаунта "
        "({detail}). Укажите его или выберите другой движок распознавания в «Настройки → "
        "OCR».",
    },
    "vision_credentials_missing": {
        "en": "The Google Vision credentials file {path} does not exist. Check the path in "
        "Settings (or GOOGLE_APPLICATION_CREDENTIALS), then press Resume.",
        "ru": "Файла учётных данных Google Vision {path} нет. Проверьте путь в настройках "
        "(или GOOGLE_APPLICATION_CREDENTIALS), затем нажмите «Продолжить».",
    },
    "vision_credentials_invalid": {
        "en": "The Google Vision credentials file {path} is not a valid service-account JSON "
        "key ({detail}). Download a new key for the service account in the Google Cloud "
        "console, then press Resume.",
        "ru": "Файл учётных данных Google Vision {path} — не ключ сервисного аккаунта в JSON "
        "({detail}). Скачайте новый ключ сервисного аккаунта в консоли Google Cloud, затем "
        "нажмите «Продолжить».",
    },
    "vision_credentials_refused": {
        "en": "Google Vision refused the credentials ({status}: {detail}). Check "
        "GOOGLE_APPLICATION_CREDENTIALS (or the credentials file setting) and that the "
        "service account may use the Cloud Vision API.",
        "ru": "Google Vision отклонил учётные данные ({status}: {detail}). Проверьте "
        "GOOGLE_APPLICATION_CREDENTIALS (или настройку файла учётных данных) и что "
        "сервисному аккаунту разрешён Cloud Vision API.",
    },
    "vision_token_refused": {
        "en": "Google Vision credentials were refused: no access token could be obtained "
        "({detail}). Check GOOGLE_APPLICATION_CREDENTIALS (or the credentials file "
        "setting); if the key was revoked, create a new key for the service account.",
        "ru": "Учётные данные Google Vision отклонены: не удалось получить токен доступа "
        "({detail}). Проверьте GOOGLE_APPLICATION_CREDENTIALS (или настройку файла учётных "
        "данных); если ключ отозван, создайте новый ключ сервисного аккаунта.",
    },
    "vision_billing": {
        "en": "Google Vision refused the request because billing is disabled ({detail}). "
        "Enable billing on the Google Cloud project, then press Resume.",
        "ru": "Google Vision отклонил запрос: оплата отключена ({detail}). Включите оплату "
        "в проекте Google Cloud, затем нажмите «Продолжить».",
    },
    "vision_api_disabled": {
        "en": "The Cloud Vision API is not enabled on the Google Cloud project ({detail}). "
        "Enable it in the console, then press Resume.",
        "ru": "Cloud Vision API не включён в проекте Google Cloud ({detail}). Включите его в "
        "консоли, затем нажмите «Продолжить».",
    },
    "vision_request_refused": {
        "en": "Google Vision refused the request ({status}: {detail}). Check the Vision "
        "endpoint and the OCR settings.",
        "ru": "Google Vision отклонил запрос ({status}: {detail}). Проверьте адрес Vision и "
        "настройки распознавания.",
    },
    # Google Vision: one page
    "vision_page_rejected": {
        "en": "Google Vision rejected this page (400: {detail})",
        "ru": "Google Vision отклонил эту страницу (400: {detail})",
    },
    "vision_page_unreadable": {
        "en": "Google Vision could not read this page ({detail})",
        "ru": "Google Vision не смог прочитать эту страницу ({detail})",
    },
    # why Google Vision gave no answer (the cause in vision_no_answer)
    "vision_cause_timeout": {
        "en": "no answer within {seconds} s",
        "ru": "нет ответа за {seconds} с",
    },
    "vision_cause_network": {
        "en": "cannot connect to Google Vision ({error})",
        "ru": "нет связи с Google Vision ({error})",
    },
    "vision_cause_quota": {
        "en": "the project's Vision quota is used up for now ({detail}); raise the quota in "
        "the Google Cloud console or wait",
        "ru": "квота Vision проекта пока исчерпана ({detail}); увеличьте квоту в консоли "
        "Google Cloud или подождите",
    },
    "vision_cause_busy": {
        "en": "Google Vision is busy or failing ({status}: {detail})",
        "ru": "Google Vision занят или даёт сбой ({status}: {detail})",
    },
    "vision_cause_other": {
        "en": "{error}",
        "ru": "{error}",
    },
}
