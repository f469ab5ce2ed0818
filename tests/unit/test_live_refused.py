"""A refused connection is the first thing *Test connection* (and ``doctor --live``)
says: it is known in a moment, before the SDK is imported and the sample page is
rendered (seconds on an idle machine, twenty on a busy one, spent before a
refusal was said)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

from docbatch_gui.diagnostics import connections
from docbatch_gui.diagnostics.live import live_check
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.model import Settings

KEY = "sk-ant-live-refused"


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def refusing(tmp_path: Path) -> tuple[Settings, int]:
    port = closed_port()
    settings = load_settings(
        data_dir=tmp_path / "data", ANTHROPIC_API_KEY=KEY,
        ANTHROPIC_BASE_URL=f"http://127.0.0.1:{port}",
    )  # fmt: skip
    return settings, port


def test_a_refused_connection_is_the_one_step_before_any_request(tmp_path: Path) -> None:
    settings, port = refusing(tmp_path)
    seen = []
    steps = asyncio.run(live_check(settings, KEY, on_step=seen.append, retries=0))
    assert [s.name for s in steps] == ["connect"] and seen == steps
    (step,) = steps
    assert not step.ok and step.connection and isinstance(step.error, ConnectionRefusedError)
    assert f"127.0.0.1:{port}" in step.detail


def test_test_connection_words_the_refusal_with_the_technical_line(tmp_path: Path) -> None:
    settings, port = refusing(tmp_path)
    result = asyncio.run(connections.test_anthropic(settings))
    assert not result.ok and result.message.code == "claude_test_refused"
    assert result.message.english.startswith(f"Nothing answers at 127.0.0.1:{port}")
    assert "в подключении отказано" in result.message.words("ru")
    first, *rest = result.details.splitlines()
    assert first.startswith("connect: cannot reach")  # no request was built or sent
    assert "ConnectionRefusedError" in "\n".join(rest) and KEY not in result.details
