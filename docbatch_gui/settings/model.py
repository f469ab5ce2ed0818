"""Settings, validated once at load (pydantic-settings).

Environment variables keep the names and defaults of the system DocBatch replaces,
so a team's existing deployment scripts keep working. An invalid value stops the
start with one message naming the variable, its value and what is allowed.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
from enum import StrEnum
from pathlib import Path
from typing import Any

import platformdirs
from pydantic import (
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.domain.states import ProcessingMode
from docbatch_gui.llm.catalogue import load_catalogue
from docbatch_gui.llm.requests import OutputMode
from docbatch_gui.llm.thinking import choose, forced_tool_refusal
from docbatch_gui.pipeline.profile import default_profile_path, load_profile
from docbatch_gui.settings.file import (
    FileSource,
    KeyringSource,
)
from docbatch_gui.settings.secrets import mask_uri_password
from docbatch_gui.settings.values import folder_problem, http_url_problem

APP_NAME = "DocBatch"


class Execution(StrEnum):
    """Where heavy tasks run: this process, or Celery workers on any machine."""

    IN_PROCESS = "inprocess"
    CELERY = "celery"


OCR_ENGINES = ("google_vision", "tesseract", "none")
EFFORTS = ("auto", "low", "medium", "high", "xhigh", "max")
THINKING = ("auto", "off", "on")
#: settings that are URIs and may carry a password (see ``secrets``)
_URI_FIELDS = ("mongodb_uri", "redis_url", "celery_broker_url")


def default_ocr_engine() -> str:
    """Tesseract when it is installed (works offline, no key), else none."""
    return "tesseract" if shutil.which("tesseract") else "none"


CHOICE_FIELDS = (
    "ocr_engine",
    "claude_effort",
    "claude_thinking",
    "anthropic_model",
    "watch_after",
    "language",
    "mail_security",
    "mail_after",
)


#: what happens to a watched folder's file after intake
WATCH_AFTER = ("keep", "move")
#: how the mailbox is reached (plain only when set so), and what a taken message gets
MAIL_SECURITY = ("tls", "starttls", "plain")
MAIL_AFTER = ("flag", "move", "keep")
#: the languages messages are worded in ("" = the system's)
MESSAGE_LANGUAGES = ("", "en", "ru")


def fixed_choices(field_name: str) -> tuple[str, ...]:
    """The values a str setting is limited to (validation, messages, the GUI's lists)."""
    if field_name == "anthropic_model":
        return known_models()
    return {
        "ocr_engine": OCR_ENGINES,
        "claude_effort": EFFORTS,
        "claude_thinking": THINKING,
        "watch_after": WATCH_AFTER,
        "language": MESSAGE_LANGUAGES,
        "mail_security": MAIL_SECURITY,
        "mail_after": MAIL_AFTER,
    }[field_name]


def combination_problem(
    model: str, effort: str, thinking: str, output: OutputMode | str, max_tokens: int
) -> Message | None:
    """Why the model would refuse every request with these settings, or None."""

    try:
        info = load_catalogue().model(model)
        choice = choose(info, effort, thinking)
    except ConfigError as exc:
        return exc.message
    if OutputMode(output) is OutputMode.TOOL:
        refusal = forced_tool_refusal(info, choice)
        if refusal:
            return coded("setting_tool_output_refused", refusal=refusal)
    if max_tokens > info.max_output_tokens:
        return coded(
            "setting_max_tokens_too_many",
            tokens=max_tokens,
            model=info.name,
            most=info.max_output_tokens,
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


def default_model() -> str:

    return load_catalogue().default_model


def known_models() -> tuple[str, ...]:

    return tuple(load_catalogue().models)


def default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


class Settings(BaseSettings):
    """Every setting of the application, with the environment variable it reads."""

    model_config = SettingsConfigDict(
        env_prefix="",
        case_sensitive=False,
        extra="ignore",
        validate_default=True,
        populate_by_name=True,
    )

    # Where the embedded store and blobs live.
    data_dir: Path = Field(default_factory=default_data_dir, alias="DOCBATCH_DATA_DIR")
    #: the language the command line words its messages in: en, ru, or empty for the
    #: system's (LC_ALL / LC_MESSAGES / LANG); the window has its own choice
    language: str = Field("", alias="DOCBATCH_LANGUAGE")

    # Processing (names and defaults of the system DocBatch replaces).
    processing_mode: ProcessingMode = Field(ProcessingMode.SYNC, alias="PROCESSING_MODE")
    ocr_workers: int = Field(1, ge=1, le=32, alias="OCR_WORKERS")
    batch_size: int = Field(30, ge=1, le=10_000, alias="BATCH_SIZE")
    poll_interval: float = Field(10, ge=0.1, le=3600, alias="POLL_INTERVAL")
    result_workers: int = Field(4, ge=1, le=64, alias="RESULT_WORKERS")
    max_concurrent_mb: int = Field(512, ge=1, le=1_000_000, alias="MAX_CONCURRENT_MB")
    max_concurrency: int = Field(5, ge=1, le=20, alias="MAX_CONCURRENCY")
    group_size: int = Field(8, ge=1, le=100, alias="GROUP_SIZE")

    # Preparation in child processes.
    job_timeout: float = Field(900, ge=0.1, le=86_400, alias="JOB_TIMEOUT")
    #: one page may take this long to render; past it the page is skipped, not the file
    page_timeout: float = Field(60, ge=0.1, le=86_400, alias="PAGE_TIMEOUT")
    render_workers: int = Field(
        default_factory=lambda: max(1, min(8, os.cpu_count() or 1)),
        ge=1,
        le=64,
        alias="RENDER_WORKERS",
    )
    max_file_mb: int = Field(1024, ge=1, le=100_000, alias="MAX_FILE_MB")
    #: a symbolic link in an added folder is followed out of that folder only if set
    follow_symlinks_out: bool = Field(False, alias="FOLLOW_SYMLINKS_OUT")
    max_pages: int = Field(10_000, ge=1, le=1_000_000, alias="MAX_PAGES")
    #: an image (a file, or one inside a PDF) over this many pixels is refused before
    #: it is decoded: a few KB can declare 60,000 × 60,000 pixels (a decompression bomb)
    max_image_pixels: int = Field(
        200_000_000, ge=1_000_000, le=2_000_000_000, alias="MAX_IMAGE_PIXELS"
    )
    #: memory a render, OCR or extraction child may add to its start (its address
    #: space is capped, on Linux): past it the file fails, not the machine
    child_memory_mb: int = Field(2048, ge=256, le=1_000_000, alias="CHILD_MEMORY_MB")
    jpeg_quality: int = Field(80, ge=30, le=95, alias="JPEG_QUALITY")
    #: text kept per page; a dense printed page has about 10,000 characters
    max_page_text_chars: int = Field(100_000, ge=1000, le=10_000_000, alias="MAX_PAGE_TEXT_CHARS")
    #: a document dated before this year goes to review (an OCR'd "1924" for "2024")
    check_min_year: int = Field(
        2000,
        ge=1900,
        le=2100,
        alias="CHECK_MIN_YEAR",
        description="Documents dated before this year go to review as too old.",
    )

    # Claude extraction.
    anthropic_model: str = Field(
        default_factory=lambda: default_model(), min_length=1, alias="ANTHROPIC_MODEL"
    )
    #: the document-type profile (JSON): types, fields, review threshold, and the
    #: first and escalation models of routing by difficulty; empty: the bundled one
    profile_path: Path | None = Field(None, alias="DOCBATCH_PROFILE")
    #: output_config.effort: auto is the lowest the model accepts
    claude_effort: str = Field("auto", alias="CLAUDE_EFFORT")
    #: auto turns thinking off where the model allows it (extraction needs no reasoning)
    claude_thinking: str = Field("auto", alias="CLAUDE_THINKING")
    anthropic_timeout: float = Field(120, ge=1, le=3600, alias="ANTHROPIC_TIMEOUT")
    anthropic_max_retries: int = Field(4, ge=0, le=10, alias="ANTHROPIC_MAX_RETRIES")
    claude_output: OutputMode = Field(OutputMode.JSON_SCHEMA, alias="CLAUDE_OUTPUT")
    max_output_tokens: int = Field(8192, ge=256, le=128_000, alias="MAX_OUTPUT_TOKENS")
    #: how often one request group is sent again after an invalid answer or an error
    request_retries: int = Field(2, ge=0, le=10, alias="REQUEST_RETRIES")
    # Message Batches limits (the API allows 100,000 requests and 256 MB; the defaults
    # keep headroom under both, see docs/claude-api-contract.md).
    batch_max_requests: int = Field(10_000, ge=1, le=100_000, alias="BATCH_MAX_REQUESTS")
    batch_max_mb: float = Field(200, ge=0.01, le=256, alias="BATCH_MAX_MB")
    # Budget caps in USD (0: no cap). A run whose forecast would cross one waits,
    # before any request is sent, until the cap is raised or the operator lets it run
    # (docs/budget.md says what a run is).
    budget_run_usd: float = Field(
        0,
        ge=0,
        le=1_000_000,
        alias="BUDGET_RUN_USD",
        description="Most a run may cost, in USD, as forecast before it starts (0: no cap)",
    )
    budget_month_usd: float = Field(
        0,
        ge=0,
        le=10_000_000,
        alias="BUDGET_MONTH_USD",
        description="Most a calendar month may cost, in USD: what was paid this month plus "
        "the next run's forecast (0: no cap)",
    )

    # Review: what confirmed documents teach about their sellers.
    counterparty_kept: int = Field(
        5,
        ge=0,
        le=100,
        alias="COUNTERPARTY_KEPT",
        description="How many of a seller's newest confirmed documents keep their values "
        "(shown to Claude as examples); older ones only count toward the seller's usual "
        "types, VAT rate and number format",
    )
    counterparty_min_confirmed: int = Field(
        2,
        ge=1,
        le=100,
        alias="COUNTERPARTY_MIN_CONFIRMED",
        description="How many of a seller's confirmed documents must agree on a name, VAT "
        "rate or number shape before a document that differs is flagged, and before its "
        "documents are shown to Claude as examples",
    )

    # Registry import: caps on what a workbook may hold (at most Excel's own limits),
    # counted over the cells it uses, never over the size it declares.
    registry_max_rows: int = Field(1_048_576, ge=1, le=1_048_576, alias="REGISTRY_MAX_ROWS")
    registry_max_columns: int = Field(16_384, ge=1, le=16_384, alias="REGISTRY_MAX_COLUMNS")
    registry_max_cell_chars: int = Field(32_767, ge=100, le=32_767, alias="REGISTRY_MAX_CELL_CHARS")

    # OCR: Tesseract offline, Google Cloud Vision online, or none.
    ocr_engine: str = Field(default_factory=lambda: default_ocr_engine(), alias="OCR_ENGINE")
    ocr_languages: str = Field("ru,en", min_length=2, alias="OCR_LANGUAGES")
    ocr_timeout: float = Field(60, ge=1, le=3600, alias="OCR_TIMEOUT")
    #: pages whose text layer has fewer characters than this are OCR'd
    ocr_min_text_chars: int = Field(20, ge=0, le=10_000, alias="OCR_MIN_TEXT_CHARS")

    # Backends; empty means "embedded default".
    anthropic_api_key: SecretStr | None = Field(None, alias="ANTHROPIC_API_KEY")
    anthropic_base_url: str | None = Field(None, alias="ANTHROPIC_BASE_URL")
    mongodb_uri: str | None = Field(None, alias="MONGODB_URI")
    minio_endpoint: str | None = Field(None, alias="MINIO_ENDPOINT")
    minio_access_key: str | None = Field(None, alias="MINIO_ACCESS_KEY")
    minio_secret_key: SecretStr | None = Field(None, alias="MINIO_SECRET_KEY")
    minio_bucket: str = Field("docbatch", alias="MINIO_BUCKET")
    minio_secure: bool = Field(False, alias="MINIO_SECURE")
    #: how long a write waits for a database another program holds, before retrying
    db_busy_timeout: float = Field(30, ge=0.1, le=3600, alias="DB_BUSY_TIMEOUT")
    #: this machine's cache of MinIO blobs (children read files): least recent go first
    blob_cache_mb: int = Field(2048, ge=16, le=1_000_000, alias="BLOB_CACHE_MB")
    redis_url: str | None = Field(None, alias="REDIS_URL")
    celery_broker_url: str | None = Field(None, alias="CELERY_BROKER_URL")
    #: the only folder Celery tasks read registries from and write exports to
    shared_folder: Path | None = Field(None, alias="SHARED_FOLDER")
    # Team scale: where heavy tasks run, the workload keys' TTL, the batch leader lock.
    execution: Execution = Field(Execution.IN_PROCESS, alias="EXECUTION")
    workload_ttl: int = Field(70 * 60, ge=1, le=86_400, alias="WORKLOAD_TTL")
    leader_ttl: float = Field(30, ge=1, le=3600, alias="LEADER_TTL")
    # Yandex.Disk import: an OAuth token for private folders (public links need none).
    yadisk_token: SecretStr | None = Field(None, alias="YADISK_TOKEN")
    yadisk_api_url: str = Field("https://cloud-api.yandex.net", alias="YADISK_API_URL")
    #: seconds for a whole import; a server that drips data cannot hold it longer
    yadisk_timeout: float = Field(3600, ge=1, le=86_400, alias="YADISK_TIMEOUT")
    yadisk_max_files: int = Field(10_000, ge=1, le=1_000_000, alias="YADISK_MAX_FILES")
    yadisk_max_depth: int = Field(20, ge=0, le=1000, alias="YADISK_MAX_DEPTH")
    google_application_credentials: Path | None = Field(
        None, alias="GOOGLE_APPLICATION_CREDENTIALS"
    )
    #: another Vision endpoint (a regional one, or a test server)
    google_vision_endpoint: str | None = Field(None, alias="GOOGLE_VISION_ENDPOINT")

    # Documents out: a POST for each job that reaches done or needs_review, signed with
    # an HMAC of the body (X-DocBatch-Signature), retried, and kept when it fails.
    webhook_url: str | None = Field(None, alias="WEBHOOK_URL")
    webhook_secret: SecretStr | None = Field(None, alias="WEBHOOK_SECRET")
    #: tries per delivery (the waits between them grow: 1, 2, 4 … up to 60 s)
    webhook_attempts: int = Field(5, ge=1, le=20, alias="WEBHOOK_ATTEMPTS")
    webhook_timeout: float = Field(10, ge=0.5, le=300, alias="WEBHOOK_TIMEOUT")

    # Watched folders: files a scanner drops there are queued once they are complete.
    #: folders to watch whenever the window or ``docbatch worker`` runs (";" between)
    watch_folders: str = Field("", alias="WATCH_FOLDERS")
    #: a file is complete when its size and time have not changed for this long
    watch_settle_seconds: float = Field(3, ge=0.1, le=3600, alias="WATCH_SETTLE_SECONDS")
    #: how often the folders are listed too (network shares send no events)
    watch_poll_seconds: float = Field(5, ge=0.2, le=3600, alias="WATCH_POLL_SECONDS")
    #: after intake: keep the original, or move it into processed/ or failed/ beside it
    watch_after: str = Field("keep", alias="WATCH_AFTER")

    # Separator sheets: a page with this barcode (Code 128 or QR) splits a scanned
    # stack into documents and is not sent; empty: no separator sheets
    separator_value: str = Field("PATCHT", max_length=200, alias="SEPARATOR_VALUE")
    #: a barcode matching this regular expression names its document (archive serial
    #: number, kept on the job); empty: none
    asn_pattern: str = Field(r"^ASN\d+$", max_length=200, alias="ASN_PATTERN")

    # The office's mailbox (IMAP): attachments of new messages are queued once each.
    #: empty: no mailbox; the window and ``docbatch worker`` check it when set
    mail_host: str | None = Field(None, alias="MAIL_HOST")
    mail_port: int = Field(
        0, ge=0, le=65535, alias="MAIL_PORT", description="0: 993 for tls, 143 otherwise"
    )
    mail_user: str | None = Field(None, alias="MAIL_USER")
    #: the password or app token: in the keyring, never in the settings file
    mail_password: SecretStr | None = Field(None, alias="MAIL_PASSWORD")
    #: tls (IMAPS), starttls, or plain: the password in the clear, only when set so
    mail_security: str = Field("tls", alias="MAIL_SECURITY")
    #: a certificate authority to trust for the server (an office's own), PEM
    mail_ca_file: Path | None = Field(None, alias="MAIL_CA_FILE")
    #: folders to read (";" between)
    mail_folders: str = Field("INBOX", min_length=1, alias="MAIL_FOLDERS")
    #: a taken message is flagged (read and $DocBatch), moved to MAIL_MOVE_TO, or kept
    mail_after: str = Field("flag", alias="MAIL_AFTER")
    mail_move_to: str = Field("DocBatch", min_length=1, alias="MAIL_MOVE_TO")
    #: a message without attachments is queued as one PDF page of its text
    mail_body_as_pdf: bool = Field(False, alias="MAIL_BODY_AS_PDF")
    mail_poll_seconds: float = Field(300, ge=5, le=86_400, alias="MAIL_POLL_SECONDS")
    #: seconds each read from the server may take (a stalled server is left)
    mail_timeout: float = Field(30, ge=0.1, le=3600, alias="MAIL_TIMEOUT")
    mail_max_message_mb: float = Field(50, ge=0.01, le=2048, alias="MAIL_MAX_MESSAGE_MB")
    mail_max_attachment_mb: float = Field(25, ge=0.01, le=2048, alias="MAIL_MAX_ATTACHMENT_MB")
    mail_max_attachments: int = Field(20, ge=1, le=1000, alias="MAIL_MAX_ATTACHMENTS")
    mail_max_depth: int = Field(3, ge=0, le=20, alias="MAIL_MAX_DEPTH")

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

    @field_validator(
        "anthropic_api_key",
        "anthropic_base_url",
        "mongodb_uri",
        "minio_endpoint",
        "redis_url",
        "celery_broker_url",
        "yadisk_token",
        "mail_host",
        "mail_user",
        "mail_password",
        "mail_ca_file",
        "google_application_credentials",
        "google_vision_endpoint",
        "webhook_url",
        "webhook_secret",
        "shared_folder",
        "profile_path",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("asn_pattern")
    @classmethod
    def _a_pattern(cls, value: str) -> str:
        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"is not a regular expression ({exc})") from None
        return value

    @field_validator("processing_mode")
    @classmethod
    def _chosen_mode(cls, value: ProcessingMode) -> ProcessingMode:
        """``data`` is what DocBatch gives a file that is data, never a mode to ask for."""
        if value is ProcessingMode.DATA:
            raise ValueError("must be one of offline, sync, batch")
        return value

    @field_validator("webhook_url", "anthropic_base_url", "yadisk_api_url")
    @classmethod
    def _http_address(cls, value: str | None) -> str | None:
        problem = http_url_problem(value) if value is not None else None
        if problem is not None:
            raise ValueError(problem)
        return value.strip() if value is not None else None

    @field_validator("data_dir", "shared_folder")
    @classmethod
    def _a_folder(cls, value: Path | None) -> Path | None:
        problem = folder_problem(value) if value is not None else None
        if problem is not None:
            raise ValueError(problem)
        return value

    @field_validator("watch_folders")
    @classmethod
    def _folders(cls, value: str) -> str:
        for part in value.split(";"):
            problem = folder_problem(Path(part.strip())) if part.strip() else None
            if problem is not None:
                raise ValueError(problem)
        return value

    @field_validator(*CHOICE_FIELDS)
    @classmethod
    def _one_of(cls, value: str, info: ValidationInfo) -> str:
        allowed = fixed_choices(str(info.field_name))
        # a model id, or a listed dated alias
        if info.field_name == "anthropic_model" and load_catalogue().get(value) is not None:
            return value
        if value not in allowed:
            raise ValueError(f"must be one of {', '.join(allowed)}")
        return value

    @model_validator(mode="after")
    def _model_accepts_the_request(self) -> Settings:
        """The model, effort, thinking and output mode together: a combination the
        API would refuse on every request stops the start instead."""
        problem = combination_problem(
            self.anthropic_model,
            self.claude_effort,
            self.claude_thinking,
            self.claude_output,
            self.max_output_tokens,
        )
        if problem:
            raise ValueError(problem)
        try:
            routes = profile_models(self.profile_path)
        except ConfigError as exc:  # a missing or broken profile file, said as a setting
            raise ValueError(exc.message) from None
        for role, model in routes:
            if self.profile_path is None and role == "escalation":
                continue  # the bundled profile's escalation is a default: refused, it is off
            problem = combination_problem(
                model,
                self.claude_effort,
                self.claude_thinking,
                self.claude_output,
                self.max_output_tokens,
            )
            if problem:
                where = str(self.profile_path) if self.profile_path else coded("bundled_profile")
                raise ValueError(
                    coded(
                        "profile_model_refused",
                        where=where,
                        role=role,
                        model=model,
                        problem=problem,
                    )
                )
        return self

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
        from docbatch_gui.settings.invalid import invalid_settings

        raise invalid_settings(exc, overrides) from None
