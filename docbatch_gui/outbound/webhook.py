"""A signed POST to ``WEBHOOK_URL`` for each job that reaches done or needs_review.

The receiver checks ``X-DocBatch-Signature: sha256=<hex>``, the HMAC-SHA256 of the
raw body with ``WEBHOOK_SECRET``, so that nobody else can post results to it.

Delivery must never hold processing up and never lose a message: a finished job only
writes its message to the outbox (``DATA_DIR/webhooks/pending``, one JSON file each,
written whole then renamed), and a sender thread posts it. A delivery is tried
``WEBHOOK_ATTEMPTS`` times with growing waits (tenacity); a receiver that keeps
refusing, or a 4xx answer other than 408/429, moves the message to ``failed/``, where
``docbatch webhooks --failed`` lists it and ``--resend`` puts it back. A message still
pending when the process ends is sent by the next one that starts the sender.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import threading
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from tenacity import (
    RetryError,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential,
)

from docbatch_gui.domain.errors import NotFound
from docbatch_gui.domain.messages import english
from docbatch_gui.domain.models import Document, Job
from docbatch_gui.domain.said import cause, say
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.secrets import keyring_secret
from docbatch_gui.storage.health import private_folder, write_private

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-DocBatch-Signature"
EVENTS = ("done", "needs_review")
_RETRIED_STATUS = {408, 429}


def sign(body: bytes, secret: str) -> str:
    """The value of the signature header for ``body``."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verify(body: bytes, secret: str, header: str) -> bool:
    """What a receiver does (the README shows the same in a few lines)."""
    return hmac.compare_digest(sign(body, secret), header)


@dataclass(frozen=True)
class Message:
    id: str
    job_id: int
    event: str
    body: dict[str, Any]
    created_at: str
    attempts: int = 0
    error: str | None = None
    failed_at: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class DeliveryRefused(Exception):
    """The receiver answered, and not with 2xx."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(f"HTTP {status}: {text[:200]}")
        self.status = status
        self.detail = text[:200]


def _retried(exc: BaseException) -> bool:
    if isinstance(exc, DeliveryRefused):
        return exc.status >= 500 or exc.status in _RETRIED_STATUS
    return isinstance(exc, httpx.TransportError)


class Outbox:
    """Messages on disk: ``pending/`` waits to be sent, ``failed/`` gave up."""

    def __init__(self, folder: Path) -> None:
        self.pending_dir = folder / "pending"
        self.failed_dir = folder / "failed"
        for sub in (folder, self.pending_dir, self.failed_dir):
            private_folder(sub)  # results posted to a receiver: the data folder's rule

    def add(self, job: Job, documents: Sequence[Document]) -> Message:
        now = datetime.now(UTC).isoformat(timespec="seconds")
        body = {
            "event": f"job.{job.state.value}",
            "job": job.as_dict(),
            "documents": [{**d.as_dict(), "file": job.file_name} for d in documents],
            "sent_by": "docbatch",
        }
        message = Message(f"{now[:19].replace(':', '')}-{job.id}-{uuid.uuid4().hex[:8]}",
                          job.id, job.state.value, body, now)  # fmt: skip
        self._write(self.pending_dir, message)
        return message

    def pending(self) -> list[Message]:
        return self._read(self.pending_dir)

    def failed(self) -> list[Message]:
        return self._read(self.failed_dir)

    def delivered(self, message: Message) -> None:
        (self.pending_dir / f"{message.id}.json").unlink(missing_ok=True)

    def give_up(self, message: Message, attempts: int, error: str) -> Message:
        now = datetime.now(UTC).isoformat(timespec="seconds")
        failed = Message(**{**message.as_dict(), "attempts": message.attempts + attempts,
                            "error": error, "failed_at": now})  # fmt: skip
        self._write(self.failed_dir, failed)
        (self.pending_dir / f"{message.id}.json").unlink(missing_ok=True)
        return failed

    def requeue(self, message_id: str) -> Message:
        source = self.failed_dir / f"{Path(message_id).name}.json"
        if not source.is_file():
            raise NotFound("failed delivery", message_id)
        message = self._load(source)
        self._write(self.pending_dir, message)
        source.unlink()
        return message

    def _write(self, folder: Path, message: Message) -> None:
        target = folder / f"{message.id}.json"
        write_private(target, json.dumps(message.as_dict(), ensure_ascii=False))

    def _read(self, folder: Path) -> list[Message]:
        messages = []
        for path in sorted(folder.glob("*.json")):
            try:
                messages.append(self._load(path))
            except (OSError, ValueError, TypeError) as exc:
                say(
                    log, logging.WARNING, "log_webhook_unreadable", path=str(path), error=cause(exc)
                )
        return messages

    @staticmethod
    def _load(path: Path) -> Message:
        return Message(**json.loads(path.read_text(encoding="utf-8")))


def webhook_secret(settings: Settings) -> str | None:
    if settings.webhook_secret is not None:
        return settings.webhook_secret.get_secret_value()
    return keyring_secret("WEBHOOK_SECRET")


def outbox_for(settings: Settings) -> Outbox:
    return Outbox(settings.data_dir / "webhooks")


def post(message: Message, url: str, secret: str | None, settings: Settings) -> int:
    """Send one message, retried; returns the tries it took. Raises the last error."""
    body = json.dumps(message.body, ensure_ascii=False).encode()
    headers = {"Content-Type": "application/json", "X-DocBatch-Delivery": message.id}
    if secret:
        headers[SIGNATURE_HEADER] = sign(body, secret)
    tries = 0
    retrying = Retrying(
        stop=stop_after_attempt(settings.webhook_attempts),
        wait=wait_exponential(multiplier=WAIT_UNIT, max=60),
        retry=retry_if_exception(_retried),
        reraise=True,
    )
    with httpx.Client(timeout=settings.webhook_timeout) as client:
        for attempt in retrying:
            with attempt:
                tries += 1
                answer = client.post(url, content=body, headers=headers)
                if not answer.is_success:
                    raise DeliveryRefused(answer.status_code, answer.text)
    return tries


#: seconds of the first wait between tries (tests make it small)
WAIT_UNIT = 1.0


def deliver_pending(settings: Settings, outbox: Outbox | None = None) -> tuple[int, int]:
    """Send everything pending; returns (delivered, failed)."""
    url = settings.webhook_url
    if not url:
        return 0, 0
    outbox = outbox or outbox_for(settings)
    secret = webhook_secret(settings)
    sent = failed = 0
    for message in outbox.pending():
        try:
            tries = post(message, url, secret, settings)
        except (httpx.HTTPError, DeliveryRefused, RetryError) as exc:
            why = _described(exc)
            outbox.give_up(message, settings.webhook_attempts, why)
            say(
                log,
                logging.WARNING,
                "log_webhook_failed",
                job=message.job_id,
                event=_event(message.event),
                error=cause(why),
            )
            failed += 1
            continue
        outbox.delivered(message)
        say(
            log,
            logging.INFO,
            "log_webhook_delivered",
            job=message.job_id,
            event=_event(message.event),
            tries=tries,
        )
        sent += 1
    return sent, failed


def _event(event: str) -> dict[str, Any]:
    """A message's event (a job state) as a message parameter, worded by the reader."""
    return {"code": f"state_{event}", "params": {}}


