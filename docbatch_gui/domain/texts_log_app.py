"""The words of the application's and the window's own log lines (``domain.said.say``):
the engine's state, watched folders, the queue as the host reads it, the window's
start and its dialogs.

code → {language: template}, as in ``texts_jobs``; every code has both languages and
the same placeholders in each (``tests/unit/test_messages.py``).
"""

from __future__ import annotations

#: the engine's state as a log line names it (``engine_state_<value>``)
ENGINE_STATE_TEXTS: dict[str, dict[str, str]] = {
    "engine_state_running": {"en": "running", "ru": "идёт"},
    "engine_state_paused": {"en": "paused", "ru": "на паузе"},
    "engine_state_halted": {"en": "halted", "ru": "остановлена из-за ошибки"},
    "engine_state_draining": {"en": "draining", "ru": "завершает начатое"},
    "engine_state_stopped": {"en": "stopped", "ru": "остановлена"},
}

LOG_APP_TEXTS: dict[str, dict[str, str]] = {
    **ENGINE_STATE_TEXTS,
    # the engine host
    "log_engine_state": {"en": "engine {state}", "ru": "обработка: {state}"},
    "log_engine_listener_failed": {
        "en": "engine state listener failed",
        "ru": "внутренняя ошибка при оповещении о состоянии обработки",
    },
    "log_engine_start_slow": {
        "en": "the engine thread did not start in {seconds} s",
        "ru": "поток обработки не запустился за {seconds} с",
    },
    "log_engine_stop_slow": {
        "en": "the engine did not stop in {seconds} s; killing its children",
        "ru": "обработка не остановилась за {seconds} с; её дочерние процессы "
        "завершаются принудительно",
    },
    "log_engine_thread_error": {
        "en": "the engine thread ended with an error",
        "ru": "поток обработки завершился с ошибкой",
    },
    "log_pause_flag_unreadable": {
        "en": "could not read the pause flag: {error}",
        "ru": "не удалось прочитать флаг паузы: {error}",
    },
    "log_queue_unreadable": {
        "en": "could not read the queue: {error}",
        "ru": "не удалось прочитать очередь: {error}",
    },
    "log_batch_jobs_canceled": {
        "en": "batch {batch}: {count} job(s) canceled",
        "ru": "пакет {batch}: отменено заданий: {count}",
    },
    # watched folders
    "log_watching": {"en": "watching {folders}", "ru": "наблюдение за папками: {folders}"},
    "log_watched_folder": {"en": "watched folder {line}", "ru": "папка наблюдения: {line}"},
    "watch_queued": {
        "en": "{folder}: {file} queued as job {job}",
        "ru": "{folder}: {file} поставлен в очередь как задание {job}",
    },
    "watch_not_taken": {
        "en": "{folder}: {file} not taken: {why}",
        "ru": "{folder}: {file} не взят: {why}",
    },
    "watch_type_unsupported": {
        "en": "file type not supported",
        "ru": "этот тип файлов не поддерживается",
    },
    "watch_changed": {
        "en": "{folder}: {file} changed after it was taken as job {job}; it is left in "
        "place and taken again once complete",
        "ru": "{folder}: {file} изменился после того, как был взят заданием {job}; он "
        "остаётся на месте и будет взят снова, когда будет готов",
    },
    "watch_moved": {
        "en": "{folder}: {file} moved to {subfolder}/",
        "ru": "{folder}: {file} перемещён в {subfolder}/",
    },
    "watch_not_moved": {
        "en": "{folder}: {file} not moved to {subfolder}/: {error}",
        "ru": "{folder}: {file} не перемещён в {subfolder}/: {error}",
    },
    "watch_folder_back": {
        "en": "{folder} is back: watching it again",
        "ru": "{folder} снова доступна: наблюдение возобновлено",
    },
    # the window
    "log_no_translation": {
        "en": "no translation file {path}; the interface stays in English",
        "ru": "нет файла перевода {path}; интерфейс останется на английском",
    },
    "log_signal_stop": {
        "en": "signal {signal}: stopping; running steps resume on the next start",
        "ru": "сигнал {signal}: остановка; начатые шаги продолжатся при следующем запуске",
    },
    "log_budget_no_forecast": {
        "en": "budget: no forecast: {error}",
        "ru": "бюджет: прогноза нет: {error}",
    },
    "log_budget_hold_unreadable": {
        "en": "budget: could not read the hold: {error}",
        "ru": "бюджет: не удалось прочитать задержанный запуск: {error}",
    },
    "log_yadisk_token_not_stored": {
        "en": "the Yandex.Disk token was not stored ({error})",
        "ru": "токен Яндекс.Диска не сохранён ({error})",
    },
    "log_yadisk_failed": {
        "en": "Yandex.Disk import failed: {error}",
        "ru": "импорт с Яндекс.Диска не удался: {error}",
    },
    "log_background_step_failed": {
        "en": "{error}",
        "ru": "{error}",
    },
}
