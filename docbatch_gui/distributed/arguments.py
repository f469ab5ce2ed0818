"""What a Celery task accepts from the broker: ids, and paths inside SHARED_FOLDER.

Anyone who can write to the broker can queue a task, so a task trusts nothing in its
message: a job or registry id must be a plain integer, and a file to read or write
must resolve (links followed) to a place inside ``SHARED_FOLDER``, the folder the team
shares for registries and exports. Without it, tasks that take paths refuse them all.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docbatch_gui.domain.errors import UnsupportedInput
from docbatch_gui.settings.model import Settings


class RefusedArgument(UnsupportedInput):
    """A task message asked for something a task never does."""


def task_id_argument(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RefusedArgument(f"{what} must be a positive integer id, not {value!r}")
    return value


def budget_run_argument(value: object) -> str | None:
    """The admitted run a job's requests count against: None, or the 32 hex digits the
    dispatching process's budget gate made (``BudgetGate.run_of``)."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) != 32 or value.strip("0123456789abcdef"):
        raise RefusedArgument(f"budget run must be 32 hex digits or none, not {value!r}")
    return value


def shared_path(settings: Settings, value: object, what: str) -> Path:
    """``value`` as a path inside SHARED_FOLDER, or a refusal naming why."""
    folder = settings.shared_folder
    if folder is None:
        raise RefusedArgument(
            f"{what} {value!r} refused: Celery tasks read and write files only inside "
            "SHARED_FOLDER, which is not set on this worker"
        )
    if not isinstance(value, str) or not value or "\x00" in value:
        raise RefusedArgument(f"{what} must be a path inside SHARED_FOLDER, not {value!r}")
    root = folder.resolve()
    path = (root / value).resolve()  # an absolute value replaces root; links followed
    if not path.is_relative_to(root):
        raise RefusedArgument(f"{what} {value!r} is outside SHARED_FOLDER ({root}); refused")
    return path


def registry_config_argument(settings: Settings, value: object) -> dict[str, Any]:
    """A registry configuration given inline (a dict or JSON text), or a file inside
    SHARED_FOLDER."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str) and value.lstrip().startswith("{"):
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError as exc:
            raise RefusedArgument(f"registry config is not valid JSON: {exc.msg}") from None
        if isinstance(parsed, dict):
            return parsed
    path = shared_path(settings, value, "registry config")
    try:
        loaded = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError) as exc:
        raise RefusedArgument(f"registry config {path} cannot be read: {exc}") from None
    if not isinstance(loaded, dict):
        raise RefusedArgument(f"registry config {path} is not a JSON object")
    return loaded
