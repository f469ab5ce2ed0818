"""The settings, in sections: one model per concern (claude, ocr, batch, budget,
team, intake, outbound …), each with its fields, their environment variables and the
rules of its values. ``Settings`` (``settings.model``) is all of them at once.

Every field keeps the environment variable of the system DocBatch replaces (its
``alias``), and field names are unique across sections, so a variable, a field name
and a section name each say where a value lives (the settings file is kept by
section, ``settings.file``). Validation here reads no file and asks no folder: what
only the disk can tell (a folder that is a file, a profile that does not load) is
``settings.checks``'s, which the command line and the window call at start.
"""

from __future__ import annotations

import os
import re
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, ClassVar

import platformdirs
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SecretStr,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.fields import FieldInfo

from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.states import ProcessingMode
from docbatch_gui.llm.requests import OutputMode
from docbatch_gui.settings.choices import (
    combination_problem,
    default_model,
    default_ocr_engine,
    fixed_choices,
    is_choice,
)
from docbatch_gui.settings.values import http_url_problem

APP_NAME = "DocBatch"


class Execution(StrEnum):
    """Where heavy tasks run: this process, or Celery workers on any machine."""

    IN_PROCESS = "inprocess"
    CELERY = "celery"


def default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def _blank_is_unset(value: Any) -> Any:
    """An empty or blank optional setting means "not set" (the embedded default)."""
    return None if isinstance(value, str) and not value.strip() else value


def _one_of_the_choices(value: str, info: ValidationInfo) -> str:
    if not is_choice(str(info.field_name), value):
        raise ValueError(f"must be one of {', '.join(fixed_choices(str(info.field_name)))}")
    return value


def _an_http_address(value: str | None) -> str | None:
    problem = http_url_problem(value) if value is not None else None
    if problem is not None:
        raise ValueError(problem)
    return value.strip() if value is not None else None


#: the value rules several fields share, carried by their types
_UNSET = BeforeValidator(_blank_is_unset)
Choice = Annotated[str, AfterValidator(_one_of_the_choices)]
OptionalText = Annotated[str | None, _UNSET]
OptionalPath = Annotated[Path | None, _UNSET]
OptionalSecret = Annotated[SecretStr | None, _UNSET]
HttpAddress = Annotated[str, AfterValidator(_an_http_address)]
OptionalHttpAddress = Annotated[str | None, _UNSET, AfterValidator(_an_http_address)]

#: every section, in the order the settings file and the Settings tab show them (the
#: order they are defined in below)
SECTIONS: list[type[_Section]] = []


class _Section(BaseModel):
    """A section: validated on its own the same way as inside ``Settings``. (Its
    validators' names are unique across sections: ``Settings`` joins every section's,
    and one name would hide the others.)"""

    model_config = ConfigDict(populate_by_name=True, validate_default=True, extra="ignore")
    #: the section's key in the settings file
    SECTION: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "SECTION" in cls.__dict__:  # a section, not ``Settings`` joining them
            SECTIONS.append(cls)


class ProcessingSettings(_Section):
    """How files are prepared, in child processes: the processing mode, what one file
    may hold, and the render children's limits. ``language`` is the command line's."""

    SECTION: ClassVar[str] = "processing"

    processing_mode: ProcessingMode = Field(ProcessingMode.SYNC, alias="PROCESSING_MODE")
    #: the language the command line words its messages in: en, ru, or empty for the
    #: system's (LC_ALL / LC_MESSAGES / LANG); the window has its own choice
    language: Choice = Field("", alias="DOCBATCH_LANGUAGE")
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

    @field_validator("processing_mode")
    @classmethod
    def _chosen_mode(cls, value: ProcessingMode) -> ProcessingMode:
        """``data`` is what DocBatch gives a file that is data, never a mode to ask for."""
        if value is ProcessingMode.DATA:
            raise ValueError("must be one of offline, sync, batch")
        return value


