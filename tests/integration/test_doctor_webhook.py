"""``docbatch doctor`` checks what only a connection can tell about WEBHOOK_URL:
nothing answering there is a failed check, before any delivery fails."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from docbatch_gui.cli import main
from docbatch_gui.domain.errors import ExitCode


@pytest.fixture
def listening() -> Iterator[int]:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server.getsockname()[1]


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # closed again: nothing listens there


def webhook_line(out: str) -> str:
    return next(line for line in out.splitlines() if "webhook:" in line)


@pytest.mark.slow  # starts a render child (doctor)
def test_doctor_fails_a_webhook_nothing_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WEBHOOK_URL", f"http://127.0.0.1:{closed_port()}/hook")
    code = main(["--data-dir", str(tmp_path / "data"), "doctor"])
    line = webhook_line(capsys.readouterr().out)
    assert code == ExitCode.FAILED
    assert line.startswith("FAIL") and "nothing answers at 127.0.0.1:" in line
    assert "check WEBHOOK_URL" in line


@pytest.mark.slow  # starts a render child (doctor)
def test_doctor_passes_a_webhook_that_answers(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    listening: int,
) -> None:
    monkeypatch.setenv("WEBHOOK_URL", f"http://127.0.0.1:{listening}/hook")
    main(["--data-dir", str(tmp_path / "data"), "doctor"])
    line = webhook_line(capsys.readouterr().out)
    assert line.startswith("ok") and f"127.0.0.1:{listening} answers" in line


def test_doctor_refuses_a_webhook_address_that_is_no_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WEBHOOK_URL", "not a url")
    assert main(["--data-dir", str(tmp_path / "data"), "doctor"]) == ExitCode.CONFIG
    assert "WEBHOOK_URL='not a url': must be an http:// or https:// address" in (
        capsys.readouterr().err
    )
