"""Webhook deliveries for the window: what failed or waits, and sending again.

The command line has ``docbatch webhooks``; this is the same outbox for the Webhooks
tab, through the facade (``DocBatchApp.webhooks``). A resend runs in the caller's
worker thread, one delivery after the other so that progress counts them and a
cancel stops before the next one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.domain.progress import CancelToken, ProgressSink, raise_if_canceled, report
from docbatch_gui.outbound import delivery_news
from docbatch_gui.outbound.outbox import Message
from docbatch_gui.outbound.webhook import deliver_messages, outbox_for
from docbatch_gui.settings.model import Settings

log = logging.getLogger(__name__)

FAILED = "failed"
WAITING = "waiting"
#: what a resend's progress counts (``Progress.what``)
RESENT = "deliveries"


@dataclass(frozen=True)
class Delivery:
    """One message of the outbox: ``state`` is FAILED or WAITING; ``answer`` is why
    the last try failed (the receiver's answer or that there was none)."""

    id: str
    state: str
    job_id: int
    event: str
    created_at: str
    attempts: int
    answer: str | None
    failed_at: str | None
    #: the job's file, as the delivery's body names it: the operator knows files, not ids
    file_name: str = ""

    @classmethod
    def of(cls, message: Message, state: str) -> Delivery:
        return cls(message.id, state, message.job_id, message.event, message.created_at,
                   message.attempts, message.error, message.failed_at,
                   message.file_name)  # fmt: skip


@dataclass(frozen=True)
class ResendOutcome:
    delivered: int
    failed: int
    #: sent back to the queue and taken by another sender (the background one, or
    #: another process) before this resend could: posted once, by that sender
    in_flight: int = 0


class Webhooks:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    @property
    def url(self) -> str | None:
        return self.settings.webhook_url

    @staticmethod
    def listen(listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener`` (in the sender's thread) each time a delivery is queued,
        delivered or given up, in this process; returns what stops it."""
        return delivery_news.listen(listener)

    def deliveries(self) -> list[Delivery]:
        """Failed deliveries first (they need a person), then those waiting, oldest
        first in each."""
        outbox = outbox_for(self.settings)
        return [*(Delivery.of(m, FAILED) for m in outbox.failed()),
                *(Delivery.of(m, WAITING) for m in outbox.pending())]  # fmt: skip

    def resend(
        self,
        ids: Sequence[str] | None = None,
        *,
        progress: ProgressSink | None = None,
        cancel: CancelToken | None = None,
    ) -> ResendOutcome:
        """Send failed deliveries again (``ids``, or every failed one); one that fails
        again goes back to the failed list with its new answer."""
        if not self.url:
            raise ConfigError.coded("webhook_no_url", {})
        outbox = outbox_for(self.settings)
        wanted = list(ids) if ids is not None else [m.id for m in outbox.failed()]
        delivered = in_flight = 0
        for done, message_id in enumerate(wanted):
            report(progress, done, len(wanted), RESENT)
            raise_if_canceled(cancel, "webhook resend")  # between deliveries, never in one
            message = outbox.requeue(message_id)  # NotFound: no failed delivery of that id
            (sent,) = deliver_messages(self.settings, outbox, [message])
            delivered += sent is True
            in_flight += sent is None
            outcome = {True: "delivered", False: "failed again", None: "taken by another sender"}
            log.info(
                "webhook %s for job %s resent by the operator: %s", message_id, message.job_id,
                outcome[sent],
            )  # fmt: skip
        report(progress, len(wanted), len(wanted), RESENT)
        return ResendOutcome(delivered, len(wanted) - delivered - in_flight, in_flight)
