"""The worker gives each job's context its cancel token and the progress sink: a step
reads them from the context, not from side channels. The operator's cancel sets the
token (as the job's task is canceled), so work a task's cancel cannot reach (a thread
reading pages) stops at its next page; the sink hears the bar the steps report."""

from __future__ import annotations

import asyncio
import threading

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.progress import Progress
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine import worker as worker_module
from docbatch_gui.engine.steps import PREPARE, WEIGHTS, JobContext, Step
from docbatch_gui.engine.worker import LocalWorker
from docbatch_gui.settings.model import Settings
from tests.conftest import SAMPLES

pytestmark = pytest.mark.slow  # a worker's pool of render children, started and stopped

INVOICE = SAMPLES / "en_invoice_INV-2024-0042.pdf"


class PagesInAThread:
    """A step that reads "pages" in a thread until its context's token says stop:
    cancelling the job's task does not stop a thread, the token does."""

    name = PREPARE
    weight = WEIGHTS[PREPARE]

    def __init__(self) -> None:
        self.contexts: list[JobContext] = []
        self.reading = threading.Event()
        self.pages = 0

    async def run(self, ctx: JobContext, job: Job) -> Job:
        self.contexts.append(ctx)
        ctx.report(job.id, PREPARE, 1, 2)
        assert ctx.cancel is not None

        def read() -> None:
            while not ctx.cancel.canceled:  # type: ignore[union-attr]
                self.pages += 1
                self.reading.set()
                ctx.cancel._event.wait(1)  # type: ignore[union-attr]  # the next page

        reader = asyncio.to_thread(read)
        await reader
        ctx.check_canceled()
        return job


def test_the_operators_cancel_sets_the_token_the_steps_read_and_the_sink_hears_the_bar(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    step = PagesInAThread()
    steps: list[Step] = [step]
    monkeypatch.setattr(worker_module, "pipeline_for", lambda job: steps)
    app = DocBatchApp(settings.model_copy(update={"ocr_engine": "none"}))
    heard: list[Progress] = []
    try:
        (job,) = app.add([INVOICE], mode="offline").jobs

        async def main() -> None:
            worker = LocalWorker(app.context, sink=heard.append)
            running = asyncio.create_task(worker.run_until_idle())
            await asyncio.to_thread(step.reading.wait, 60)
            app.cancel(job.id)  # as the window or `docbatch cancel` does
            await asyncio.wait_for(running, 60)

        asyncio.run(main())
        final = app.store.get_job(job.id)
        documents = app.store.list_documents(job.id)
    finally:
        app.close()
    (ctx,) = step.contexts
    assert ctx.cancel is not None and ctx.cancel.canceled  # the worker's cancel path set it
    assert final.state is JobState.CANCELED
    assert not documents
    assert heard and heard[0].what == PREPARE and heard[0].share == pytest.approx(0.5), heard


def test_each_job_gets_a_token_of_its_own_and_none_is_left_behind(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[JobContext] = []

    class Records:
        name = PREPARE
        weight = WEIGHTS[PREPARE]

        async def run(self, ctx: JobContext, job: Job) -> Job:
            seen.append(ctx)
            return job

    monkeypatch.setattr(worker_module, "pipeline_for", lambda job: [Records()])
    app = DocBatchApp(settings.model_copy(update={"ocr_engine": "none"}))
    try:
        jobs = app.add([INVOICE, SAMPLES / "ru_three_documents.pdf"], mode="offline").jobs
        worker = LocalWorker(app.context)
        asyncio.run(worker.run_until_idle())
    finally:
        app.close()
    assert len(seen) == len(jobs)
    tokens = [ctx.cancel for ctx in seen]
    assert all(t is not None and not t.canceled for t in tokens)
    assert tokens[0] is not tokens[1]
    assert not worker._cancels  # a finished job's token goes with it
