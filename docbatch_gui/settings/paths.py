"""Where the settings file is, and so the folder beside it that keeps secrets when the
computer has no system keyring."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

SETTINGS_FILE_ENV = "DOCBATCH_SETTINGS_FILE"


def settings_path() -> Path:
    """``DOCBATCH_SETTINGS_FILE``, else the per-user configuration folder."""
    explicit = os.environ.get(SETTINGS_FILE_ENV, "").strip()
    if explicit:
        return Path(explicit).expanduser()
    return Path(platformdirs.user_config_dir("DocBatch", appauthor=False)) / "settings.json"
