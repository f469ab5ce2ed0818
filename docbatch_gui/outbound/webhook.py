"""A signed POST to ``WEBHOOK_URL`` for each job that reaches done or needs_review.

The receiver checks ``X-DocBatch-Signature: sha256=<hex>``, the HMAC-SHA256 with
``WEBHOOK_SECRET`` of ``<timestamp>.<delivery id>.<raw body>``, where the timestamp is
``X-DocBatch-Timestamp`` (Unix seconds) and the delivery id ``X-DocBatch-Delivery``.
So nobody else can post results to it, and a captured delivery cannot be replayed
later or under another id: a receiver refuses a timestamp more than
``REPLAY_WINDOW_SECONDS`` from its clock and an id it has already seen (``verify``).

A finished job only writes its message to the outbox (``outbound.outbox``) and a
sender thread posts it. A delivery is tried ``WEBHOOK_ATTEMPTS`` times with growing
waits (tenacity); a receiver that keeps refusing, or a 4xx answer other than 408/429,
moves the message to ``failed/``. Each try is a careful client's:

- ``WEBHOOK_TIMEOUT`` is the deadline of the whole try (connect, send, the answer's
  headers and body), not of each read: a receiver dripping a byte every 2 s is cut
  off at it (the try runs under ``asyncio.timeout``, which cancels any wait);
- the answer is streamed and at most ``KEPT_ANSWER_BYTES`` of it read (a 300 MB
  error page costs 4 KB), never decompressed (``Accept-Encoding: identity``);
- up to ``CONCURRENT_DELIVERIES`` messages are in flight at once, so one slow
  delivery does not hold the others back.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from docbatch_gui.domain import messages
from docbatch_gui.domain.messages import coded
from docbatch_gui.domain.models import Document, Job
from docbatch_gui.outbound.delivery_news import tell
from docbatch_gui.outbound.outbox import Message, Outbox
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.secrets import keyring_secret

if TYPE_CHECKING:
    import httpx

__all__ = ["Message", "Outbox", "deliver_pending", "outbox_for", "sender_for", "sign", "verify"]

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-DocBatch-Signature"
TIMESTAMP_HEADER = "X-DocBatch-Timestamp"
DELIVERY_HEADER = "X-DocBatch-Delivery"
EVENTS = ("done", "needs_review")
_RETRIED_STATUS = {408, 429}
#: how far a delivery's timestamp may be from the receiver's clock (documented for
#: receivers: older deliveries are refused as replays)
REPLAY_WINDOW_SECONDS = 300
#: what is read of a receiver's answer (its start is kept in the failure's reason)
KEPT_ANSWER_BYTES = 4096
#: deliveries in flight at once, per sender
CONCURRENT_DELIVERIES = 4


def signed_content(timestamp: str, delivery_id: str, body: bytes) -> bytes:
    """What the signature covers: ``timestamp.delivery_id.body``."""
    return f"{timestamp}.{delivery_id}.".encode() + body


def sign(body: bytes, secret: str, *, timestamp: str, delivery_id: str) -> str:
    """The value of the signature header for ``body`` sent at ``timestamp``."""
    content = signed_content(timestamp, delivery_id, body)
    return "sha256=" + hmac.new(secret.encode(), content, hashlib.sha256).hexdigest()


def verify(
    body: bytes,
    secret: str,
    header: str,
    *,
    timestamp: str,
    delivery_id: str,
    now: float | None = None,
    window: float = REPLAY_WINDOW_SECONDS,
) -> bool:
    """What a receiver does (the README shows the same in a few lines): the signature
    matches and the timestamp is within ``window`` seconds of ``now``. A receiver
    also keeps the delivery ids it accepted within the window and refuses a repeat."""
    try:
        sent = int(timestamp)
    except ValueError:
        return False
    if abs((time.time() if now is None else now) - sent) > window:
        return False
    expected = sign(body, secret, timestamp=timestamp, delivery_id=delivery_id)
    return hmac.compare_digest(expected, header)


class DeliveryRefused(Exception):
    """The receiver answered, and not with 2xx."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(f"HTTP {status}: {text[:200]}")
        self.status = status
        self.detail = text[:200]


