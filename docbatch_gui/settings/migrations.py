"""The settings file's versions, and the steps from each to the next.

Version 1 (DocBatch before sections) is one flat object keyed by environment variable
names, with no ``schema_version``. Version 2 keeps the same keys inside one object per
section (``{"schema_version": 2, "batch": {"BATCH_SIZE": 50}}``). A file of an older
version loads through these steps, and the start writes it back in the current shape
(``settings.checks``); a file of a newer version is refused, never half read.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from docbatch_gui.domain.errors import ConfigError

SCHEMA_VERSION = 2
VERSION_KEY = "schema_version"

#: variable name (any case) -> its section, or None when it names no setting
SectionOf = Callable[[str], str | None]


def file_version(data: dict[str, Any]) -> int:
    version = data.get(VERSION_KEY, 1)
    return version if isinstance(version, int) and not isinstance(version, bool) else 0


def _flat_to_sections(data: dict[str, Any], section_of: SectionOf) -> dict[str, Any]:
    """1 -> 2: each setting into its section; a key naming no setting stays where it
    was (it is reported and ignored as before, never lost)."""
    shaped: dict[str, Any] = {VERSION_KEY: 2}
    for key, value in data.items():
        section = section_of(str(key))
        if section is None:
            shaped[key] = value
        else:
            shaped.setdefault(section, {})[key] = value
    return shaped


#: version n -> the step to version n + 1
STEPS: dict[int, Callable[[dict[str, Any], SectionOf], dict[str, Any]]] = {1: _flat_to_sections}


def migrate(data: dict[str, Any], section_of: SectionOf, path: Path) -> dict[str, Any]:
    """``data`` (a settings file's object) in the current shape."""
    version = file_version(data)
    if version < 1:  # not a number: the object is not a settings file's
        raise ConfigError.coded("settings_file_not_object", {"path": str(path)})
    if version > SCHEMA_VERSION:
        raise ConfigError.coded(
            "settings_file_newer",
            {"path": str(path), "version": data.get(VERSION_KEY), "known": SCHEMA_VERSION},
        )
    while version < SCHEMA_VERSION:
        data = STEPS[version](data, section_of)
        version = file_version(data)
    return data
