"""Signed webhooks: delivered, retried, kept when they fail, sent again on request."""

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
from docbatch_gui.outbound import webhook
from docbatch_gui.outbound.webhook import Outbox, deliver_pending, sign, verify
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.sqlite import SQLiteStore
from tests.helpers import cli, cli_json, wait_for

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


def test_the_signature_is_an_hmac_of_the_timestamp_the_delivery_id_and_the_body() -> None:
    body, now = b'{"event": "job.done"}', 1_750_000_000
    sent = {"timestamp": str(now), "delivery_id": "d-1"}
    header = sign(body, SECRET, **sent)
    assert header.startswith("sha256=") and len(header) == 7 + 64
    assert verify(body, SECRET, header, **sent, now=now + 5)
    assert not verify(body + b" ", SECRET, header, **sent, now=now)
    assert not verify(body, "other", header, **sent, now=now)


def test_a_captured_delivery_replayed_under_a_new_id_or_later_does_not_verify() -> None:
    """Issue 27: the signature covered the body only, so a replay with a new
    ``X-DocBatch-Delivery`` verified."""
    body, now = b'{"event": "job.done"}', 1_750_000_000
    header = sign(body, SECRET, timestamp=str(now), delivery_id="d-1")
    assert not verify(body, SECRET, header, timestamp=str(now), delivery_id="d-2", now=now)
    later = now + webhook.REPLAY_WINDOW_SECONDS + 1
    assert not verify(body, SECRET, header, timestamp=str(now), delivery_id="d-1", now=later)
    assert not verify(body, SECRET, header, timestamp="yesterday", delivery_id="d-1", now=now)
    assert sign(body, SECRET, timestamp=str(now + 1), delivery_id="d-1") != header


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
    assert verify(body, SECRET, headers["X-DocBatch-Signature"],
                  timestamp=headers["X-DocBatch-Timestamp"],
                  delivery_id=headers["X-DocBatch-Delivery"])  # fmt: skip
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
    assert failed["file"] == "ru_three_documents.pdf"  # the operator knows files, not ids
    receiver.status = 200
    resent = cli(data, "webhooks", "--resend", failed["id"], env=env)
    assert resent.returncode == 0, resent.stderr
    assert json.loads(receiver.received[-1][1])["job"]["file"] == "ru_three_documents.pdf"
    assert cli_json(data, "webhooks", env=env) == {"pending": [], "failed": []}
    assert cli(data, "webhooks", "--resend", "nope", env=env).returncode == 3


# -- a careful client (issue 27) ------------------------------------------------------


class Misbehaving:
    """A receiver that misbehaves on purpose: ``drip`` answers one byte at a time for
    as long as the client listens, ``flood`` sends an endless error page, ``hold``
    keeps the answer to job 1's message until ``release`` is set. It records how
    each POST ended (``ended``), so a test waits for that, never for a time."""

    def __init__(self, how: str) -> None:
        self.how = how
        self.release = threading.Event()
        self.stop = threading.Event()
        self.received: list[int] = []  # job ids, as their POSTs arrive
        self.answering: list[int] = []  # job ids whose whole POST was read, answer begun
        self.ended: list[tuple[int, str, int]] = []  # job, how it ended, bytes sent
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                job = body["job"]["id"]
                receiver.received.append(job)
                sent, why = 0, "answered"
                try:
                    if receiver.how == "hold" and job == 1:
                        receiver.release.wait(60)
                    if receiver.how == "drip":  # the headers, a byte a while, forever
                        receiver.answering.append(job)
                        self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
                        while not receiver.stop.wait(0.05):
                            self.wfile.write(b"a")
                            self.wfile.flush()
                            sent += 1
                    elif receiver.how == "flood":
                        self.send_response(500)
                        self.send_header("Transfer-Encoding", "chunked")
                        self.end_headers()
                        chunk = b"x" * 65536
                        while not receiver.stop.is_set() and sent < 2**31:
                            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                            sent += len(chunk)
                    else:
                        self.send_response(200)
                        self.send_header("Content-Length", "2")
                        self.end_headers()
                        self.wfile.write(b"ok")
                except OSError:
                    why = "client went away"
                receiver.ended.append((job, why, sent))

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.stop.set()
        self.release.set()
        self.server.shutdown()


