"""``docbatch doctor`` checks the configured team backends with the Settings tab's tests."""

from __future__ import annotations

import socket

import pytest

from docbatch_gui.diagnostics import connections
from docbatch_gui.diagnostics.doctor import Status, _team_backends
from docbatch_gui.settings.loading import load_settings


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_doctor_uses_the_connection_tests_and_prints_no_password(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connections, "TIMEOUT", 1.0)
    settings = load_settings(
        REDIS_URL=redis_url,
        MONGODB_URI=f"mongodb://u:pw-doctor-secret@127.0.0.1:{closed_port()}/team",
    )
    checks = {c.name: c for c in _team_backends(settings)}
    assert checks["Redis"].status is Status.OK and "answered PING" in checks["Redis"].detail
    assert checks["MongoDB"].status is Status.FAIL
    assert "pw-doctor-secret" not in checks["MongoDB"].detail
    assert "MinIO" not in checks and "Celery broker" not in checks  # not configured


def test_no_team_backend_configured_means_no_team_check() -> None:
    assert _team_backends(load_settings()) == []
