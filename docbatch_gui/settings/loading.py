"""Loading the settings: the model validated from the environment, the settings file and
the keyring, or one message that names what is wrong (``settings.invalid``)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from docbatch_gui.settings.invalid import invalid_settings
from docbatch_gui.settings.model import Settings


def load_settings(**overrides: Any) -> Settings:
    """Load and validate; on error raise one ConfigError naming the variable (and the
    settings file, when the bad value came from it). Secrets are masked."""
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        raise invalid_settings(exc, overrides, Settings) from None