def _outbox_with(tmp_path: Path, jobs: int) -> Outbox:
    outbox = Outbox(tmp_path / "webhooks")
    store = SQLiteStore(tmp_path / "db.sqlite3")
    for n in range(jobs):
        job = store.create_job(NewJob(f"{n}.pdf", f"/{n}.pdf", f"{n}" * 64, 1))
        outbox.add(replace(job, state=JobState.DONE), [])
    store.close()
    return outbox


def _deliver_in_background(settings: Settings, outbox: Outbox) -> list[tuple[int, int]]:
    done: list[tuple[int, int]] = []
    threading.Thread(target=lambda: done.append(deliver_pending(settings, outbox)),
                     daemon=True).start()  # fmt: skip
    return done


#: the deadlines of a try at the dripping receiver: the first, doubled while the try
#: ran out before the drip reached the client (a loaded machine still sending the POST)
DRIP_DEADLINES = [0.5 * 2**n for n in range(8)]  # up to 64 s


def _cut_off(
    tmp_path: Path, how: str, deadline: float
) -> tuple[Outbox, list[tuple[int, int]], Misbehaving]:
    """One delivery to a fresh misbehaving receiver, waited for to its end (the test
    closes the receiver)."""
    receiver = Misbehaving(how)
    folder = tmp_path / f"deadline-{deadline:g}"
    folder.mkdir()
    outbox = _outbox_with(folder, 1)
    settings = Settings(DOCBATCH_DATA_DIR=folder, WEBHOOK_URL=receiver.url,
                        WEBHOOK_ATTEMPTS=1, WEBHOOK_TIMEOUT=deadline)  # fmt: skip
    done = _deliver_in_background(settings, outbox)
    # without the deadline (drip) or the cap on what is read (flood), this never ends:
    # the receiver goes on until the test stops it
    wait_for(lambda: done, what="the delivery to end by itself")
    return outbox, done, receiver


@pytest.mark.parametrize("how", ["drip", "flood"])
def test_a_dripping_or_flooding_receiver_is_cut_off_at_the_deadline_of_the_try(
    tmp_path: Path, how: str
) -> None:
    """A byte every while held a try for as long as the receiver liked (httpx times
    each read); an endless error page was read whole to keep 200 characters.

    The try must be cut while the drip reaches the client, not while a loaded machine
    is still sending the POST: a try that ran out before is done again with twice the
    deadline, so the deadline is what is tested, never the machine's speed."""
    for deadline in DRIP_DEADLINES if how == "drip" else [30.0]:  # flood: cut by size
        outbox, done, receiver = _cut_off(tmp_path, how, deadline)
        try:
            if how == "drip" and not receiver.answering:
                continue  # the POST had not been read when the try ran out
            ended = receiver.ended  # appended to by the receiver's thread
            wait_for(lambda ended=ended: ended, what="the receiver to see the client leave")
            ((_, why, sent),) = receiver.ended
            if how == "drip" and sent == 0:
                continue  # it left before the first byte of the drip
            break
        finally:
            receiver.close()
    else:
        raise AssertionError(f"no try got the drip within {DRIP_DEADLINES[-1]} s")
    assert done == [(0, 1)]
    (failed,) = outbox.failed()
    assert failed.error is not None and len(failed.error) < 400
    if how == "drip":
        assert "did not answer in time" in failed.error
    else:
        assert failed.error.startswith("HTTP 500") and "xxxx" in failed.error
    assert why == "client went away"
    if how == "flood":
        assert sent < 64 * 2**20  # a few KB read; the rest is socket buffers


def test_one_stalled_delivery_does_not_hold_the_others_back(tmp_path: Path) -> None:
    receiver = Misbehaving("hold")
    try:
        outbox = _outbox_with(tmp_path, 3)
        settings = Settings(DOCBATCH_DATA_DIR=tmp_path, WEBHOOK_URL=receiver.url,
                            WEBHOOK_ATTEMPTS=1, WEBHOOK_TIMEOUT=120)  # fmt: skip
        done = _deliver_in_background(settings, outbox)
        wait_for(
            lambda: sorted(j for j, _, _ in receiver.ended) == [2, 3],
            60,
            lambda: f"jobs 2 and 3 delivered while job 1 is held: {receiver.ended}",
        )
        assert not done and 1 in receiver.received  # job 1's try is still waiting
        receiver.release.set()
        wait_for(lambda: done, 60, "the held delivery to finish")
        assert done == [(3, 0)] and outbox.pending() == []
    finally:
        receiver.close()
