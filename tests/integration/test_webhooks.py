"""Signed webhooks: delivered, retried, kept when they fail, sent again on request."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from docbatch_gui.domain import NewJob
from docbatch_gui.domain.states import JobState
from docbatch_gui.outbound import webhook
from docbatch_gui.outbound.webhook import Outbox, deliver_pending, sign, verify
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.sqlite import SQLiteStore
from tests.helpers import cli, cli_json

SAMPLE = Path(__file__).resolve().parents[2] / "docbatch_gui/resources/samples"
SECRET = "s3cret-for-tests"


class Receiver:
    """A local HTTP server that records what it gets and answers ``status``."""

    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], bytes]] = []
        self.status = 200
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received.append((dict(self.headers), body))
                self.send_response(receiver.status)
                self.end_headers()
                self.wfile.write(b"ok" if receiver.status < 300 else b"not today")

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    yield server
    server.server.shutdown()


def test_the_signature_is_an_hmac_of_the_body() -> None:
    body = b'{"event": "job.done"}'
    header = sign(body, SECRET)
    assert header.startswith("sha256=") and len(header) == 7 + 64
    assert verify(body, SECRET, header)
    assert not verify(body + b" ", SECRET, header) and not verify(body, "other", header)


def _outbox_with_one(tmp_path: Path) -> tuple[Settings, Outbox]:
    store = SQLiteStore(tmp_path / "db.sqlite3")
    job = store.create_job(NewJob("a.pdf", "/a.pdf", "a" * 64, 1))
    settings = Settings(DOCBATCH_DATA_DIR=tmp_path)
    outbox = Outbox(tmp_path / "webhooks")
    outbox.add(replace(job, state=JobState.DONE), [])
    return settings, outbox


def test_a_failing_receiver_is_retried_then_the_message_is_kept_and_resent(
    tmp_path: Path, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(webhook, "WAIT_UNIT", 0.01)
    settings, outbox = _outbox_with_one(tmp_path)
    settings = settings.model_copy(update={"webhook_url": receiver.url, "webhook_attempts": 3})
    receiver.status = 503
    assert deliver_pending(settings, outbox) == (0, 1)
    assert len(receiver.received) == 3  # tried three times
    (failed,) = outbox.failed()
    assert "HTTP 503" in (failed.error or "") and outbox.pending() == []
    receiver.status = 200
    outbox.requeue(failed.id)
    assert deliver_pending(settings, outbox) == (1, 0)
    assert outbox.failed() == [] and outbox.pending() == []


def test_a_client_error_is_not_retried(
    tmp_path: Path, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(webhook, "WAIT_UNIT", 0.01)
    settings, outbox = _outbox_with_one(tmp_path)
    settings = settings.model_copy(update={"webhook_url": receiver.url})
    receiver.status = 404
    assert deliver_pending(settings, outbox) == (0, 1)
    assert len(receiver.received) == 1


@pytest.mark.slow  # two whole jobs and five more CLI processes
def test_a_job_posts_signed_json_and_a_failed_delivery_is_listed_and_resent(
    tmp_path: Path, receiver: Receiver
) -> None:
    data = tmp_path / "data"
    env = {"WEBHOOK_URL": receiver.url, "WEBHOOK_SECRET": SECRET, "WEBHOOK_ATTEMPTS": "1",
           "PROCESSING_MODE": "offline"}  # fmt: skip
    done = cli(data, "process", str(SAMPLE / "en_invoice_INV-2024-0042.pdf"), "--wait", env=env)
    assert done.returncode == 0, done.stderr
    (headers, body) = receiver.received[-1]
    assert verify(body, SECRET, headers["X-DocBatch-Signature"])
    message = json.loads(body)
    assert message["event"] in ("job.done", "job.needs_review")
    assert message["job"]["file"] == "en_invoice_INV-2024-0042.pdf"
    assert message["documents"][0]["fields"]["number"] == "INV-2024-0042"

    receiver.status = 500
    again = cli(data, "process", str(SAMPLE / "ru_three_documents.pdf"), "--wait", env=env)
    assert again.returncode == 0, again.stderr
    listed = cli_json(data, "webhooks", "--failed", env=env)
    (failed,) = listed["failed"]
    assert failed["error"].startswith("HTTP 500") and failed["attempts"] == 1
    receiver.status = 200
    resent = cli(data, "webhooks", "--resend", failed["id"], env=env)
    assert resent.returncode == 0, resent.stderr
    assert json.loads(receiver.received[-1][1])["job"]["file"] == "ru_three_documents.pdf"
    assert cli_json(data, "webhooks", env=env) == {"pending": [], "failed": []}
    assert cli(data, "webhooks", "--resend", "nope", env=env).returncode == 3
