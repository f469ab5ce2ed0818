"""The facade's webhook deliveries (``DocBatchApp.webhooks``) against a real local
receiver: failed and waiting ones listed, resent one by one, a cancel between two."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from docbatch_gui.app.webhooks import FAILED, WAITING, Webhooks
from docbatch_gui.domain.errors import ConfigError, NotFound
from docbatch_gui.domain.models import NewJob
from docbatch_gui.domain.progress import Canceled, CancelToken, Progress
from docbatch_gui.domain.states import JobState
from docbatch_gui.outbound.webhook import Outbox, outbox_for
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.sqlite import SQLiteStore
from tests.integration.test_webhooks import Receiver, receiver

__all__ = ["receiver"]  # the fixture


def outbox_with(settings: Settings, tmp_path: Path, failed: int, waiting: int) -> Outbox:
    """``failed`` deliveries that gave up on HTTP 503, then ``waiting`` ones."""
    store = SQLiteStore(tmp_path / "db.sqlite3")
    outbox = outbox_for(settings)
    for n in range(failed + waiting):
        job = store.create_job(NewJob(f"{n}.pdf", f"/{n}.pdf", f"{n:064d}", 1))
        message = outbox.add(replace(job, state=JobState.DONE), [])
        if n < failed:
            outbox.give_up(message, 3, "HTTP 503: not today")
    return outbox


def test_failed_and_waiting_deliveries_are_listed_and_resent(
    tmp_path: Path, receiver: Receiver
) -> None:
    settings = Settings(DOCBATCH_DATA_DIR=tmp_path, WEBHOOK_URL=receiver.url, WEBHOOK_ATTEMPTS=1)
    outbox_with(settings, tmp_path, failed=2, waiting=1)
    hooks = Webhooks(settings)
    listed = hooks.deliveries()
    assert [d.state for d in listed] == [FAILED, FAILED, WAITING]
    assert listed[0].attempts == 3 and listed[0].answer == "HTTP 503: not today"
    assert listed[2].answer is None and listed[2].failed_at is None
    receiver.status = 500
    again = hooks.resend([listed[0].id])
    assert (again.delivered, again.failed) == (0, 1)
    (kept,) = [d for d in hooks.deliveries() if d.id == listed[0].id]
    assert kept.state == FAILED and kept.attempts == 4
    assert (kept.answer or "").startswith("HTTP 500")
    receiver.status = 200
    sent = hooks.resend()  # every failed one
    assert (sent.delivered, sent.failed) == (2, 0)
    assert [d.state for d in hooks.deliveries()] == [WAITING]  # the waiting one is the sender's
    assert len(receiver.received) == 3
    with pytest.raises(NotFound):
        hooks.resend([listed[0].id])  # delivered: no longer a failed delivery


def test_a_cancel_stops_before_the_next_delivery(tmp_path: Path, receiver: Receiver) -> None:
    settings = Settings(DOCBATCH_DATA_DIR=tmp_path, WEBHOOK_URL=receiver.url, WEBHOOK_ATTEMPTS=1)
    outbox_with(settings, tmp_path, failed=3, waiting=0)
    token = CancelToken()
    seen: list[Progress] = []

    def progress(step: Progress) -> None:
        seen.append(step)
        if step.done == 1:
            token.cancel()  # after the first delivery, as a person pressing Cancel

    with pytest.raises(Canceled):
        Webhooks(settings).resend(progress=progress, cancel=token)
    assert len(receiver.received) == 1
    assert [d.state for d in Webhooks(settings).deliveries()] == [FAILED, FAILED]
    assert [(s.done, s.total) for s in seen] == [(0, 3), (1, 3)]


def test_without_a_url_a_resend_says_where_to_set_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="WEBHOOK_URL is not set"):
        Webhooks(Settings(DOCBATCH_DATA_DIR=tmp_path)).resend()