class ClaudeSettings(_Section):
    """Claude extraction: the model, effort, thinking and output mode (which together
    must make a request the model accepts), the document-type profile, the requests."""

    SECTION: ClassVar[str] = "claude"

    anthropic_model: Choice = Field(
        default_factory=lambda: default_model(), min_length=1, alias="ANTHROPIC_MODEL"
    )
    #: the document-type profile (JSON): types, fields, review threshold, and the
    #: first and escalation models of routing by difficulty; empty: the bundled one
    profile_path: OptionalPath = Field(None, alias="DOCBATCH_PROFILE")
    #: output_config.effort: auto is the lowest the model accepts
    claude_effort: Choice = Field("auto", alias="CLAUDE_EFFORT")
    #: auto turns thinking off where the model allows it (extraction needs no reasoning)
    claude_thinking: Choice = Field("auto", alias="CLAUDE_THINKING")
    claude_output: OutputMode = Field(OutputMode.JSON_SCHEMA, alias="CLAUDE_OUTPUT")
    max_output_tokens: int = Field(8192, ge=256, le=128_000, alias="MAX_OUTPUT_TOKENS")
    anthropic_timeout: float = Field(120, ge=1, le=3600, alias="ANTHROPIC_TIMEOUT")
    anthropic_max_retries: int = Field(4, ge=0, le=10, alias="ANTHROPIC_MAX_RETRIES")
    #: how often one request group is sent again after an invalid answer or an error
    request_retries: int = Field(2, ge=0, le=10, alias="REQUEST_RETRIES")
    max_concurrency: int = Field(5, ge=1, le=20, alias="MAX_CONCURRENCY")
    group_size: int = Field(8, ge=1, le=100, alias="GROUP_SIZE")
    anthropic_api_key: OptionalSecret = Field(None, alias="ANTHROPIC_API_KEY")
    anthropic_base_url: OptionalHttpAddress = Field(None, alias="ANTHROPIC_BASE_URL")

    def refusal_by(self, model: str) -> Message | None:
        """Why ``model`` would refuse every request made with these settings (its
        effort, thinking, output mode and answer size), or None."""
        return combination_problem(
            model,
            self.claude_effort,
            self.claude_thinking,
            self.claude_output,
            self.max_output_tokens,
        )

    @model_validator(mode="after")
    def _model_accepts_the_request(self) -> Any:
        """The model, effort, thinking and output mode together: a combination the
        API would refuse on every request stops the start instead. (The profile's
        own models are judged by ``settings.checks``: that needs its file.)"""
        problem = self.refusal_by(self.anthropic_model)
        if problem:
            raise ValueError(problem)
        return self


class BatchSettings(_Section):
    """Message Batches: the jobs per batch, how often results are polled, the result
    workers, and the limits of one batch (the API allows 100,000 requests and 256 MB;
    the defaults keep headroom under both, see docs/claude-api-contract.md)."""

    SECTION: ClassVar[str] = "batch"

    batch_size: int = Field(30, ge=1, le=10_000, alias="BATCH_SIZE")
    poll_interval: float = Field(10, ge=0.1, le=3600, alias="POLL_INTERVAL")
    result_workers: int = Field(4, ge=1, le=64, alias="RESULT_WORKERS")
    max_concurrent_mb: int = Field(512, ge=1, le=1_000_000, alias="MAX_CONCURRENT_MB")
    batch_max_requests: int = Field(10_000, ge=1, le=100_000, alias="BATCH_MAX_REQUESTS")
    batch_max_mb: float = Field(200, ge=0.01, le=256, alias="BATCH_MAX_MB")


class BudgetSettings(_Section):
    """Budget caps in USD (0: no cap). A run whose forecast would cross one waits,
    before any request is sent, until the cap is raised or the operator lets it run
    (docs/budget.md says what a run is)."""

    SECTION: ClassVar[str] = "budget"

    #: most a run may cost, as forecast before it starts
    budget_run_usd: float = Field(0, ge=0, le=1_000_000, alias="BUDGET_RUN_USD")
    #: most a calendar month may cost: what was paid this month plus the next run's forecast
    budget_month_usd: float = Field(0, ge=0, le=10_000_000, alias="BUDGET_MONTH_USD")


