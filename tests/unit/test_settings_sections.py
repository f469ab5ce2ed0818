"""Settings in sections: every variable keeps its name and its field, an old flat
settings file loads and is written back in sections, a newer one is refused, and
validation reads no disk."""

from __future__ import annotations

import builtins
import json
import os
import pathlib
import typing
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.settings.checks import check_settings
from docbatch_gui.settings.choices import CHOICE_FIELDS, fixed_choices
from docbatch_gui.settings.file import read_settings_file
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.migrations import SCHEMA_VERSION
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.sections import FIELDS, SECTIONS
from tests.fakes.memory_keyring import memory_keyring

#: what the settings file of DocBatch before sections held (version 1): one flat
#: object keyed by variable (a field name in any case was read too), as it wrote it
OLD_FILE = {
    "BATCH_SIZE": 50,
    "CLAUDE_EFFORT": "low",
    "EXECUTION": "celery",
    "OCR_ENGINE": "google_vision",
    "WEBHOOK_ATTEMPTS": 3,
    "mail_folders": "INBOX;Scans",
    "SOMETHING_RETIRED": 1,
}

#: every variable the settings read before sections: names scripts and docs use
VARIABLES_BEFORE_SECTIONS = frozenset(
    {
        "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_MAX_RETRIES", "ANTHROPIC_MODEL",
        "ANTHROPIC_TIMEOUT", "ASN_PATTERN", "BATCH_MAX_MB", "BATCH_MAX_REQUESTS", "BATCH_SIZE",
        "BLOB_CACHE_MB", "BUDGET_MONTH_USD", "BUDGET_RUN_USD", "CELERY_BROKER_URL",
        "CHECK_MIN_YEAR", "CHILD_MEMORY_MB", "CLAUDE_EFFORT", "CLAUDE_OUTPUT", "CLAUDE_THINKING",
        "COUNTERPARTY_KEPT", "COUNTERPARTY_MIN_CONFIRMED", "DB_BUSY_TIMEOUT", "DOCBATCH_DATA_DIR",
        "DOCBATCH_LANGUAGE", "DOCBATCH_PROFILE", "EXECUTION", "FOLLOW_SYMLINKS_OUT",
        "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_VISION_ENDPOINT", "GROUP_SIZE", "JOB_TIMEOUT",
        "JPEG_QUALITY", "LEADER_TTL", "MAIL_AFTER", "MAIL_BODY_AS_PDF", "MAIL_CA_FILE",
        "MAIL_FOLDERS", "MAIL_HOST", "MAIL_MAX_ATTACHMENTS", "MAIL_MAX_ATTACHMENT_MB",
        "MAIL_MAX_DEPTH", "MAIL_MAX_MESSAGE_MB", "MAIL_MOVE_TO", "MAIL_PASSWORD",
        "MAIL_POLL_SECONDS", "MAIL_PORT", "MAIL_SECURITY", "MAIL_TIMEOUT", "MAIL_USER",
        "MAX_CONCURRENCY", "MAX_CONCURRENT_MB", "MAX_FILE_MB", "MAX_IMAGE_PIXELS",
        "MAX_OUTPUT_TOKENS", "MAX_PAGES", "MAX_PAGE_TEXT_CHARS", "MINIO_ACCESS_KEY",
        "MINIO_BUCKET", "MINIO_ENDPOINT", "MINIO_SECRET_KEY", "MINIO_SECURE", "MONGODB_URI",
        "OCR_ENGINE", "OCR_LANGUAGES", "OCR_MIN_TEXT_CHARS", "OCR_TIMEOUT", "OCR_WORKERS",
        "PAGE_TIMEOUT", "POLL_INTERVAL", "PROCESSING_MODE", "REDIS_URL", "REGISTRY_MAX_CELL_CHARS",
        "REGISTRY_MAX_COLUMNS", "REGISTRY_MAX_ROWS", "RENDER_WORKERS", "REQUEST_RETRIES",
        "RESULT_WORKERS", "SEPARATOR_VALUE", "SHARED_FOLDER", "WATCH_AFTER", "WATCH_FOLDERS",
        "WATCH_POLL_SECONDS", "WATCH_SETTLE_SECONDS", "WEBHOOK_ATTEMPTS", "WEBHOOK_SECRET",
        "WEBHOOK_TIMEOUT", "WEBHOOK_URL", "WORKLOAD_TTL", "YADISK_API_URL", "YADISK_MAX_DEPTH",
        "YADISK_MAX_FILES", "YADISK_TIMEOUT", "YADISK_TOKEN",
    }
)  # fmt: skip


