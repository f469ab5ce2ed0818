"""A Claude endpoint that drips its answer one byte at a time cannot hold a job past
its deadline: the SDK's timeout is per read, the job's deadline is for the whole."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from tests.helpers import cli, cli_json


@pytest.fixture
def dripping() -> Iterator[str]:
    stop = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            while not stop.is_set():  # a byte every half second, forever
                try:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.5)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    stop.set()
    server.shutdown()


@pytest.mark.slow  # a whole job through the CLI that runs to its 8 s deadline, by design
def test_a_dripping_claude_endpoint_times_out_within_the_job_deadline(
    tmp_path: Path, dripping: str
) -> None:
    env = {"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": dripping,
           "JOB_TIMEOUT": "8", "ANTHROPIC_TIMEOUT": "30", "ANTHROPIC_MAX_RETRIES": "0",
           "OCR_ENGINE": "none"}  # fmt: skip
    data = tmp_path / "data"
    result = cli(data, "process", str(SAMPLES / "en_invoice_INV-2024-0042.pdf"), "--mode",
                 "sync", "--wait", env=env, timeout=300)  # fmt: skip
    # (without the deadline the drip would outlast the 300 s this test waits)
    assert result.returncode == 1, result.stderr
    (job,) = cli_json(data, "jobs", env=env)
    assert job["state"] == "timed_out" and "JOB_TIMEOUT" in job["error"]