class OcrSettings(_Section):
    """OCR: Tesseract offline, Google Cloud Vision online, or none."""

    SECTION: ClassVar[str] = "ocr"

    ocr_engine: Choice = Field(default_factory=lambda: default_ocr_engine(), alias="OCR_ENGINE")
    ocr_languages: str = Field("ru,en", min_length=2, alias="OCR_LANGUAGES")
    ocr_workers: int = Field(1, ge=1, le=32, alias="OCR_WORKERS")
    ocr_timeout: float = Field(60, ge=1, le=3600, alias="OCR_TIMEOUT")
    #: pages whose text layer has fewer characters than this are OCR'd
    ocr_min_text_chars: int = Field(20, ge=0, le=10_000, alias="OCR_MIN_TEXT_CHARS")
    google_application_credentials: OptionalPath = Field(
        None, alias="GOOGLE_APPLICATION_CREDENTIALS"
    )
    #: another Vision endpoint (a regional one, or a test server)
    google_vision_endpoint: OptionalText = Field(None, alias="GOOGLE_VISION_ENDPOINT")


class ReviewSettings(_Section):
    """Review: which documents go to it by their date, and what confirmed documents
    teach about their sellers."""

    SECTION: ClassVar[str] = "review"

    #: a document dated before this year goes to review (an OCR'd "1924" for "2024")
    check_min_year: int = Field(2000, ge=1900, le=2100, alias="CHECK_MIN_YEAR")
    #: how many of a seller's newest confirmed documents keep their values (shown to
    #: Claude as examples); older ones only count toward the seller's usual types, VAT
    #: rate and number format
    counterparty_kept: int = Field(5, ge=0, le=100, alias="COUNTERPARTY_KEPT")
    #: how many of a seller's confirmed documents must agree on a name, VAT rate or
    #: number shape before a document that differs is flagged, and before its documents
    #: are shown to Claude as examples
    counterparty_min_confirmed: int = Field(2, ge=1, le=100, alias="COUNTERPARTY_MIN_CONFIRMED")


class RegistrySettings(_Section):
    """Registry import: caps on what a workbook may hold (at most Excel's own limits),
    counted over the cells it uses, never over the size it declares."""

    SECTION: ClassVar[str] = "registry"

    registry_max_rows: int = Field(1_048_576, ge=1, le=1_048_576, alias="REGISTRY_MAX_ROWS")
    registry_max_columns: int = Field(16_384, ge=1, le=16_384, alias="REGISTRY_MAX_COLUMNS")
    registry_max_cell_chars: int = Field(32_767, ge=100, le=32_767, alias="REGISTRY_MAX_CELL_CHARS")


class StorageSettings(_Section):
    """Where jobs and files are kept: the data folder (SQLite and blobs) by default,
    MongoDB and MinIO for a team; an empty address means the embedded default."""

    SECTION: ClassVar[str] = "storage"

    data_dir: Path = Field(default_factory=default_data_dir, alias="DOCBATCH_DATA_DIR")
    #: how long a write waits for a database another program holds, before retrying
    db_busy_timeout: float = Field(30, ge=0.1, le=3600, alias="DB_BUSY_TIMEOUT")
    mongodb_uri: OptionalText = Field(None, alias="MONGODB_URI")
    minio_endpoint: OptionalText = Field(None, alias="MINIO_ENDPOINT")
    minio_access_key: str | None = Field(None, alias="MINIO_ACCESS_KEY")
    minio_secret_key: SecretStr | None = Field(None, alias="MINIO_SECRET_KEY")
    minio_bucket: str = Field("docbatch", alias="MINIO_BUCKET")
    minio_secure: bool = Field(False, alias="MINIO_SECURE")
    #: this machine's cache of MinIO blobs (children read files): least recent go first
    blob_cache_mb: int = Field(2048, ge=16, le=1_000_000, alias="BLOB_CACHE_MB")


class TeamSettings(_Section):
    """Team scale: where heavy tasks run (this process or Celery workers), Redis, the
    broker, the shared folder, the workload keys' TTL and the batch leader lock."""

    SECTION: ClassVar[str] = "team"

    execution: Execution = Field(Execution.IN_PROCESS, alias="EXECUTION")
    redis_url: OptionalText = Field(None, alias="REDIS_URL")
    celery_broker_url: OptionalText = Field(None, alias="CELERY_BROKER_URL")
    #: the only folder Celery tasks read registries from and write exports to
    shared_folder: OptionalPath = Field(None, alias="SHARED_FOLDER")
    workload_ttl: int = Field(70 * 60, ge=1, le=86_400, alias="WORKLOAD_TTL")
    leader_ttl: float = Field(30, ge=1, le=3600, alias="LEADER_TTL")