@pytest.fixture
def settings_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "config" / "settings.json"
    path.parent.mkdir()
    monkeypatch.setenv("DOCBATCH_SETTINGS_FILE", str(path))
    monkeypatch.setenv("DOCBATCH_DATA_DIR", str(tmp_path / "data"))
    for info in Settings.model_fields.values():
        monkeypatch.delenv(str(info.alias), raising=False)
    return path


def test_every_field_lives_in_one_section_and_keeps_its_variable() -> None:
    in_sections = [(name, info.alias) for s in SECTIONS for name, info in s.model_fields.items()]
    assert len(in_sections) == len(set(in_sections)) == len(Settings.model_fields)
    assert dict(in_sections) == {n: i.alias for n, i in Settings.model_fields.items()}
    assert len({s.SECTION for s in SECTIONS}) == len(SECTIONS)
    assert {n: i.alias for n, i in FIELDS.items()} == dict(in_sections)
    assert {"claude", "ocr", "batch", "budget", "team", "intake", "outbound"} <= {
        s.SECTION for s in SECTIONS
    }


def test_every_rule_of_every_section_runs_in_settings() -> None:
    """``Settings`` joins the sections: a validator hidden by another section's of the
    same name would let its values through unchecked."""
    for kind in ("field_validators", "model_validators"):
        joined = getattr(Settings.__pydantic_decorators__, kind)
        for section in SECTIONS:
            own = getattr(section.__pydantic_decorators__, kind)
            for name, found in own.items():
                assert joined[name].info == found.info, (section.SECTION, name)
    with pytest.raises(ConfigError, match="WEBHOOK_URL"):
        load_settings(WEBHOOK_URL="not a url")
    with pytest.raises(ConfigError, match="YADISK_API_URL"):
        load_settings(YADISK_API_URL="cloud-api.yandex.net")
    with pytest.raises(ConfigError, match="MAIL_AFTER"):
        load_settings(MAIL_AFTER="burn")
    assert load_settings(MONGODB_URI="  ", MAIL_HOST="").mongodb_uri is None


def _other_value(name: str, tmp_path: Path) -> tuple[str, Any]:
    """A valid value for the field other than its default: (as the environment gives
    it, as the settings hold it)."""
    info = Settings.model_fields[name]
    default = info.get_default(call_default_factory=True)
    kind = info.annotation
    if typing.get_origin(kind) in (typing.Union, __import__("types").UnionType):
        kind = next(a for a in typing.get_args(kind) if a is not type(None))
    if name in CHOICE_FIELDS:
        choice = next(c for c in fixed_choices(name) if c != default)
        return choice, choice
    if isinstance(kind, type) and issubclass(kind, Enum):
        member = next(m for m in kind if m != default and m.value != "data")
        return member.value, member
    if kind is bool:
        return ("0", False) if default else ("1", True)
    if kind in (int, float):
        lower = next(m.ge for m in info.metadata if hasattr(m, "ge"))
        value = lower if lower != default else lower + 1
        return str(value), kind(value)
    if kind is Path:
        return str(tmp_path / name), tmp_path / name
    if kind is SecretStr:
        return "s3cret-value", "s3cret-value"
    if name.endswith(("_url", "_endpoint")) and name != "minio_endpoint":
        return "http://example.com:9", "http://example.com:9"
    return "xyz", "xyz"


