"""The "job finished" event, in-process: each subscriber hears a finished job once
(done, or needs review), a job in any other state is not announced, and a subscriber
that fails fails neither the publishing nor the subscribers after it. The webhook is
the subscriber DocBatch has of its own; the storing step and a person's last
confirmation reach it only through the event (``engine.documents.finished``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.models import Document, Job
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine import documents as documents_module
from docbatch_gui.engine.context import EngineContext
from docbatch_gui.engine.events import JobFinished, job_finished, webhook
from tests.conftest import SAMPLES


def test_each_subscriber_hears_a_finished_job_once_and_a_failing_one_stops_nothing(
    app: DocBatchApp, caplog: pytest.LogCaptureFixture
) -> None:
    event = JobFinished()
    heard: list[tuple[str, int, JobState]] = []

    def failing(ctx: EngineContext, job: Job, documents: Sequence[Document]) -> None:
        heard.append(("failing", job.id, job.state))
        raise RuntimeError("an export that cannot write")

    def listening(ctx: EngineContext, job: Job, documents: Sequence[Document]) -> None:
        heard.append(("listening", job.id, job.state))

    event.subscribe(failing)
    stop = event.subscribe(listening)
    (job,) = app.add([SAMPLES / "en_invoice_INV-2024-0042.pdf"], mode="offline").jobs
    for state in JobState:
        assert event.publish(app.context, replace(job, state=state)).state is state
    assert heard == [
        (name, job.id, state)
        for state in JobState
        if state in (JobState.DONE, JobState.NEEDS_REVIEW)
        for name in ("failing", "listening")
    ]
    assert "a job-finished subscriber failed" in caplog.text
    stop()
    heard.clear()
    event.publish(app.context, replace(job, state=JobState.DONE))
    assert heard == [("failing", job.id, JobState.DONE)]


def test_the_webhook_is_a_subscriber_and_finishing_a_job_only_publishes(
    app: DocBatchApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert webhook in job_finished._subscribers
    told: list[int] = []
    monkeypatch.setattr(job_finished, "_subscribers", [lambda ctx, job, docs: told.append(job.id)])
    (job,) = app.add([SAMPLES / "en_invoice_INV-2024-0042.pdf"], mode="offline").jobs
    documents_module.finished(app.context, replace(job, state=JobState.NEEDS_REVIEW))
    assert told == [job.id]