class IntakeSettings(_Section):
    """Documents in: watched folders (a file a scanner drops is queued once it is
    complete), separator sheets (a page with this barcode, Code 128 or QR, splits a
    scanned stack and is not sent; empty: none), and Yandex.Disk imports (an OAuth
    token for private folders; public links need none)."""

    SECTION: ClassVar[str] = "intake"

    #: folders to watch whenever the window or ``docbatch worker`` runs (";" between)
    watch_folders: str = Field("", alias="WATCH_FOLDERS")
    #: after intake: keep the original, or move it into processed/ or failed/ beside it
    watch_after: Choice = Field("keep", alias="WATCH_AFTER")
    #: a file is complete when its size and time have not changed for this long
    watch_settle_seconds: float = Field(3, ge=0.1, le=3600, alias="WATCH_SETTLE_SECONDS")
    #: how often the folders are listed too (network shares send no events)
    watch_poll_seconds: float = Field(5, ge=0.2, le=3600, alias="WATCH_POLL_SECONDS")
    separator_value: str = Field("PATCHT", max_length=200, alias="SEPARATOR_VALUE")
    #: a barcode matching this regular expression names its document (archive serial
    #: number, kept on the job); empty: none
    asn_pattern: str = Field(r"^ASN\d+$", max_length=200, alias="ASN_PATTERN")
    yadisk_token: OptionalSecret = Field(None, alias="YADISK_TOKEN")
    yadisk_api_url: HttpAddress = Field("https://cloud-api.yandex.net", alias="YADISK_API_URL")
    #: seconds for a whole import; a server that drips data cannot hold it longer
    yadisk_timeout: float = Field(3600, ge=1, le=86_400, alias="YADISK_TIMEOUT")
    yadisk_max_files: int = Field(10_000, ge=1, le=1_000_000, alias="YADISK_MAX_FILES")
    yadisk_max_depth: int = Field(20, ge=0, le=1000, alias="YADISK_MAX_DEPTH")

    @field_validator("asn_pattern")
    @classmethod
    def _a_pattern(cls, value: str) -> str:
        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"is not a regular expression ({exc})") from None
        return value


class MailSettings(_Section):
    """The office's mailbox (IMAP): attachments of new messages are queued once each."""

    SECTION: ClassVar[str] = "mail"

    #: empty: no mailbox; the window and ``docbatch worker`` check it when set
    mail_host: OptionalText = Field(None, alias="MAIL_HOST")
    #: 0: 993 for tls, 143 otherwise
    mail_port: int = Field(0, ge=0, le=65535, alias="MAIL_PORT")
    mail_user: OptionalText = Field(None, alias="MAIL_USER")
    #: the password or app token: in the keyring, never in the settings file
    mail_password: OptionalSecret = Field(None, alias="MAIL_PASSWORD")
    #: tls (IMAPS), starttls, or plain: the password in the clear, only when set so
    mail_security: Choice = Field("tls", alias="MAIL_SECURITY")
    #: a certificate authority to trust for the server (an office's own), PEM
    mail_ca_file: OptionalPath = Field(None, alias="MAIL_CA_FILE")
    #: folders to read (";" between)
    mail_folders: str = Field("INBOX", min_length=1, alias="MAIL_FOLDERS")
    #: a taken message is flagged (read and $DocBatch), moved to MAIL_MOVE_TO, or kept
    mail_after: Choice = Field("flag", alias="MAIL_AFTER")
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


class OutboundSettings(_Section):
    """Documents out: a POST for each job that reaches done or needs_review, signed with
    an HMAC of the body (X-DocBatch-Signature), retried, and kept when it fails."""

    SECTION: ClassVar[str] = "outbound"

    webhook_url: OptionalHttpAddress = Field(None, alias="WEBHOOK_URL")
    webhook_secret: OptionalSecret = Field(None, alias="WEBHOOK_SECRET")
    #: tries per delivery (the waits between them grow: 1, 2, 4 … up to 60 s)
    webhook_attempts: int = Field(5, ge=1, le=20, alias="WEBHOOK_ATTEMPTS")
    webhook_timeout: float = Field(10, ge=0.5, le=300, alias="WEBHOOK_TIMEOUT")


#: every setting's field, by name: what ``Settings.model_fields`` holds, known without
#: the joined model (its error messages are made below it)
FIELDS: dict[str, FieldInfo] = {
    name: info for section in SECTIONS for name, info in section.model_fields.items()
}
