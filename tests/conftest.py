from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from docbatch_gui.settings.model import Settings, load_settings
from tests.fakes.anthropic_server import FakeAnthropic
from tests.peers import MotoS3, RedisServer

if TYPE_CHECKING:
    from docbatch_gui.app.facade import DocBatchApp

REPO = Path(__file__).resolve().parents[1]
#: the package's bundled data, read here from the checkout
RESOURCES = REPO / "docbatch_gui" / "resources"
SAMPLES = RESOURCES / "samples"

# The tests must not pick up a developer's real keys or backends.
for variable in (
    "ANTHROPIC_API_KEY",
    "MONGODB_URI",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "MINIO_ENDPOINT",
):
    os.environ.pop(variable, None)
# Nor a developer's settings file: point at one that does not exist.
os.environ["DOCBATCH_SETTINGS_FILE"] = os.path.join(
    tempfile.gettempdir(), f"docbatch-tests-{os.getpid()}", "settings.json"
)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(data_dir=tmp_path / "data", JOB_TIMEOUT=60, RENDER_WORKERS=2)


@pytest.fixture
def app(settings: Settings) -> Iterator[DocBatchApp]:
    from docbatch_gui.app.facade import DocBatchApp

    application = DocBatchApp(settings)
    yield application
    application.close()


@pytest.fixture(scope="session")
def _anthropic_server() -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as server:
        yield server


@pytest.fixture
def fake_anthropic(_anthropic_server: FakeAnthropic) -> FakeAnthropic:
    """The wire-level fake Anthropic API, reset for each test."""
    _anthropic_server.reset()
    return _anthropic_server


@pytest.fixture
def claude_settings(tmp_path: Path, fake_anthropic: FakeAnthropic) -> Settings:
    """Sync mode against the fake: short timeouts and backoff-friendly retries."""
    return load_settings(
        data_dir=tmp_path / "data",
        ANTHROPIC_API_KEY="test-key",
        ANTHROPIC_BASE_URL=fake_anthropic.url,
        ANTHROPIC_TIMEOUT=10,
        ANTHROPIC_MAX_RETRIES=2,
        JOB_TIMEOUT=60,
        RENDER_WORKERS=2,
    )


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A real ``redis-server`` for the session; tests use their own key names or flush."""
    with RedisServer(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The session's Redis, emptied for this test."""
    import redis

    client = redis.Redis.from_url(redis_server.url)
    client.flushall()
    client.close()
    return redis_server.url


@pytest.fixture(scope="session")
def moto_s3() -> Iterator[MotoS3]:
    """moto's S3 server over real HTTP, for the MinIO blob store."""
    with MotoS3() as server:
        yield server
