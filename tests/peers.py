"""Real peers the team tests talk to: a throwaway ``redis-server`` and moto's S3 server.

Both listen on a free port of 127.0.0.1 and go away with the test session, so a test
run never touches a developer's own Redis or S3.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import urllib.request
from pathlib import Path
from typing import Self

from tests.helpers import wait_for

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
#: Processes of the peers that serve the whole session, not one test: the per-test
#: process check in tests/conftest.py leaves them alone.
SHARED_PIDS: set[int] = set()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """``redis-server`` without persistence, in its own folder, on a free port; with
    ``password``, it requires it (``--requirepass``, as the compose file's does) and
    ``url`` carries it (``bare_url`` does not)."""

    def __init__(self, folder: Path, password: str | None = None) -> None:
        self.folder = folder
        self.port = free_port()
        self.password = password
        self.bare_url = f"redis://127.0.0.1:{self.port}/0"
        auth = f":{password}@" if password else ""
        self.url = f"redis://{auth}127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Self:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [
                REDIS_SERVER,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
                *(["--requirepass", self.password] if self.password else []),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        SHARED_PIDS.add(self.process.pid)
        import redis

        client = redis.Redis.from_url(self.url)
        process = self.process

        def answers() -> bool:
            try:
                return bool(client.ping())
            except redis.ConnectionError:
                assert process.poll() is None, f"redis-server exited with {process.returncode}"
                return False

        wait_for(answers, 10, f"redis-server on port {self.port}", interval=0.02)
        client.close()
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        if self.process is not None:
            SHARED_PIDS.discard(self.process.pid)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class MotoS3:
    """moto's S3 server in a thread: a real HTTP endpoint for the ``minio`` client."""

    def __init__(self) -> None:
        import logging

        from moto.server import ThreadedMotoServer

        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request

        self.port = free_port()
        self._server = ThreadedMotoServer(ip_address="127.0.0.1", port=self.port, verbose=False)
        self.endpoint = f"127.0.0.1:{self.port}"

    def start(self) -> Self:
        self._server.start()
        return self

    def reset(self) -> None:
        request = urllib.request.Request(
            f"http://{self.endpoint}/moto-api/reset", method="POST", data=b""
        )
        urllib.request.urlopen(request, timeout=10).close()

    def stop(self) -> None:
        self._server.stop()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