def _retried(exc: BaseException) -> bool:
    if isinstance(exc, DeliveryRefused):
        return exc.status >= 500 or exc.status in _RETRIED_STATUS
    # deferred: 0.25 s of the window's first show (httpx imports rich, click, pygments)
    import httpx

    return isinstance(exc, httpx.TransportError | TimeoutError)


def webhook_secret(settings: Settings) -> str | None:
    """The signing key: the environment, else the keyring (never the settings file,
    where ``settings.file`` refuses it)."""
    if settings.webhook_secret is not None:
        return settings.webhook_secret.get_secret_value()
    return keyring_secret("WEBHOOK_SECRET")


def outbox_for(settings: Settings) -> Outbox:
    return Outbox(settings.data_dir / "webhooks")


async def _answer_start(answer: httpx.Response) -> str:
    """The first ``KEPT_ANSWER_BYTES`` of an answer, as text; the rest is not read."""
    kept = bytearray()
    async for chunk in answer.aiter_raw():
        kept += chunk
        if len(kept) >= KEPT_ANSWER_BYTES:
            break
    return bytes(kept[:KEPT_ANSWER_BYTES]).decode("utf-8", "replace")


async def _try_once(
    client: httpx.AsyncClient, url: str, message: Message, body: bytes, secret: str | None,
    deadline: float,
) -> None:  # fmt: skip
    """One try, all of it within ``deadline`` seconds (TimeoutError past it)."""
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "Accept-Encoding": "identity",
        DELIVERY_HEADER: message.id,
        TIMESTAMP_HEADER: timestamp,
    }
    if secret:
        headers[SIGNATURE_HEADER] = sign(body, secret, timestamp=timestamp, delivery_id=message.id)
    async with asyncio.timeout(deadline):
        async with client.stream("POST", url, content=body, headers=headers) as answer:
            if not answer.is_success:
                raise DeliveryRefused(answer.status_code, await _answer_start(answer))


async def _post(
    client: httpx.AsyncClient, message: Message, url: str, secret: str | None, settings: Settings
) -> int:
    """Send one message, retried; returns the tries it took. Raises the last error."""
    # deferred: 0.05 s of the window's first show (tenacity), paid at the first delivery
    import tenacity

    body = json.dumps(message.body, ensure_ascii=False).encode()
    tries = 0
    retrying = tenacity.AsyncRetrying(
        stop=tenacity.stop_after_attempt(settings.webhook_attempts),
        wait=tenacity.wait_exponential(multiplier=WAIT_UNIT, max=60),
        retry=tenacity.retry_if_exception(_retried),
        reraise=True,
    )
    async for attempt in retrying:
        with attempt:
            tries += 1
            await _try_once(client, url, message, body, secret, settings.webhook_timeout)
    return tries


def post(message: Message, url: str, secret: str | None, settings: Settings) -> int:
    """``_post`` for a caller without an event loop."""

    async def run() -> int:
        async with _client(settings) as client:
            return await _post(client, message, url, secret, settings)

    return asyncio.run(run())


def _client(settings: Settings) -> httpx.AsyncClient:
    # deferred: 0.25 s of the window's first show (httpx imports rich, click, pygments)
    import httpx

    return httpx.AsyncClient(
        timeout=settings.webhook_timeout, limits=httpx.Limits(max_connections=CONCURRENT_DELIVERIES)
    )


#: seconds of the first wait between tries (tests make it small)
WAIT_UNIT = 1.0


