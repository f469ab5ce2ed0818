"""Connection tests against the fakes, a local redis-server and a refused port."""

from __future__ import annotations

import asyncio
import importlib.util
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.diagnostics import connections
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.model import Settings
from tests.fakes.anthropic_server import FakeAnthropic
from tests.fakes.vision_server import FakeVision
from tests.helpers import wait_for

pytestmark = pytest.mark.asyncio
KEY = "sk-ant-conn-secret-42"
REDIS_PASSWORD = "r3dis-pw-secret"


def closed_port() -> int:
    """A port nobody listens on: bound, then released."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def settings(**values: object) -> Settings:
    return load_settings(**values)


@pytest.fixture(autouse=True)
def short_timeouts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connections, "TIMEOUT", 2.0)


@pytest.fixture
def vision() -> Iterator[FakeVision]:
    with FakeVision() as server:
        yield server


@pytest.fixture
def redis_port(tmp_path: Path) -> Iterator[int]:
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(binary).exists():
        pytest.skip("redis-server is not installed")
    port = closed_port()
    args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    args += ["--appendonly", "no", "--dir", str(tmp_path), "--requirepass", REDIS_PASSWORD]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:

        def listening() -> bool:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
            except OSError:
                return False
            return True

        wait_for(listening, 10, f"redis-server on port {port}")
        yield port
    finally:
        process.terminate()
        process.wait(10)


@pytest.mark.slow
async def test_anthropic_accepts_a_good_key_and_says_why_not_otherwise() -> None:
    with FakeAnthropic() as fake:
        good = await connections.test_anthropic(
            settings(ANTHROPIC_API_KEY=KEY, ANTHROPIC_BASE_URL=fake.url)
        )
        bad = await connections.test_anthropic(
            settings(ANTHROPIC_API_KEY="bad-key", ANTHROPIC_BASE_URL=fake.url)
        )
    assert (
        good.ok
        and "the key is accepted" in good.message.english
        and "(cost $" in good.message.english
    )
    assert "answer parsed: 1 document" in good.details  # the steps: the details
    assert "count_tokens:" in good.details
    assert not bad.ok and "refused the API key" in bad.message.english
    assert bad.message.words("ru").startswith("127.0.0.1:")  # worded in Russian too
    port = closed_port()
    # ten retries would take the SDK's backoff about a minute: the test asks once
    refused = await asyncio.wait_for(
        connections.test_anthropic(
            settings(
                ANTHROPIC_API_KEY=KEY,
                ANTHROPIC_BASE_URL=f"http://127.0.0.1:{port}",
                ANTHROPIC_MAX_RETRIES=10,
            )
        ),
        30,
    )
    assert not refused.ok
    assert (
        refused.message.english
        == f"Nothing answers at 127.0.0.1:{port}: the connection was "
        + (
            "refused. Check the API address above (leave it empty for Anthropic's own), or start "
            "the server it names."
        )
    )
    assert "ConnectionRefusedError" in refused.details  # the technical line, on request
    assert "в подключении отказано" in refused.message.words("ru")
    # named as the field above is labelled ("API address", "Адрес API"), not "Base URL"
    assert "адрес API выше" in refused.message.words("ru")
    for result in (good, bad, refused):
        assert KEY not in result.message.english and KEY not in result.details


async def test_anthropic_without_a_key_says_so() -> None:
    result = await connections.test_anthropic(settings())
    assert not result.ok and "No API key is set" in result.message.english


async def test_vision_answers_through_the_fake_and_fails_on_a_closed_port(
    vision: FakeVision,
) -> None:
    good = await connections.test_vision(settings(GOOGLE_VISION_ENDPOINT=vision.url))
    assert good.ok, good.message.english
    assert vision.calls == 1
    refused = await connections.test_vision(
        settings(GOOGLE_VISION_ENDPOINT=f"http://127.0.0.1:{closed_port()}")
    )
    assert not refused.ok and refused.message.english


@pytest.mark.slow  # starts redis-server
async def test_redis_ping_with_auth_and_a_wrong_password(redis_port: int) -> None:
    good = await connections.test_redis(
        settings(REDIS_URL=f"redis://:{REDIS_PASSWORD}@127.0.0.1:{redis_port}/0")
    )
    assert good.ok, good.message.english
    assert "answered PING" in good.message.english
    wrong = await connections.test_redis(
        settings(REDIS_URL=f"redis://:wrong-secret@127.0.0.1:{redis_port}/0")
    )
    assert not wrong.ok and "refused" in wrong.message.english
    assert (
        "wrong-secret" not in wrong.message.english and REDIS_PASSWORD not in good.message.english
    )


async def test_redis_on_a_closed_port_is_a_clear_failure() -> None:
    result = await connections.test_redis(settings(REDIS_URL=f"redis://127.0.0.1:{closed_port()}"))
    assert not result.ok and "Cannot reach Redis" in result.message.english
    assert "ConnectionRefusedError" in result.details  # the raw words, behind Details


@pytest.mark.slow
@pytest.mark.parametrize(
    ("package", "probe", "values"),
    [
        ("pymongo", connections.test_mongodb, {"MONGODB_URI": "mongodb://u:pw-secret@127.0.0.1:{port}"}),
        ("minio", connections.test_minio,
         {"MINIO_ENDPOINT": "127.0.0.1:{port}", "MINIO_SECRET_KEY": "pw-secret"}),
    ],
)  # fmt: skip
async def test_optional_clients_say_install_or_fail_clearly(
    package: str, probe: Any, values: dict[str, str]
) -> None:
    port = closed_port()
    result = await probe(settings(**{k: v.format(port=port) for k, v in values.items()}))
    assert not result.ok
    if importlib.util.find_spec(package) is None:
        assert f"install {package}" in result.message.english
    assert "pw-secret" not in result.message.english


async def test_unset_backends_are_reported_not_attempted() -> None:
    for probe, variable in (
        (connections.test_mongodb, "MONGODB_URI"),
        (connections.test_minio, "MINIO_ENDPOINT"),
        (connections.test_redis, "REDIS_URL"),
    ):
        result = await probe(settings())
        assert not result.ok and variable in result.message.english


async def test_every_backends_answer_is_worded_in_the_windows_language(
    vision: FakeVision,
) -> None:
    """Not only Claude's: a Russian window answers Tesseract, Vision, the unset
    backends and a refused Redis in Russian (product names and hosts are values)."""
    refused = f"http://127.0.0.1:{closed_port()}"
    results = [
        await connections.test_tesseract(settings()),
        await connections.test_vision(settings(GOOGLE_VISION_ENDPOINT=vision.url)),
        await connections.test_vision(settings(GOOGLE_VISION_ENDPOINT=refused)),
        await connections.test_ocr(settings(OCR_ENGINE="none")),
        await connections.test_mongodb(settings()),
        await connections.test_minio(settings()),
        await connections.test_redis(settings()),
        await connections.test_celery_broker(settings()),
        await connections.test_mail(settings()),
        await connections.test_redis(settings(REDIS_URL=f"redis://127.0.0.1:{closed_port()}/0")),
    ]
    for result in results:
        english, russian = result.message.english, result.message.words("ru")
        assert result.message.code, english
        assert russian != english and any("а" <= c <= "я" for c in russian.lower()), russian
