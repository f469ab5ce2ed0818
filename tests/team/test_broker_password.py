"""The broker's password keeps strangers out of the queue (issue 18).

The attack: anyone who reached Redis queued ``docbatch.registry_export(1,
"/any/path.xlsx")`` and a Celery worker ran it. The compose file's Redis requires a
password (``--requirepass``); here a real ``redis-server`` does the same, and:

- a client without the password cannot queue a task (nothing reaches the queue);
- a ``docbatch celery-worker`` without it is refused by the server and takes nothing;
- a worker with it (``redis://:PASSWORD@host``) answers and runs the task queued by a
  client that has it too.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from celery import Celery
from kombu.exceptions import OperationalError

from tests.helpers import REPO, wait_for
from tests.peers import RedisServer

pytestmark = pytest.mark.slow  # Celery worker processes
QUEUE = "docbatch"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RedisServer]:
    with RedisServer(tmp_path / "redis", password=secrets.token_urlsafe(16)) as started:
        yield started


def _client(url: str, *, results: bool = False) -> Celery:
    """A Celery client as any program on the network could make one (queueing needs
    only the broker; ``results`` reads them from the same Redis)."""
    app = Celery("stranger", broker=url, backend=url if results else None)
    app.conf.update(
        task_default_queue=QUEUE,
        task_publish_retry=False,
        broker_connection_retry=False,
        broker_connection_max_retries=0,
    )
    return app


def _worker(tmp_path: Path, url: str, name: str) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "DOCBATCH_DATA_DIR": str(tmp_path / "data"),
        "REDIS_URL": url,
        "CELERY_BROKER_URL": url,
        "SHARED_FOLDER": str(tmp_path),
        "OCR_ENGINE": "none",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "docbatch_gui.cli", "celery-worker", "--concurrency", "1",
         "--loglevel", "INFO", "--name", f"{name}@%h"],
        cwd=REPO, env=env, text=True,
        stdout=(tmp_path / f"{name}.log").open("w"), stderr=subprocess.STDOUT,
    )  # fmt: skip


def _stop(worker: subprocess.Popen[str]) -> None:
    worker.terminate()
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


def _queued(server: RedisServer) -> int:
    client = redis.Redis.from_url(server.url)
    try:
        return int(client.llen(QUEUE))
    finally:
        client.close()


def test_a_client_without_the_password_cannot_queue_a_task(server: RedisServer) -> None:
    stranger = _client(server.bare_url)
    with pytest.raises((OperationalError, redis.AuthenticationError)) as refused:
        stranger.send_task("docbatch.registry_export", args=[1, "/any/path.xlsx"])
    assert "auth" in str(refused.value).lower()
    assert _queued(server) == 0


def test_a_worker_needs_the_password_and_works_with_it(tmp_path: Path, server: RedisServer) -> None:
    outsider = _worker(tmp_path, server.bare_url, "outsider")
    member = None
    try:
        log = tmp_path / "outsider.log"
        wait_for(
            lambda: "auth" in log.read_text().lower(), 90,
            lambda: f"the server to refuse the worker without its password: {log.read_text()}",
        )  # fmt: skip
        member = _worker(tmp_path, server.url, "member")
        client = _client(server.url, results=True)
        replies = wait_for(lambda: client.control.ping(timeout=1.0), 90, "a worker to answer")
        # only the member answers: the outsider never got onto the broker
        assert [name.split("@")[0] for reply in replies for name in reply] == ["member"]
        # a real task, queued by a client that knows the password, is run by the member
        result = client.send_task("docbatch.process_job", args=[999_999])
        result.get(timeout=120, propagate=False)
        assert result.state == "FAILURE" and "999999" in str(result.result)  # no such job
    finally:
        _stop(outsider)
        if member is not None:
            _stop(member)
