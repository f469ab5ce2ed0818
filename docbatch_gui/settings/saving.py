"""Saving what an operator chose: validated against the settings model first, secrets
to the keyring, the rest to the settings file."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.settings.checks import check_settings
from docbatch_gui.settings.file import (
    SECRET_VARIABLES,
    URI_VARIABLES,
    jsonable,
    read_settings_file,
    settings_object,
    settings_path,
    store_secrets,
    unwrap_secret,
    variable_of,
    write_atomically,
)
from docbatch_gui.settings.file import environment_overrides as _environment_overrides
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.secrets import keyring_secret, password_entry, split_uri_password

log = logging.getLogger(__name__)


def environment_overrides() -> set[str]:
    """Variable names set in the environment: they win over the file (read-only)."""
    return _environment_overrides(Settings)


def save_settings(values: Mapping[str, Any]) -> Settings:
    """Validate, store secrets in the keyring and the rest in the file; return the
    settings now in force (the environment still on top).

    ``values`` is keyed by variable or field name; keys not given keep what the file
    had. An empty secret removes it from the keyring. Raises ConfigError (with secrets
    masked) and writes nothing when a value is invalid.
    """
    given = {variable_of(key, Settings): unwrap_secret(value) for key, value in values.items()}
    # refuses invalid values, and folders or a profile the disk refuses, before anything
    # is written
    checked = check_settings(load_settings(**given), given)
    secrets: dict[str, str | None] = {}
    plain: dict[str, Any] = {}
    for variable, value in given.items():
        if variable in SECRET_VARIABLES:
            secrets[variable] = value or None
            continue
        field = next(f for f, i in Settings.model_fields.items() if i.alias == variable)
        normal = getattr(checked, field)
        if variable in URI_VARIABLES:
            normal, secrets[password_entry(variable)] = split_uri_password(normal or "")
            normal = normal or None
        plain[variable] = jsonable(normal)
    path = settings_path()
    try:
        existing = read_settings_file(Settings, path)
    except ConfigError:
        existing = {}  # a broken file is replaced by the valid settings being saved
    merged = {**existing, **plain}
    stored = {k: v for k, v in sorted(merged.items()) if not _is_default(k, v)}
    # which secrets change, by name (their values are never logged)
    secret_was = {k: keyring_secret(k) for k in secrets if k in SECRET_VARIABLES}
    store_secrets(secrets)
    write_atomically(path, settings_object(stored))
    changed = [k for k in sorted(plain) if existing.get(k) != stored.get(k)]
    changed += [f"{k} (secret)" for k, was in sorted(secret_was.items()) if was != secrets[k]]
    differ = f"{len(stored)} value differs" if len(stored) == 1 else f"{len(stored)} values differ"
    log.info(
        "settings saved to %s: %s changed; %s from the defaults: %s", str(path),
        ", ".join(changed) or "nothing", differ, ", ".join(stored) or "none",
    )  # fmt: skip
    return load_settings()


def _is_default(variable: str, value: Any) -> bool:
    for info in Settings.model_fields.values():
        if info.alias == variable:
            default = info.get_default(call_default_factory=True)
            return (value is None and default is None) or value == jsonable(default)
    return False
