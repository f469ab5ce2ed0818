"""A batch cycle renders the queued jobs while it polls, then submits what it rendered:
an ended batch's results are checked while the next jobs render, and a poll that
fails still leaves the rendered jobs sent, not stranded half-way."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine import documents, render_step
from docbatch_gui.settings.model import Settings
from tests.batch_cycles import cycles
from tests.conftest import SAMPLES
from tests.fakes.anthropic_server import FakeAnthropic
from tests.integration.test_render_lane import copies

pytestmark = pytest.mark.slow  # whole batch jobs rendered in children

INVOICE = SAMPLES / "en_invoice_INV-2024-0042.pdf"
#: a failure's bound, never a wait: the event comes at once when the code is right
BOUND_S = 60.0


@pytest.fixture
def app(claude_settings: Settings) -> DocBatchApp:
    application = DocBatchApp(claude_settings.model_copy(update={"poll_interval": 0.05}))
    yield application
    application.close()


def test_an_ended_batch_is_checked_while_the_next_job_renders(
    app: DocBatchApp, fake_anthropic: FakeAnthropic, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    first, second = copies(tmp_path / "in", INVOICE, 2)
    (early,) = app.add([first], mode="batch").jobs
    cycles(app)  # the first job's batch is created
    assert app.store.get_job(early.id).state is JobState.PROCESSING
    checking: dict[str, asyncio.Event] = {}
    waited: list[bool] = []
    real_prepare, real_checked = render_step.run_prepare, documents.checked

    async def run_prepare(task: Any, *args: Any, **kwargs: Any) -> Any:
        event = checking.setdefault("event", asyncio.Event())
        try:  # the second job's child renders only once the first job is being checked
            await asyncio.wait_for(event.wait(), BOUND_S)
            waited.append(True)
        except TimeoutError:
            waited.append(False)
        return await real_prepare(task, *args, **kwargs)

    def checked(*args: Any, **kwargs: Any) -> Any:
        checking.setdefault("event", asyncio.Event()).set()
        return real_checked(*args, **kwargs)

    monkeypatch.setattr(render_step, "run_prepare", run_prepare)
    monkeypatch.setattr(documents, "checked", checked)
    (late,) = app.add([second], mode="batch").jobs
    cycles(app)  # the first batch's results built while the second job renders
    assert waited == [True]
    assert app.store.get_job(early.id).state in (JobState.DONE, JobState.NEEDS_REVIEW)
    assert app.store.get_job(late.id).state is JobState.PROCESSING  # sent in that cycle


def test_a_failed_poll_still_sends_the_jobs_it_rendered(
    app: DocBatchApp, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    first, second = copies(tmp_path / "in", INVOICE, 2)
    (early,) = app.add([first], mode="batch").jobs
    cycles(app)
    (batch,) = app.store.list_batches()
    fake_anthropic.fail_next(10, 500, path=f"/v1/messages/batches/{batch.batch_id}")
    (late,) = app.add([second], mode="batch").jobs
    cycles(app)  # the retrieve fails (after the SDK's retries): the cycle says so
    assert app.store.get_job(early.id).state is JobState.PROCESSING  # polled again later
    assert app.store.get_job(late.id).state is JobState.PROCESSING  # rendered and sent
    assert len(app.store.list_batches()) == 2
    fake_anthropic.clear_failures()
    cycles(app, 2)
    for job in (early, late):
        assert app.store.get_job(job.id).state in (JobState.DONE, JobState.NEEDS_REVIEW)


def test_a_refusal_found_by_the_poll_sends_none_of_the_jobs_rendered_beside_it(
    app: DocBatchApp, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    """A request DocBatch built was refused: the queue stops, so the job rendered while
    the poll found it waits queued, its pages kept, and no batch is created for it."""
    first, second = copies(tmp_path / "in", INVOICE, 2)
    (bad,) = app.add([first], mode="batch").jobs
    fake_anthropic.batch_errored({f"job_{bad.id}_batch_1"}, "invalid_request_error")
    cycles(app)  # the first job's batch is created
    (late,) = app.add([second], mode="batch").jobs
    cycles(app)  # its refusal comes back while the second job renders
    assert app.store.get_job(bad.id).state is JobState.FAILED
    waiting = app.store.get_job(late.id)
    assert waiting.state is JobState.QUEUED, waiting.state
    assert len(app.store.list_pages(late.id)) == waiting.pages == 1  # rendered, kept
    assert len(app.store.list_batches()) == 1  # nothing sent after the refusal