def deliver_pending(settings: Settings, outbox: Outbox | None = None) -> tuple[int, int]:
    """Send everything pending, a few at once; returns (delivered, failed). A message
    another sender is posting is left to it (counted in neither)."""
    url = settings.webhook_url
    if not url:
        return 0, 0
    outbox = outbox or outbox_for(settings)
    messages = outbox.pending()
    if not messages:
        return 0, 0
    outcomes = asyncio.run(_deliver_all(settings, url, outbox, messages))
    return outcomes.count(True), outcomes.count(False)


def deliver_messages(
    settings: Settings, outbox: Outbox, messages: Sequence[Message]
) -> list[bool | None]:
    """Send these pending messages now (a person's resend); True for each delivered,
    None for one another sender is posting at this moment."""
    url = settings.webhook_url
    if not url or not messages:
        return [False for _ in messages]
    return asyncio.run(_deliver_all(settings, url, outbox, messages))


async def _deliver_all(
    settings: Settings, url: str, outbox: Outbox, messages: Sequence[Message]
) -> list[bool | None]:
    secret = webhook_secret(settings)
    slots = asyncio.Semaphore(CONCURRENT_DELIVERIES)
    async with _client(settings) as client:

        async def one(message: Message) -> bool | None:
            async with slots:
                return await _deliver_one(client, outbox, message, url, secret, settings)

        return list(await asyncio.gather(*(one(m) for m in messages)))


async def _deliver_one(
    client: httpx.AsyncClient, outbox: Outbox, message: Message, url: str, secret: str | None,
    settings: Settings,
) -> bool | None:  # fmt: skip
    """True when delivered, False when given up, None when another sender (a thread
    or a process) holds it: posted by one sender at a time, never twice at once."""
    with outbox.claimed(message.id) as current:
        if current is None:  # another sender posts it now, or it was settled meanwhile
            log.info("webhook %s for job %s: another sender has it", message.id, message.job_id)
            return None
        return await _claimed_post(client, outbox, current, url, secret, settings)


async def _claimed_post(
    client: httpx.AsyncClient, outbox: Outbox, message: Message, url: str, secret: str | None,
    settings: Settings,
) -> bool:  # fmt: skip
    """Post a message this sender holds the claim of; True when delivered."""
    # deferred: 0.25 s of the window's first show (httpx imports rich, click, pygments)
    import httpx

    # deferred: 0.05 s of the window's first show (tenacity)
    import tenacity

    try:
        tries = await _post(client, message, url, secret, settings)
    except (httpx.HTTPError, DeliveryRefused, tenacity.RetryError, TimeoutError) as exc:
        why = _described(exc)
        outbox.give_up(message, settings.webhook_attempts, why.english)
        tell()
        log.warning(
            "webhook for job %s (%s) failed: %s; kept for `docbatch webhooks --resend`",
            message.job_id, message.event, why.english,
        )  # fmt: skip
        return False
    outbox.delivered(message)
    tell()
    log.info(
        "webhook for job %s (%s) delivered after %s try(s)",
        message.job_id,
        message.event, tries,
    )  # fmt: skip
    return True


def _described(exc: BaseException) -> messages.Message:
    """Why a delivery failed, kept with the failed message: coded, so the log words it."""
    # deferred: 0.25 s of the window's first show (httpx imports rich, click, pygments)
    import httpx

    if isinstance(exc, httpx.TimeoutException | TimeoutError):
        return coded("log_webhook_no_answer")
    if isinstance(exc, httpx.ConnectError):
        return coded("log_webhook_unreachable")
    if isinstance(exc, DeliveryRefused):
        return coded("log_webhook_refused", status=exc.status, detail=exc.detail)
    return messages.Message.plain(str(exc) or type(exc).__name__)


class Sender:
    """One thread per data folder and receiver that posts pending messages when told
    to, and at start (what a previous run left)."""

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
                log.error("webhook sender failed; it sends again when woken", exc_info=True)
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
        log.error("webhook for job %s not queued: %s", job.id, exc)
        return
    tell()
    sender = sender_for(settings)
    if sender is not None:
        sender.wake()