def _described(exc: BaseException) -> str:
    """Why a delivery failed, kept with the failed message: coded, so the log words it."""
    if isinstance(exc, httpx.TimeoutException):
        return english("log_webhook_no_answer")
    if isinstance(exc, httpx.ConnectError):
        return english("log_webhook_unreachable")
    if isinstance(exc, DeliveryRefused):
        return english("log_webhook_refused", status=exc.status, detail=exc.detail)
    return str(exc) or type(exc).__name__


class Sender:
    """One thread per process that posts pending messages when told to, and at start
    (what a previous run left)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.outbox = outbox_for(settings)
        self._wake = threading.Event()
        self._idle = threading.Event()
        self._thread = threading.Thread(target=self._run, name="docbatch-webhook", daemon=True)
        self._wake.set()
        self._thread.start()

    def wake(self) -> None:
        self._idle.clear()
        self._wake.set()

    def flush(self, timeout: float) -> bool:
        """Wait until nothing is pending (a command about to exit); False on timeout."""
        self.wake()
        return self._idle.wait(timeout)

    def _run(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            try:
                deliver_pending(self.settings, self.outbox)
            except Exception:  # the sender must outlive one bad message
                say(log, logging.ERROR, "log_webhook_sender_failed", exc_info=True)
            if not self._wake.is_set():
                self._idle.set()


_senders: dict[Path, Sender] = {}
_senders_lock = threading.Lock()


def sender_for(settings: Settings) -> Sender | None:
    """This process's sender for these settings' outbox, started on first use."""
    if not settings.webhook_url:
        return None
    with _senders_lock:
        key = settings.data_dir.resolve()
        sender = _senders.get(key)
        if sender is None or sender.settings.webhook_url != settings.webhook_url:
            sender = _senders[key] = Sender(settings)
        return sender


def announce(settings: Settings, job: Job, documents: Sequence[Document]) -> None:
    """A job reached done or needs_review: queue its message and wake the sender.
    Never raises: a full disk must not fail the job it reports on."""
    if not settings.webhook_url or job.state.value not in EVENTS:
        return
    try:
        outbox_for(settings).add(job, documents)
    except OSError as exc:
        say(log, logging.ERROR, "log_webhook_not_queued", job=job.id, error=cause(exc))
        return
    sender = sender_for(settings)
    if sender is not None:
        sender.wake()
