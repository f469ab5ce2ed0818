"""Settings, validated once at load (pydantic-settings): every section at once.

``Settings`` is the sections of ``settings.sections`` joined, so each value is read
where it is, ``settings.batch_size``, and each section's rules run on it. Environment
variables keep the names and defaults of the system DocBatch replaces, so a team's
existing deployment scripts keep working. An invalid value stops the start with one
message naming the variable, its value and what is allowed. Validation reads no file
of the operator's; ``settings.checks.check_settings`` is the start's step that does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from docbatch_gui.llm.catalogue import load_catalogue
from docbatch_gui.llm.thinking import choose
from docbatch_gui.settings.file import FileSource, KeyringSource
from docbatch_gui.settings.invalid import invalid_settings
from docbatch_gui.settings.secrets import mask_uri_password
from docbatch_gui.settings.sections import (
    BatchSettings,
    BudgetSettings,
    ClaudeSettings,
    IntakeSettings,
    MailSettings,
    OcrSettings,
    OutboundSettings,
    ProcessingSettings,
    RegistrySettings,
    ReviewSettings,
    StorageSettings,
    TeamSettings,
)

#: settings that are URIs and may carry a password (see ``secrets``)
_URI_FIELDS = ("mongodb_uri", "redis_url", "celery_broker_url")


class Settings(
    BaseSettings,
    ProcessingSettings,
    ClaudeSettings,
    BatchSettings,
    BudgetSettings,
    OcrSettings,
    ReviewSettings,
    RegistrySettings,
    StorageSettings,
    TeamSettings,
    IntakeSettings,
    MailSettings,
    OutboundSettings,
):
    """Every setting of the application, with the environment variable it reads."""

    model_config = SettingsConfigDict(
        env_prefix="",
        case_sensitive=False,
        extra="ignore",
        validate_default=True,
        populate_by_name=True,
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Overrides > environment > keyring (secrets) > settings file > defaults."""
        return (
            init_settings,
            env_settings,
            dotenv_settings,
            file_secret_settings,
            KeyringSource(settings_cls),
            FileSource(settings_cls),
        )

    @property
    def thinking_choice(self) -> Any:
        """The ``thinking``/``effort`` every request carries (``llm.thinking``)."""
        info = load_catalogue().model(self.anthropic_model)
        return choose(info, self.claude_effort, self.claude_thinking)

    def __repr_args__(self) -> Any:
        """URI passwords masked: a Settings object ends up in debug logs (an executor
        logging its result, a traceback's locals), and must not carry a secret there."""

        for name, value in super().__repr_args__():
            if name in _URI_FIELDS and isinstance(value, str):
                value = mask_uri_password(value)
            yield name, value

    @property
    def watched_folders(self) -> list[Path]:
        return [Path(p.strip()).expanduser() for p in self.watch_folders.split(";") if p.strip()]

    @property
    def mail_folder_names(self) -> list[str]:
        return [name.strip() for name in self.mail_folders.split(";") if name.strip()]

    @property
    def mail_configured(self) -> bool:
        """A mailbox to check: a host and a user (the password may be in the keyring)."""
        return bool(self.mail_host and self.mail_user)

    @property
    def db_path(self) -> Path:
        return self.data_dir / "docbatch.sqlite3"

    @property
    def blob_dir(self) -> Path:
        return self.data_dir / "blobs"


def load_settings(**overrides: Any) -> Settings:
    """Load and validate; on error raise one ConfigError naming the variable (and the
    settings file, when the bad value came from it). Secrets are masked."""
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        raise invalid_settings(exc, overrides, Settings) from None
