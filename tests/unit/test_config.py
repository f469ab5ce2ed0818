from __future__ import annotations

from pathlib import Path

import pytest

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.domain.states import ProcessingMode
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.sections import default_data_dir


def test_seed_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PROCESSING_MODE", "OCR_WORKERS", "BATCH_SIZE", "POLL_INTERVAL", "JOB_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    settings = load_settings()
    assert settings.processing_mode is ProcessingMode.SYNC
    assert (settings.ocr_workers, settings.batch_size, settings.poll_interval) == (1, 30, 10)
    assert settings.job_timeout == 900
    assert settings.group_size == 8
    assert settings.data_dir == default_data_dir()


def test_environment_variables_use_the_seed_names(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DOCBATCH_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("BATCH_SIZE", "12")
    monkeypatch.setenv("JOB_TIMEOUT", "30")
    monkeypatch.setenv("MAX_CONCURRENCY", "20")
    settings = load_settings()
    assert settings.data_dir == tmp_path
    assert (settings.batch_size, settings.job_timeout, settings.max_concurrency) == (12, 30, 20)
    assert settings.db_path.parent == tmp_path


@pytest.mark.parametrize(
    ("variable", "value", "allowed"),
    [
        ("MAX_CONCURRENCY", "0", "1 to 20"),
        ("MAX_CONCURRENCY", "21", "1 to 20"),
        ("OCR_WORKERS", "many", "whole number"),
        ("JOB_TIMEOUT", "0", "0.1 to 86400"),
        ("PROCESSING_MODE", "fast", "offline, sync, batch"),
        ("POLL_INTERVAL", "-1", "0.1 to 3600"),
    ],
)
def test_invalid_values_stop_with_one_clear_message(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, allowed: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigError) as info:
        load_settings()
    message = str(info.value)
    assert f"{variable}={value!r}" in message
    assert allowed in message


def test_secret_values_are_never_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-secret-value")
    settings = load_settings()
    assert "sk-secret-value" not in repr(settings)
    assert "sk-secret-value" not in str(settings.model_dump())


def test_empty_backend_variables_mean_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MONGODB_URI", "  ")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "")
    settings = load_settings()
    assert settings.mongodb_uri is None and settings.anthropic_api_key is None


def test_mode_is_offline_without_a_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from docbatch_gui.app.facade import DocBatchApp

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setattr("docbatch_gui.engine.context.keyring_secret", lambda name: None)
    app = DocBatchApp(load_settings(data_dir=tmp_path))
    assert app.resolve_mode(None) == "offline"
    for mode in ("sync", "batch"):
        with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
            app.resolve_mode(mode)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    app = DocBatchApp(load_settings(data_dir=tmp_path))
    assert app.resolve_mode(None) == "sync"
    assert app.resolve_mode("offline") == "offline"
    assert app.resolve_mode("batch") == "batch"


def test_overrides_by_field_name() -> None:
    settings = Settings(data_dir=Path("/tmp/x"), job_timeout=5)
    assert settings.job_timeout == 5
