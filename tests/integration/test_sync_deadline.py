"""A Claude endpoint that drips its answer one byte at a time cannot hold a job past
its deadline: the SDK's timeout is per read, the job's deadline is for the whole.

JOB_TIMEOUT covers the whole job, rendering too. The test is about the deadline
during the Claude call, so a run whose deadline ran out before the endpoint had read
the request (a loaded machine still rendering the one page) proves nothing: it is
done again with twice the deadline, and the error must be the extraction's."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from tests.helpers import cli, cli_json


class Dripping:
    """An endpoint that reads the request, then drips its answer until the client
    leaves; ``requests`` counts the requests it has read whole."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.requests = 0


@pytest.fixture
def dripping() -> Iterator[Dripping]:
    stop = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            endpoint.requests += 1
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
    endpoint = Dripping(f"http://127.0.0.1:{server.server_port}")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield endpoint
    stop.set()
    server.shutdown()


#: JOB_TIMEOUT of a run: the first, doubled while the deadline ran out before the
#: endpoint had read the request (the one page still rendering on a loaded machine)
DEADLINES = [8 * 2**n for n in range(4)]  # up to 64 s


@pytest.mark.slow  # a whole job through the CLI that runs to its 8 s deadline, by design
def test_a_dripping_claude_endpoint_times_out_within_the_job_deadline(
    tmp_path: Path, dripping: Dripping
) -> None:
    for deadline in DEADLINES:
        env = {"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": dripping.url,
               "JOB_TIMEOUT": str(deadline), "ANTHROPIC_TIMEOUT": "30",
               "ANTHROPIC_MAX_RETRIES": "0", "OCR_ENGINE": "none"}  # fmt: skip
        data = tmp_path / f"data-{deadline}"
        asked = dripping.requests
        # one page with a text layer: as little rendering as a job can have
        result = cli(data, "process", str(SAMPLES / "en_invoice_INV-2024-0042.pdf"), "--mode",
                     "sync", "--wait", env=env, timeout=600)  # fmt: skip
        # (without the deadline the drip would outlast the 600 s this test waits)
        assert result.returncode == 1, result.stderr
        (job,) = cli_json(data, "jobs", env=env)
        assert job["state"] == "timed_out", job
        if dripping.requests > asked:
            break  # the deadline ran out while Claude's answer dripped
    else:
        raise AssertionError(f"no run reached Claude within JOB_TIMEOUT={DEADLINES[-1]}")
    # the extraction's deadline, not the render's ("JOB_TIMEOUT=8s")
    assert dripping.requests == asked + 1
    assert job["error"] == (
        "en_invoice_INV-2024-0042.pdf: Claude did not finish reading it within JOB_TIMEOUT "
        f"({deadline} s); the requests were stopped. Retry it later, or raise JOB_TIMEOUT "
        "for very long files."
    ), job
