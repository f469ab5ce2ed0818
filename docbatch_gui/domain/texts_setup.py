"""The words of what stops DocBatch before it can work: a settings file it cannot read
or write, a setting out of range, a database or folder it cannot use.

code → English template, marked for the catalogue (``domain.messages``).
"""

from __future__ import annotations

from docbatch_gui.i18n import N_

SETUP_TEXTS: dict[str, str] = {
    # a feature chosen without its optional packages (``extras.MissingExtra``)
    "missing_extra": N_("{feature} needs the '{extra}' extra: {hint}"),
    # one setting's value (``settings.values``)
    "setting_url_not_http": N_(
        "must be an http:// or https:// address, like https://example.com/hook",
    ),
    "setting_url_no_host": N_("the address names no host: write it like https://example.com/hook"),
    "setting_url_spaces": N_("an address cannot contain spaces: check what was pasted"),
    "setting_folder_is_file": N_("{path} is a file, not a folder: choose a folder"),
    # the settings file
    "settings_file_unreadable": N_("Cannot read the settings file {path}: {error}"),
    "settings_file_unwritable": N_("Cannot write the settings file {path}: {error}"),
    "settings_file_not_utf8": N_(
        "The settings file {path} is not UTF-8 text: save it again as UTF-8, or delete it to "
        "start from the defaults",
    ),
    "settings_file_utf16": N_(
        "The settings file {path} is not UTF-8 text (it looks like UTF-16, as some Windows "
        "editors save): save it again as UTF-8, or delete it to start from the defaults",
    ),
    "settings_file_not_json": N_(
        "The settings file {path} is not valid JSON ({detail} at line {line_no}); fix it or "
        "delete it to start from the defaults",
    ),
    "settings_file_newer": N_(
        "The settings file {path} is of version {version}, newer than this DocBatch reads (up "
        "to {known}): update DocBatch, or point DOCBATCH_SETTINGS_FILE at another file",
    ),
    "settings_file_not_object": N_(
        "The settings file {path} must hold one JSON object of settings",
    ),
    "settings_file_secret": N_(
        "{name} is in the settings file {path}, where no secret is read; move it to the keyring: "
        "delete it from the file and enter it in Settings (or set the environment variable "
        "{name})",
    ),
    "secret_not_stored": N_(
        "Could not store {name} in {home} ({error}); set it in the environment instead",
    ),
    "secret_home_keyring": N_("the system keyring"),
    "secret_home_file": N_("an encrypted file ({path}), as this computer has no system keyring"),
    "secret_home_none": N_("nowhere: this computer has no keyring; set secrets in the environment"),
    # a setting's value
    "settings_invalid": N_("Invalid setting: {problems}"),
    "setting_invalid": N_("{variable}={shown} is invalid: allowed is {allowed}"),
    "setting_invalid_in_file": N_(
        "{variable}={shown} in the settings file {path} is invalid: allowed is {allowed}",
    ),
    "setting_wrong": N_("{variable}={shown}: {problem}"),
    "setting_wrong_in_file": N_("{variable}={shown} in the settings file {path}: {problem}"),
    "allowed_one_of": N_("one of {values}"),
    "allowed_one_of_or_empty": N_("one of {values}, or empty (the system's)"),
    "allowed_whole_number": N_("a whole number"),
    "allowed_number": N_("a number"),
    "allowed_true_false": N_("true or false"),
    "allowed_whole_number_range": N_("a whole number from {lower} to {upper}"),
    "allowed_number_range": N_("a number from {lower} to {upper}"),
    "setting_tool_output_refused": N_(
        "CLAUDE_OUTPUT=tool cannot be used: {refusal}. Use json_schema.",
    ),
    "setting_max_tokens_too_many": N_(
        "MAX_OUTPUT_TOKENS={tokens} is more than {model} writes ({most})",
    ),
    "tool_choice_refused": N_("{model} refuses a forced tool_choice on every request"),
    "tool_choice_refused_thinking": N_("{model} refuses a forced tool_choice while thinking is on"),
    "profile_model_refused": N_("{where}: models.{role} '{model}': {problem}"),
    "bundled_profile": N_("the bundled profile"),
    # the database and the data folder
    "storage_disk_full": N_(
        "The disk holding {path} is full: free some space, then try again (nothing was lost; "
        "unfinished work is picked up again).",
    ),
    "storage_locked": N_(
        "{path} is locked by another program (waited {seconds} s): close whatever holds it (a "
        "database browser, a backup tool); the work is retried.",
    ),
    "storage_damaged": N_(
        "{path} is damaged ({detail}): restore it from a backup, or move it aside to start with "
        "an empty one. DocBatch does not replace it.",
    ),
    "storage_unwritable": N_(
        "{path} cannot be written ({detail}): give this user write access, or set "
        "DOCBATCH_DATA_DIR to a writable folder.",
    ),
    "storage_unreachable": N_(
        "{path} cannot be opened ({detail}): its folder is missing or unreachable; check "
        "DOCBATCH_DATA_DIR (is the disk mounted?).",
    ),
    "storage_empty": N_(
        "{path} is empty (0 bytes): it was cut off, by a full disk or a bad copy. Restore it from "
        "a backup; delete it only to start again with no jobs.",
    ),
    "storage_other": N_("{path}: {detail}"),
}
