"""The settings file: what an operator chose in the GUI, below the environment.

Precedence when settings load: explicit overrides (command-line options) > the
environment > the keyring (secrets only) > this file > the model's defaults. The
environment stays on top so that a deployment script or a CI job always wins over
what someone clicked; the GUI shows such fields read-only.

The file is JSON: a ``schema_version`` and one object per section
(``settings.sections``) keyed by the environment variable names
(``{"schema_version": 2, "batch": {"BATCH_SIZE": 50}}``), so what an operator reads in
it is what they would export. A file of an older shape loads through
``settings.migrations`` and is written back in the current one. Only values that
differ from the defaults are written: a default that depends on the machine (render
workers, the OCR engine) keeps following the machine. Secrets never go into it (see
``secrets``): a secret found in the file is ignored with a warning, except
``WEBHOOK_SECRET``, which stops the load (exit 5): ignoring it would send every
delivery unsigned, which a receiver might accept.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from collections.abc import Mapping
from enum import Enum
from pathlib import Path
from typing import Any

from pydantic import SecretStr
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource

from docbatch_gui.domain.errors import ConfigError, NotFound
from docbatch_gui.settings.keystore import secret_home
from docbatch_gui.settings.migrations import SCHEMA_VERSION, VERSION_KEY, file_version, migrate
from docbatch_gui.settings.paths import settings_path
from docbatch_gui.settings.secrets import (
    SECRET_VARIABLES,
    URI_VARIABLES,
    delete_keyring_secret,
    join_uri_password,
    keyring_secret,
    password_entry,
    set_keyring_secret,
)
from docbatch_gui.settings.sections import SECTIONS
from docbatch_gui.system.privacy import make_private

log = logging.getLogger(__name__)

#: secrets whose absence weakens DocBatch silently: found in the file, they stop the
#: load with a sentence instead of being ignored
REFUSED_IN_FILE = ("WEBHOOK_SECRET",)
_SECTIONS = tuple(section.SECTION for section in SECTIONS)


def _aliases(model: type[BaseSettings]) -> dict[str, str]:
    """Every accepted key (variable name or field name, any case) -> variable name."""
    names: dict[str, str] = {}
    for field, info in model.model_fields.items():
        alias = info.alias or field.upper()
        names[alias.upper()] = alias
        names[field.upper()] = alias
    return names


def variable_of(key: str, model: type[BaseSettings]) -> str:
    """The environment variable name of a setting given by field or variable name."""
    alias = _aliases(model).get(key.upper())
    if alias is None:
        raise NotFound("setting", key)
    return alias


def section_of(key: str) -> str | None:
    """The section a setting (by variable or field name, any case) is kept in."""
    return _SECTION_OF.get(key.upper())


_SECTION_OF = {
    name.upper(): section.SECTION
    for section in SECTIONS
    for field, info in section.model_fields.items()
    for name in (field, info.alias or field)
}


def _read_object(path: Path) -> dict[str, Any] | None:
    """The file's JSON object as written; None when there is no file or it is empty."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigError.coded(
            "settings_file_unreadable", {"path": str(path), "error": exc.strerror or str(exc)}
        ) from None
    try:
        text = raw.decode("utf-8-sig")  # a BOM from Notepad is fine
    except UnicodeDecodeError:
        wide = raw[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in raw[:64]
        code = "settings_file_utf16" if wide else "settings_file_not_utf8"
        raise ConfigError.coded(code, {"path": str(path)}) from None
    if not text.strip():
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError.coded(
            "settings_file_not_json", {"path": str(path), "detail": exc.msg, "line_no": exc.lineno}
        ) from None
    if not isinstance(data, dict):
        raise ConfigError.coded("settings_file_not_object", {"path": str(path)})
    return data


def _entries(data: dict[str, Any]) -> list[tuple[str, Any]]:
    """(key, value) of every setting in a file of the current shape: those inside a
    section, and any key beside them (reported as unknown when it names none)."""
    found: list[tuple[str, Any]] = []
    for key, value in data.items():
        if key == VERSION_KEY:
            continue
        if key in _SECTIONS and isinstance(value, dict):
            found.extend((str(k), v) for k, v in value.items())
        else:
            found.append((str(key), value))
    return found


def read_settings_file(model: type[BaseSettings], path: Path | None = None) -> dict[str, Any]:
    """The file's values keyed by variable name; {} when there is no file."""
    path = path or settings_path()
    data = _read_object(path)
    if data is None:
        return {}
    aliases = _aliases(model)
    values: dict[str, Any] = {}
    for key, value in _entries(migrate(data, section_of, path)):
        alias = aliases.get(key.upper())
        if alias is None:
            log.warning("unknown setting %s in %s is ignored", str(key), str(path))
        elif alias in REFUSED_IN_FILE:
            raise ConfigError.coded("settings_file_secret", {"name": alias, "path": str(path)})
        elif alias in SECRET_VARIABLES:
            log.warning("%s in %s is ignored: secrets live in the keyring", alias, str(path))
        else:
            values[alias] = value
    return values


def upgrade_settings_file(model: type[BaseSettings], path: Path | None = None) -> bool:
    """Write a settings file of an older shape back in the current one (what it holds
    unchanged); True when it did. A file that cannot be written keeps loading
    through the migrations, with a warning."""
    path = path or settings_path()
    data = _read_object(path)
    if data is None or file_version(data) == SCHEMA_VERSION:
        return False
    shaped = migrate(data, section_of, path)
    try:
        write_atomically(path, shaped)
    except ConfigError as exc:
        log.warning("the settings file %s was not brought to the new shape: %s", path, exc)
        return False
    count = len(read_settings_file(model, path))
    log.info("settings saved to %s (%d values differ from the defaults)", path, count)
    return True


def settings_object(values: Mapping[str, Any]) -> dict[str, Any]:
    """Values keyed by variable name, in the file's current shape (sections in the
    order of ``SECTIONS``, keys sorted inside each)."""
    shaped: dict[str, Any] = {VERSION_KEY: SCHEMA_VERSION}
    for section in _SECTIONS:
        inside = {k: v for k, v in sorted(values.items()) if section_of(k) == section}
        if inside:
            shaped[section] = inside
    shaped.update({k: v for k, v in sorted(values.items()) if section_of(k) is None})
    return shaped


def environment_overrides(model: type[BaseSettings]) -> set[str]:
    """Variable names set in the environment: they win over the file (read-only)."""
    present = {name.upper() for name in os.environ}
    return {alias for alias in set(_aliases(model).values()) if alias.upper() in present}


class KeyringSource(PydanticBaseSettingsSource):
    """The secret settings an operator stored through the GUI."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # __call__ does the work

    def __call__(self) -> dict[str, Any]:
        found = {name: keyring_secret(name) for name in SECRET_VARIABLES}
        return {name: value for name, value in found.items() if value}


class FileSource(PydanticBaseSettingsSource):
    """The settings file, with URI passwords put back from the keyring."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        values = read_settings_file(self.settings_cls)
        for variable in URI_VARIABLES:
            uri = values.get(variable)
            if isinstance(uri, str) and uri.strip():
                values[variable] = join_uri_password(uri, keyring_secret(password_entry(variable)))
        return values


def jsonable(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, SecretStr):
        raise TypeError("a secret must not be written to the settings file")
    return value


def unwrap_secret(value: Any) -> Any:
    return value.get_secret_value() if isinstance(value, SecretStr) else value


def store_secrets(secrets: Mapping[str, str | None]) -> None:
    for name, value in secrets.items():
        if keyring_secret(name) == value:
            continue
        try:
            if value:
                set_keyring_secret(name, value)
            else:
                delete_keyring_secret(name)
        except Exception as exc:  # no backend, locked: say so without the value
            raise ConfigError.coded(
                "secret_not_stored",
                {"name": name, "home": secret_home(), "error": type(exc).__name__},
            ) from None


def unwritable(path: Path, exc: OSError) -> ConfigError:
    return ConfigError.coded(
        "settings_file_unwritable", {"path": str(path), "error": exc.strerror or str(exc)}
    )


def write_atomically(path: Path, values: Mapping[str, Any]) -> None:
    """Write a sibling temporary file and rename it: a crash leaves the old file or
    the new one, never half of one."""
    text = json.dumps(values, indent=2, ensure_ascii=False) + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".settings-", suffix=".tmp")
    except OSError as exc:
        raise unwritable(path, exc) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        make_private(Path(tmp))
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise unwritable(path, exc) from None
