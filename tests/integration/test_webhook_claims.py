"""One sender at a time per webhook delivery: a resend (the command line's, another
process; or this process's own) while the background sender is posting the same
message leaves it to that sender, so the receiver gets it once. The receiver holds
the sender's post until the test lets it go: the race is made, not hoped for."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from docbatch_gui.domain.models import NewJob
from docbatch_gui.domain.states import JobState
from docbatch_gui.outbound.webhook import Message, Sender, deliver_messages, outbox_for
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.sqlite import SQLiteStore
from tests.helpers import LEAST_WAIT_S, cli


class HoldingReceiver:
    """Records every post; the first one is held (no answer) until ``release``."""

    def __init__(self) -> None:
        self.received: list[str] = []  # the X-DocBatch-Delivery of each post
        self.arrived = threading.Event()
        self.release = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received.append(self.headers["X-DocBatch-Delivery"])
                if len(receiver.received) == 1:
                    receiver.arrived.set()
                    assert receiver.release.wait(LEAST_WAIT_S)  # the seam: held mid-post
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def receiver() -> Iterator[HoldingReceiver]:
    server = HoldingReceiver()
    yield server
    server.release.set()
    server.server.shutdown()


def pending_message(settings: Settings, tmp_path: Path) -> Message:
    store = SQLiteStore(tmp_path / "db.sqlite3")
    job = store.create_job(NewJob("a.pdf", "/a.pdf", "0" * 64, 1))
    return outbox_for(settings).add(replace(job, state=JobState.DONE), [])


@pytest.mark.slow
def test_a_resend_while_the_sender_posts_the_same_delivery_posts_it_once(
    tmp_path: Path, receiver: HoldingReceiver
) -> None:
    settings = Settings(DOCBATCH_DATA_DIR=tmp_path, WEBHOOK_URL=receiver.url, WEBHOOK_ATTEMPTS=1)
    message = pending_message(settings, tmp_path)
    sender = Sender(settings)  # the background sender: it posts what is pending at once
    assert receiver.arrived.wait(LEAST_WAIT_S)  # ... and is held there, mid-post
    # this process's own resend of the same message: left to the sender
    assert deliver_messages(settings, outbox_for(settings), [message]) == [None]
    # another process's `webhooks --resend all`: left to the sender too
    env = {"WEBHOOK_URL": receiver.url, "WEBHOOK_ATTEMPTS": "1"}
    result = cli(tmp_path, "webhooks", "--resend", "all", "--json", env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"delivered": 0, "failed": 0, "in_flight": 1}
    receiver.release.set()
    assert sender.flush(LEAST_WAIT_S)
    assert receiver.received == [message.id]  # posted once
    assert outbox_for(settings).pending() == [] and outbox_for(settings).failed() == []
    assert not list(outbox_for(settings).claims_dir.iterdir())  # no claim left behind
