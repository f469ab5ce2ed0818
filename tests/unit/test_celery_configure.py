"""configure() points the Celery app at the settings' Redis even when a backend was
made before it (a task's state read while unconfigured, or earlier settings)."""

from __future__ import annotations

from pathlib import Path

import pytest
from celery.backends.base import DisabledBackend

from docbatch_gui.distributed.celery_app import app, configure
from docbatch_gui.settings.loading import load_settings


def forget_backend() -> None:
    app._backend_cache = None
    vars(app._local).pop("backend", None)


def test_a_backend_made_before_configure_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOCBATCH_DATA_DIR", str(tmp_path))  # configure() sets it if unset
    before = {k: app.conf.get(k) for k in ("broker_url", "result_backend")}
    try:
        check_the_backend_follows_configure(tmp_path)
    finally:  # the next test in this process finds the app as it was
        app.conf.update(before)
        forget_backend()


def check_the_backend_follows_configure(tmp_path: object) -> None:
    app.conf.result_backend = None
    forget_backend()
    assert isinstance(app.backend, DisabledBackend)  # made and kept by Celery
    configure(load_settings(REDIS_URL="redis://127.0.0.1:1/0", data_dir=tmp_path))
    assert not isinstance(app.backend, DisabledBackend)
    assert app.backend.url.startswith("redis://127.0.0.1:1/0")  # type: ignore[attr-defined]
    configure(load_settings(REDIS_URL="redis://127.0.0.1:2/0", data_dir=tmp_path))
    assert app.backend.url.startswith("redis://127.0.0.1:2/0")  # type: ignore[attr-defined]
