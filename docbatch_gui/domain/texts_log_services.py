"""The words of the services' log lines (``domain.said.say``): Claude requests and
caching, child processes, webhooks, settings and secrets, blobs, the registry's
readers, watched folders, locks and the command line.

code → {language: template}, as in ``texts_jobs``; every code has both languages and
the same placeholders in each (``tests/unit/test_messages.py``). The English template
is the line ``logs/docbatch.log`` keeps, so support's searches and the tests find it.
"""

from __future__ import annotations

LOG_SERVICE_TEXTS: dict[str, dict[str, str]] = {
    # Claude: prompt caching and the sync client
    "log_caching_off": {
        "en": "prompt caching is off for {model}: the shared prefix (system prompt and "
        "schema, about {tokens} tokens) is under the model's minimum of {minimum} cacheable "
        "tokens, so the API would not cache it; requests go unmarked and pay the prefix as "
        "input",
        "ru": "кэширование промпта для {model} выключено: общий префикс (системный промпт и "
        "схема, около {tokens} токенов) короче минимума модели в {minimum} кэшируемых "
        "токенов, поэтому Claude не стал бы его кэшировать; запросы идут без пометки и оплачивают "
        "префикс как входные токены",
    },
    "log_sync_start": {
        "en": "sync extraction start: {requests} requests, concurrency {concurrency}",
        "ru": "синхронное извлечение начато: запросов {requests}, одновременно {concurrency}",
    },
    "log_sync_end": {
        "en": "sync extraction end: {requests} requests, concurrency {concurrency}, "
        "succeeded {succeeded}, failed {failed}, elapsed {elapsed:.2f}s",
        "ru": "синхронное извлечение завершено: запросов {requests}, одновременно "
        "{concurrency}, успешно {succeeded}, с ошибкой {failed}, время {elapsed:.2f} с",
    },
    "log_claude_critical": {"en": "{error}", "ru": "{error}"},
    "log_claude_cut_off": {
        "en": "{request} (pages {pages}): the answer was cut off at max_tokens {budget}; "
        "sent once more with {raised}",
        "ru": "{request} (страницы {pages}): ответ оборван на пределе max_tokens {budget}; "
        "отправлен ещё раз с пределом {raised}",
    },
    "log_claude_invalid_answer": {
        "en": "{request}: {error} (attempt {attempt})",
        "ru": "{request}: {error} (попытка {attempt})",
    },
    # webhooks
    "log_webhook_unreadable": {
        "en": "webhook message {path} cannot be read ({error}); left in place",
        "ru": "сообщение веб-хука {path} не читается ({error}); оставлено на месте",
    },
    "log_webhook_failed": {
        "en": "webhook for job {job} ({event}) failed: {error}; kept for `docbatch webhooks "
        "--resend`",
        "ru": "веб-хук задания {job} ({event}) не доставлен: {error}; сохранён для "
        "`docbatch webhooks --resend`",
    },
    "log_webhook_delivered": {
        "en": "webhook for job {job} ({event}) delivered after {tries} try(s)",
        "ru": "веб-хук задания {job} ({event}) доставлен, попыток: {tries}",
    },
    "log_webhook_sender_failed": {
        "en": "webhook sender failed; it sends again when woken",
        "ru": "сбой отправки веб-хуков; отправка повторится при следующем пробуждении",
    },
    "log_webhook_not_queued": {
        "en": "webhook for job {job} not queued: {error}",
        "ru": "веб-хук задания {job} не поставлен в очередь: {error}",
    },
    # why a webhook was not delivered (stored with the failed message too)
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
    # child processes
    "log_group_survived": {
        "en": "process group {group} survived SIGKILL for {seconds:.1f}s",
        "ru": "группа процессов {group} не завершилась за {seconds:.1f} с после SIGKILL",
    },
    # the registry's readers
    "log_registry_streamed": {
        "en": "{file}: streamed by openpyxl ({reason})",
        "ru": "{file}: читается потоком через openpyxl ({reason})",
    },
    "log_reason_calamine_failed": {"en": "calamine: {error}", "ru": "calamine: {error}"},
    "log_reason_calamine_memory": {
        "en": "about {mb} MB in calamine",
        "ru": "около {mb} МБ в calamine",
    },
    "log_reason_irregular_sheet": {
        "en": "irregular sheet",
        "ru": "лист записан в нестандартном виде",
    },
    "log_calamine_exit": {"en": "exit code {exit}", "ru": "код выхода {exit}"},
    "log_calamine_exit_detail": {
        "en": "exit code {exit}: {detail}",
        "ru": "код выхода {exit}: {detail}",
    },
    "log_calamine_no_child": {
        "en": "{file}: calamine in this process (no child: {error})",
        "ru": "{file}: calamine работает в этом процессе (дочерний процесс не запущен: {error})",
    },
    # settings and secrets
    "log_setting_unknown": {
        "en": "unknown setting {key} in {path} is ignored",
        "ru": "неизвестная настройка {key} в {path} пропущена",
    },
    "log_setting_secret_in_file": {
        "en": "{name} in {path} is ignored: secrets live in the keyring",
        "ru": "{name} в {path} не учитывается: секреты хранятся в хранилище ключей",
    },
    "log_settings_saved": {
        "en": "settings saved to {path} ({count} values differ from the defaults)",
        "ru": "настройки сохранены в {path} (значений, отличных от исходных: {count})",
    },
    "log_keyring_none": {
        "en": "no system keyring ({error})",
        "ru": "системного хранилища ключей нет ({error})",
    },
    "log_keyring_file_no_key": {
        "en": "{path} exists but its key ({variable} or {key_path}) is missing",
        "ru": "{path} есть, но ключа к нему ({variable} или {key_path}) нет",
    },
    "log_secrets_unavailable": {
        "en": "stored secrets unavailable ({error}); using the environment only",
        "ru": "сохранённые секреты недоступны ({error}); используются только переменные окружения",
    },
    # watched folders
    "log_watch_failed": {
        "en": "watched folders: a listing failed; the watcher goes on",
        "ru": "отслеживаемые папки: просмотр не удался; наблюдение продолжается",
    },
    "log_watch_file_failed": {
        "en": "watched folders: {file} could not be handled and is passed over; the other "
        "files are taken",
        "ru": "отслеживаемые папки: {file} не удалось обработать, он пропущен; остальные "
        "файлы берутся",
    },
    "log_watch_no_events": {
        "en": "no file events for {folder} ({error}); listing every {poll:g} s",
        "ru": "для {folder} нет уведомлений об изменениях ({error}); папка просматривается "
        "каждые {poll:g} с",
    },
    "log_watch_back": {
        "en": "watched folder {folder} is back",
        "ru": "отслеживаемая папка {folder} снова доступна",
    },
    "log_watch_problem": {
        "en": "watched folder {problem}",
        "ru": "отслеживаемая папка {problem}",
    },
    "log_watch_unreadable": {
        "en": "{folder}: {error}; tried again every {poll:g} s",
        "ru": "{folder}: {error}; повторная попытка каждые {poll:g} с",
    },
    "log_watch_missing": {
        "en": "{folder} is missing or not a folder",
        "ru": "папки {folder} нет, или это не папка",
    },
    # blobs
    "log_blob_repaired": {
        "en": "blob {key} was damaged; replaced with a good copy",
        "ru": "файл хранилища {key} был повреждён; заменён исправной копией",
    },
    "log_blob_cache_damaged": {
        "en": "cached blob {key} was damaged; downloading it again",
        "ru": "копия файла хранилища {key} в кэше повреждена; загружается заново",
    },
    # locks and the shared workload
    "log_leader_unreachable": {
        "en": "leader lock: Redis unreachable ({error}); not leading",
        "ru": "блокировка ведущей машины: Redis недоступен ({error}); эта машина не ведущая",
    },
    "log_leader_taken": {
        "en": "leader lock taken by {token}",
        "ru": "блокировку ведущей машины получил {token}",
    },
    "log_leader_lost": {
        "en": "leader lock lost by {token} ({error}); another machine may lead now",
        "ru": "{token} потерял блокировку ведущей машины ({error}); ведущей теперь может "
        "быть другая машина",
    },
    "log_lock_held": {
        "en": "{path} is held by another DocBatch process on this data folder (the window, "
        "or another docbatch command): that one processes the jobs, this one watches them "
        "until it exits",
        "ru": "файл блокировки {path} занят другим процессом DocBatch с этой папкой данных "
        "(окном или другой командой docbatch): задания обрабатывает он, а этот лишь следит "
        "за ними, пока сам не завершится",
    },
    "log_workload_unreachable": {
        "en": "Redis at {url} is unreachable ({error}): the workload is not shared; imports "
        "use {pdf} PDF and {tiff} TIFF threads",
        "ru": "Redis по адресу {url} недоступен ({error}): нагрузка не делится между "
        "машинами; потоки импорта: PDF — {pdf}, TIFF — {tiff}",
    },
    # Celery tasks
    "log_registry_gone": {
        "en": "registry {registry} failed and no longer exists: {error}",
        "ru": "реестр {registry} завершился с ошибкой и больше не существует: {error}",
    },
    "log_registry_export_failed": {
        "en": "export failed: {error}",
        "ru": "выгрузка не удалась: {error}",
    },
    "log_worker_lost": {
        "en": "job {job}: worker lost during {state}; running it again",
        "ru": "задание {job}: обработчик Celery пропал на этапе «{state}»; задание запускается "
        "снова",
    },
}
