"""The settings file: round trip, precedence, secrets kept out, clear errors."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.domain.states import ProcessingMode
from docbatch_gui.settings.file import settings_path
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.saving import environment_overrides, save_settings
from docbatch_gui.settings.secrets import SERVICE, join_uri_password, redact, split_uri_password
from tests.fakes.memory_keyring import MemoryKeyring, memory_keyring

API_KEY = "sk-ant-unit-secret-123"
MONGO_PASSWORD = "m0ngo/p@ss"


@pytest.fixture
def settings_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "config" / "settings.json"
    monkeypatch.setenv("DOCBATCH_SETTINGS_FILE", str(path))
    monkeypatch.setenv("DOCBATCH_DATA_DIR", str(tmp_path / "data"))
    for name in ("BATCH_SIZE", "JOB_TIMEOUT", "PROCESSING_MODE", "MINIO_SECRET_KEY"):
        monkeypatch.delenv(name, raising=False)
    return path


@pytest.fixture
def ring() -> Iterator[MemoryKeyring]:
    with memory_keyring() as backend:
        yield backend


def test_the_path_comes_from_the_environment(settings_file: Path) -> None:
    assert settings_path() == settings_file


def test_round_trip_keeps_only_what_differs_from_the_defaults(
    settings_file: Path, ring: MemoryKeyring
) -> None:
    saved = save_settings({"BATCH_SIZE": 50, "PROCESSING_MODE": "batch", "JOB_TIMEOUT": 900})
    assert (saved.batch_size, saved.processing_mode) == (50, ProcessingMode.BATCH)
    assert json.loads(settings_file.read_text()) == {
        "schema_version": 2,
        "processing": {"PROCESSING_MODE": "batch"},
        "batch": {"BATCH_SIZE": 50},
    }
    again = load_settings()
    assert (again.batch_size, again.processing_mode, again.job_timeout) == (50, "batch", 900)
    save_settings({"BATCH_SIZE": 30})  # back to the default: dropped from the file
    assert json.loads(settings_file.read_text()) == {
        "schema_version": 2,
        "processing": {"PROCESSING_MODE": "batch"},
    }


def test_precedence_overrides_then_environment_then_file(
    settings_file: Path, ring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(json.dumps({"BATCH_SIZE": 50, "JOB_TIMEOUT": 5, "OCR_WORKERS": 3}))
    monkeypatch.setenv("JOB_TIMEOUT", "7")
    monkeypatch.setenv("OCR_WORKERS", "2")
    settings = load_settings(OCR_WORKERS=4)
    assert (settings.batch_size, settings.job_timeout, settings.ocr_workers) == (50, 7, 4)
    assert load_settings().max_concurrency == 5  # default under all three
    assert {"JOB_TIMEOUT", "OCR_WORKERS"} <= environment_overrides()
    assert "BATCH_SIZE" not in environment_overrides()


def test_a_bad_value_in_the_file_names_the_file_and_the_variable(settings_file: Path) -> None:
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(json.dumps({"BATCH_SIZE": 0}))
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert "BATCH_SIZE=0" in str(info.value)
    assert str(settings_file) in str(info.value)
    assert "1 to 10000" in str(info.value)


@pytest.mark.parametrize("text", ['{"BATCH_SIZE": 3', "[1, 2]"])
def test_a_broken_file_is_a_config_error_naming_it(settings_file: Path, text: str) -> None:
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(text)
    with pytest.raises(ConfigError, match=str(settings_file)):
        load_settings()


def test_an_invalid_value_is_refused_and_nothing_is_written(
    settings_file: Path, ring: MemoryKeyring
) -> None:
    with pytest.raises(ConfigError, match="OCR_WORKERS=0 is invalid"):
        save_settings({"OCR_WORKERS": 0, "ANTHROPIC_API_KEY": API_KEY})
    assert not settings_file.exists()
    assert ring.store == {}


def test_secrets_go_to_the_keyring_never_the_file_or_the_log(
    settings_file: Path, ring: MemoryKeyring, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    uri = f"mongodb://reader:{MONGO_PASSWORD.replace('/', '%2F').replace('@', '%40')}@db:27017/x"
    saved = save_settings(
        {"ANTHROPIC_API_KEY": API_KEY, "MINIO_SECRET_KEY": "minio-secret-9", "MONGODB_URI": uri}
    )
    text = settings_file.read_text()
    for secret in (API_KEY, "minio-secret-9", MONGO_PASSWORD, "m0ngo"):
        assert secret not in text
        assert secret not in caplog.text
    assert json.loads(text) == {
        "schema_version": 2,
        "storage": {"MONGODB_URI": "mongodb://reader@db:27017/x"},
    }
    assert ring.store[(SERVICE, "ANTHROPIC_API_KEY")] == API_KEY
    assert ring.store[(SERVICE, "MONGODB_URI_PASSWORD")] == MONGO_PASSWORD
    assert saved.anthropic_api_key is not None
    assert saved.anthropic_api_key.get_secret_value() == API_KEY
    assert saved.mongodb_uri == uri  # the password is put back when settings load
    save_settings({"ANTHROPIC_API_KEY": ""})  # clearing removes it from the keyring
    assert (SERVICE, "ANTHROPIC_API_KEY") not in ring.store


def test_a_secret_written_into_the_file_by_hand_is_ignored(
    settings_file: Path, ring: MemoryKeyring
) -> None:
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(json.dumps({"ANTHROPIC_API_KEY": API_KEY}))
    assert load_settings().anthropic_api_key is None


def test_a_webhook_secret_in_the_file_stops_the_load_never_unsigned(
    settings_file: Path, ring: MemoryKeyring, tmp_path: Path
) -> None:
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(json.dumps({"WEBHOOK_SECRET": "hook-s3cret", "BATCH_SIZE": 5}))
    with pytest.raises(ConfigError) as info:
        load_settings()
    said = str(info.value)
    assert (
        said.startswith("WEBHOOK_SECRET is in the settings file")
        and "move it to the keyring" in said
    )
    assert str(settings_file) in said and "hook-s3cret" not in said
    assert info.value.exit_code == 5
    ru = info.value.words("ru")
    assert "WEBHOOK_SECRET" in ru and "хранилище ключей" in ru


def test_error_texts_mask_secrets(settings_file: Path, ring: MemoryKeyring) -> None:
    with pytest.raises(ConfigError) as info:
        save_settings(
            {"ANTHROPIC_API_KEY": API_KEY, "MONGODB_URI": "mongodb://u:pw123@h", "BATCH_SIZE": -1}
        )
    assert API_KEY not in str(info.value)
    assert redact("MONGODB_URI", "mongodb://u:pw123@h") == "'mongodb://u:***@h'"


@pytest.mark.parametrize(
    ("uri", "bare", "password"),
    [
        ("redis://:s3cret@cache:6379/0", "redis://cache:6379/0", "s3cret"),
        ("amqp://guest:guest@rabbit//", "amqp://guest@rabbit//", "guest"),
        ("mongodb://h1,h2/?replicaSet=r", "mongodb://h1,h2/?replicaSet=r", None),
    ],
)
def test_uri_passwords_split_and_join(uri: str, bare: str, password: str | None) -> None:
    assert split_uri_password(uri) == (bare, password)
    if password and not uri.startswith("redis://:"):
        assert join_uri_password(bare, password) == uri
