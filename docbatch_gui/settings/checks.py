"""The start's check of the settings: what only the disk can tell, kept out of
validation so that validating reads no file and asks no folder.

Validation (``settings.model``) judges values as values; ``check_settings`` then asks
the file system what it alone knows: a folder setting that names an existing file,
and a document profile that does not load or routes to a model these settings would
have refuse every request. It also brings an old settings file to the current shape
(``settings.migrations``). The command line calls it before any command that uses
the settings, the window before it opens, ``save_settings`` before it writes, and
``docbatch doctor`` reads the profile's models through ``profile_models``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from docbatch_gui.config.profile import default_profile_path, load_profile
from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.settings.file import upgrade_settings_file
from docbatch_gui.settings.invalid import given_variables, wrong_value
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.values import folder_problem

#: settings naming folders (``watch_folders``: several, ";" between)
FOLDER_FIELDS = ("data_dir", "shared_folder", "watch_folders")


def disk_problem(field_name: str, value: Any) -> Message | None:
    """What the disk says against one field's value (a folder that is a file), or
    None: the Settings tab marks the field with it as it is typed."""
    if field_name not in FOLDER_FIELDS or value in (None, ""):
        return None
    for part in str(value).split(";") if field_name == "watch_folders" else [str(value)]:
        problem = folder_problem(Path(part.strip())) if part.strip() else None
        if problem is not None:
            return problem
    return None


def check_settings(settings: Settings, overrides: Mapping[str, Any] | None = None) -> Settings:
    """``settings`` when the disk agrees with them; else one ConfigError naming each
    variable at fault (``overrides``: what was given as options, so the message says
    where a value came from). Brings the settings file to the current schema."""
    given = given_variables(overrides or {}, Settings)
    problems: list[Message] = []
    for name in FOLDER_FIELDS:
        value = getattr(settings, name)
        problem = disk_problem(name, value)
        if problem is not None:
            variable = Settings.model_fields[name].alias or name.upper()
            problems.append(wrong_value(variable, str(value), problem, given, Settings))
    problem = profile_problem(settings)
    if problem is not None:
        problems.append(problem)
    if problems:
        raise ConfigError.coded("settings_invalid", {"problems": problems})
    upgrade_settings_file(Settings)
    return settings


def profile_problem(settings: Settings) -> Message | None:
    """Why the document profile cannot serve these settings (its file is missing or
    broken, or a model it routes to refuses the effort, thinking or output), or None."""
    try:
        routes = profile_models(settings.profile_path)
    except ConfigError as exc:  # a missing or broken profile file, said as a setting
        return exc.message
    for role, model in routes:
        if settings.profile_path is None and role == "escalation":
            continue  # the bundled profile's escalation is a default: refused, it is off
        problem = settings.refusal_by(model)
        if problem:
            where = (
                str(settings.profile_path) if settings.profile_path else coded("bundled_profile")
            )
            return coded(
                "profile_model_refused", where=where, role=role, model=model, problem=problem
            )
    return None


def profile_models(path: Path | None) -> list[tuple[str, str]]:
    """(role, model id) of the models the profile at ``path`` routes to (routing by
    difficulty), read once per version of the file; a broken profile is a
    ConfigError naming it."""
    source = Path(path) if path is not None else default_profile_path()
    try:
        stamp = source.stat().st_mtime_ns
    except OSError:
        stamp = 0  # load_profile says what is wrong with it
    return _profile_models(str(source), stamp)


@functools.cache
def _profile_models(source: str, _stamp: int) -> list[tuple[str, str]]:
    models = load_profile(Path(source)).models
    return [(r, m) for r, m in (("first", models.first), ("escalation", models.escalation)) if m]