def test_every_environment_variable_still_sets_its_field(
    settings_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command line's contract: scripts and docs set ``EXECUTION=celery``,
    ``OCR_ENGINE=google_vision``, ``BATCH_SIZE``…; each still reaches its field."""
    wrong = []
    with memory_keyring():
        for name, info in Settings.model_fields.items():
            given, expected = _other_value(name, tmp_path)
            with monkeypatch.context() as env:
                env.setenv(str(info.alias), given)
                got = getattr(load_settings(), name)
            got = got.get_secret_value() if isinstance(got, SecretStr) else got
            if got != expected:
                wrong.append((info.alias, given, got))
    assert not wrong
    assert {str(i.alias) for i in Settings.model_fields.values()} == VARIABLES_BEFORE_SECTIONS
    monkeypatch.setenv("EXECUTION", "celery")
    monkeypatch.setenv("OCR_ENGINE", "google_vision")
    monkeypatch.setenv("PROCESSING_MODE", "batch")
    with memory_keyring():
        settings = load_settings()
    assert (settings.execution, settings.ocr_engine, settings.processing_mode) == (
        "celery",
        "google_vision",
        "batch",
    )


def test_an_old_flat_file_loads_into_the_sections_and_is_written_back(
    settings_file: Path,
) -> None:
    settings_file.write_text(json.dumps(OLD_FILE, indent=2) + "\n", encoding="utf-8")
    with memory_keyring():
        old = load_settings()
        assert (old.batch_size, old.claude_effort, old.execution) == (50, "low", "celery")
        assert (old.ocr_engine, old.webhook_attempts) == ("google_vision", 3)
        assert old.mail_folder_names == ["INBOX", "Scans"]
        assert json.loads(settings_file.read_text()) == OLD_FILE  # loading writes nothing
        check_settings(old)  # the start's step brings the file to the current shape
        written = json.loads(settings_file.read_text(encoding="utf-8"))
        assert written == {
            "schema_version": SCHEMA_VERSION,
            "batch": {"BATCH_SIZE": 50},
            "claude": {"CLAUDE_EFFORT": "low"},
            "team": {"EXECUTION": "celery"},
            "ocr": {"OCR_ENGINE": "google_vision"},
            "outbound": {"WEBHOOK_ATTEMPTS": 3},
            "mail": {"mail_folders": "INBOX;Scans"},
            "SOMETHING_RETIRED": 1,  # not a setting: still reported and ignored, not lost
        }
        again = load_settings()
        assert again == old
        assert read_settings_file(Settings) == {
            "BATCH_SIZE": 50,
            "CLAUDE_EFFORT": "low",
            "EXECUTION": "celery",
            "OCR_ENGINE": "google_vision",
            "WEBHOOK_ATTEMPTS": 3,
            "MAIL_FOLDERS": "INBOX;Scans",
        }
        check_settings(again)  # a file of the current shape is left as it is
        assert json.loads(settings_file.read_text(encoding="utf-8")) == written


def test_a_settings_file_of_a_newer_version_is_refused_naming_it(settings_file: Path) -> None:
    settings_file.write_text(
        json.dumps({"schema_version": SCHEMA_VERSION + 1, "batch": {"BATCH_SIZE": 5}}),
        encoding="utf-8",
    )
    with memory_keyring(), pytest.raises(ConfigError) as refused:
        load_settings()
    assert str(settings_file) in refused.value.text
    assert f"version {SCHEMA_VERSION + 1}" in refused.value.text
    assert "update DocBatch" in refused.value.text
    assert refused.value.words("ru") != refused.value.text


def test_validation_reads_no_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Folder and profile checks are the start's (``check_settings``), not validation's:
    validating every section on a full set of values opens, stats and lists nothing.
    (Loading ``Settings`` reads its sources first, the file and the keyring: that is
    reading, before validation.)"""
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x", encoding="utf-8")
    values: dict[str, Any] = {
        "DOCBATCH_DATA_DIR": a_file,
        "SHARED_FOLDER": a_file,
        "WATCH_FOLDERS": f"{a_file};{tmp_path}",
        "DOCBATCH_PROFILE": tmp_path / "nowhere.json",
        "OCR_ENGINE": "tesseract",  # its default asks the PATH for tesseract
    }
    for section in SECTIONS:
        section.model_validate(values)  # the model catalogue (bundled) is read once here

    def no_disk(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("validation touched the disk")

    with monkeypatch.context() as patched:
        for owner, name in [
            (builtins, "open"),
            (os, "stat"),
            (os, "listdir"),
            (os, "scandir"),
            (pathlib.Path, "stat"),
            (pathlib.Path, "is_file"),
            (pathlib.Path, "exists"),
            (pathlib.Path, "read_bytes"),
            (pathlib.Path, "read_text"),
        ]:
            patched.setattr(owner, name, no_disk)
        sections = [section.model_validate(values) for section in SECTIONS]
    assert sections[[s.SECTION for s in SECTIONS].index("storage")].data_dir == a_file  # type: ignore[attr-defined]
    with memory_keyring():
        settings = load_settings(**values)
        with pytest.raises(ConfigError, match="DOCBATCH_DATA_DIR") as refused:
            check_settings(settings, values)
    for variable in ("SHARED_FOLDER", "WATCH_FOLDERS", "nowhere.json"):
        assert variable in refused.value.text
