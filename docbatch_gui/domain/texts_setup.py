"""The words of what stops DocBatch before it can work: a settings file it cannot read
or write, a setting out of range, a database or folder it cannot use.

code → {language: template}, as in ``texts_jobs``; every code has both languages and
the same placeholders in each (``tests/unit/test_messages.py``).
"""

from __future__ import annotations

_DEFAULTS_RU = "или удалите его, чтобы начать с настроек по умолчанию"

SETUP_TEXTS: dict[str, dict[str, str]] = {
    # one setting's value (``settings.values``)
    "setting_url_not_http": {
        "en": "must be an http:// or https:// address, like https://example.com/hook",
        "ru": "нужен адрес, начинающийся с http:// или https://, например https://example.com/hook",
    },
    "setting_url_no_host": {
        "en": "the address names no host: write it like https://example.com/hook",
        "ru": "в адресе нет имени сервера: запишите его как https://example.com/hook",
    },
    "setting_url_spaces": {
        "en": "an address cannot contain spaces: check what was pasted",
        "ru": "в адресе не может быть пробелов: проверьте, что было вставлено",
    },
    "setting_folder_is_file": {
        "en": "{path} is a file, not a folder: choose a folder",
        "ru": "{path} — это файл, а не папка: выберите папку",
    },
    # the settings file
    "settings_file_unreadable": {
        "en": "Cannot read the settings file {path}: {error}",
        "ru": "Не удаётся прочитать файл настроек {path}: {error}",
    },
    "settings_file_unwritable": {
        "en": "Cannot write the settings file {path}: {error}",
        "ru": "Не удаётся записать файл настроек {path}: {error}",
    },
    "settings_file_not_utf8": {
        "en": "The settings file {path} is not UTF-8 text: save it again as UTF-8, "
        "or delete it to start from the defaults",
        "ru": "Файл настроек {path} — не текст в UTF-8: сохраните его снова в UTF-8 "
        + _DEFAULTS_RU,
    },
    "settings_file_utf16": {
        "en": "The settings file {path} is not UTF-8 text (it looks like UTF-16, as some "
        "Windows editors save): save it again as UTF-8, or delete it to start from the "
        "defaults",
        "ru": "Файл настроек {path} — не текст в UTF-8 (похоже на UTF-16, так сохраняют "
        "некоторые редакторы Windows): сохраните его снова в UTF-8 " + _DEFAULTS_RU,
    },
    "settings_file_not_json": {
        "en": "The settings file {path} is not valid JSON ({detail} at line {line_no}); "
        "fix it or delete it to start from the defaults",
        "ru": "Файл настроек {path} — не корректный JSON ({detail}, строка {line_no}); "
        "исправьте его " + _DEFAULTS_RU,
    },
    "settings_file_not_object": {
        "en": "The settings file {path} must hold one JSON object of settings",
        "ru": "Файл настроек {path} должен содержать один объект JSON с настройками",
    },
    "settings_file_newer": {
        "en": "The settings file {path} is of version {version}, newer than this DocBatch "
        "reads (up to {known}): update DocBatch, or point DOCBATCH_SETTINGS_FILE at "
        "another file",
        "ru": "Файл настроек {path} версии {version}, а эта версия DocBatch читает "
        "файлы до версии {known}: обновите DocBatch или укажите другой файл в "
        "DOCBATCH_SETTINGS_FILE",
    },
    "settings_file_secret": {
        "en": "{name} is in the settings file {path}, where no secret is read; move it to "
        "the keyring: delete it from the file and enter it in Settings (or set the "
        "environment variable {name})",
        "ru": "{name} записан в файле настроек {path}, а секреты оттуда не читаются; "
        "перенесите его в хранилище ключей: удалите его из файла и введите в настройках "
        "(или задайте переменную окружения {name})",
    },
    "secret_not_stored": {
        "en": "Could not store {name} in {home} ({error}); set it in the environment instead",
        "ru": "Не удалось сохранить {name} в {home} ({error}); задайте его в переменной окружения",
    },
    "secret_home_keyring": {"en": "the system keyring", "ru": "системное хранилище ключей"},
    "secret_home_file": {
        "en": "an encrypted file ({path}), as this computer has no system keyring",
        "ru": "зашифрованный файл ({path}), так как на этом компьютере нет системного "
        "хранилища ключей",
    },
    "secret_home_none": {
        "en": "nowhere: this computer has no keyring; set secrets in the environment",
        "ru": "некуда: на этом компьютере нет хранилища ключей; задайте секреты в "
        "переменных окружения",
    },
    # a setting's value
    "settings_invalid": {
        "en": "Invalid setting: {problems}",
        "ru": "Недопустимая настройка: {problems}",
    },
    "setting_invalid": {
        "en": "{variable}={shown} is invalid: allowed is {allowed}",
        "ru": "{variable}={shown}: недопустимое значение; допустимо: {allowed}",
    },
    "setting_invalid_in_file": {
        "en": "{variable}={shown} in the settings file {path} is invalid: allowed is {allowed}",
        "ru": "{variable}={shown} в файле настроек {path}: недопустимое значение; "
        "допустимо: {allowed}",
    },
    "setting_wrong": {
        "en": "{variable}={shown}: {problem}",
        "ru": "{variable}={shown}: {problem}",
    },
    "setting_wrong_in_file": {
        "en": "{variable}={shown} in the settings file {path}: {problem}",
        "ru": "{variable}={shown} в файле настроек {path}: {problem}",
    },
    "allowed_one_of": {"en": "one of {values}", "ru": "одно из: {values}"},
    "allowed_one_of_or_empty": {
        "en": "one of {values}, or empty (the system's)",
        "ru": "одно из: {values} или пусто (как в системе)",
    },
    "allowed_whole_number": {"en": "a whole number", "ru": "целое число"},
    "allowed_number": {"en": "a number", "ru": "число"},
    "allowed_true_false": {"en": "true or false", "ru": "«true» или «false»"},
    "allowed_whole_number_range": {
        "en": "a whole number from {lower} to {upper}",
        "ru": "целое число от {lower} до {upper}",
    },
    "allowed_number_range": {
        "en": "a number from {lower} to {upper}",
        "ru": "число от {lower} до {upper}",
    },
    "allowed_text": {"en": "text", "ru": "текст"},
    "allowed_path": {"en": "a path", "ru": "путь"},
    "setting_tool_output_refused": {
        "en": "CLAUDE_OUTPUT=tool cannot be used: {refusal}. Use json_schema.",
        "ru": "CLAUDE_OUTPUT=tool нельзя использовать: {refusal}. Выберите json_schema.",
    },
    "setting_max_tokens_too_many": {
        "en": "MAX_OUTPUT_TOKENS={tokens} is more than {model} writes ({most})",
        "ru": "MAX_OUTPUT_TOKENS={tokens} больше, чем пишет {model} ({most})",
    },
    "tool_choice_refused": {
        "en": "{model} refuses a forced tool_choice on every request",
        "ru": "{model} отклоняет принудительный tool_choice в каждом запросе",
    },
    "tool_choice_refused_thinking": {
        "en": "{model} refuses a forced tool_choice while thinking is on",
        "ru": "{model} отклоняет принудительный tool_choice при включённых размышлениях",
    },
    "profile_model_refused": {
        "en": "{where}: models.{role} '{model}': {problem}",
        "ru": "{where}: models.{role} «{model}»: {problem}",
    },
    "bundled_profile": {"en": "the bundled profile", "ru": "встроенный профиль"},
    # the database and the data folder
    "storage_disk_full": {
        "en": "The disk holding {path} is full: free some space, then try again (nothing "
        "was lost; unfinished work is picked up again).",
        "ru": "Диск, на котором лежит {path}, заполнен: освободите место и повторите "
        "(ничего не потеряно; незавершённая работа продолжится).",
    },
    "storage_locked": {
        "en": "{path} is locked by another program (waited {seconds} s): close whatever "
        "holds it (a database browser, a backup tool); the work is retried.",
        "ru": "{path} занят другой программой (ожидание {seconds} с): закройте то, что его "
        "держит (просмотрщик баз данных, программу резервного копирования); работа будет "
        "повторена.",
    },
    "storage_damaged": {
        "en": "{path} is damaged ({detail}): restore it from a backup, or move it aside to "
        "start with an empty one. DocBatch does not replace it.",
        "ru": "{path} повреждён ({detail}): восстановите его из резервной копии или "
        "переместите в другое место, чтобы начать с пустого. DocBatch его не заменяет.",
    },
    "storage_unwritable": {
        "en": "{path} cannot be written ({detail}): give this user write access, or set "
        "DOCBATCH_DATA_DIR to a writable folder.",
        "ru": "В {path} нельзя записывать ({detail}): дайте этому пользователю право записи "
        "или укажите в DOCBATCH_DATA_DIR папку, доступную для записи.",
    },
    "storage_unreachable": {
        "en": "{path} cannot be opened ({detail}): its folder is missing or unreachable; "
        "check DOCBATCH_DATA_DIR (is the disk mounted?).",
        "ru": "{path} не открывается ({detail}): его папки нет или она недоступна; "
        "проверьте DOCBATCH_DATA_DIR (подключён ли диск?).",
    },
    "storage_empty": {
        "en": "{path} is empty (0 bytes): it was cut off, by a full disk or a bad copy. "
        "Restore it from a backup; delete it only to start again with no jobs.",
        "ru": "{path} пуст (0 байт): он обрезан из-за заполненного диска или неудачного "
        "копирования. Восстановите его из резервной копии; удаляйте его, только чтобы "
        "начать заново без заданий.",
    },
    "storage_other": {"en": "{path}: {detail}", "ru": "{path}: {detail}"},
}
