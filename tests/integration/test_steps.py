"""One shape of step: the job's bar moves by the steps' declared weights, never back,
in sync and batch mode; OCR moves it; an OCR engine is found by name through the
plugin manager (a third one registered here touches no ``if``); the "job finished"
event reaches each subscriber once per finished job, and a failing one fails no job."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.models import Document, Job
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.context import EngineContext
from docbatch_gui.engine.events import job_finished
from docbatch_gui.engine.hooks import hookimpl
from docbatch_gui.engine.ocr_engines import InThreads, OcrReader
from docbatch_gui.engine.plugins import ocr_reader, plugins
from docbatch_gui.engine.steps import BAR, OCR, PREPARE
from docbatch_gui.engine.worker import LocalWorker
from docbatch_gui.pipeline.ocr import OcrEngine, OcrResult
from docbatch_gui.settings.model import Settings
from tests.conftest import SAMPLES
from tests.fakes.anthropic_server import FakeAnthropic

pytestmark = pytest.mark.slow  # whole jobs, rendered and read

SCAN = SAMPLES / "scan_two_pages.tiff"  # two pages without a text layer: OCR reads them
INVOICE = SAMPLES / "en_invoice_INV-2024-0042.pdf"
THIRD = "third_engine"
TEXT = "INVOICE No 42 of 01.02.2024 Seller ACME Ltd Total 100.00"


class ThirdEngine:
    """A page-at-a-time engine of a third kind: DocBatch knows nothing of it."""

    name = THIRD

    def __init__(self) -> None:
        self.read: list[int] = []

    def recognise(self, jpeg: bytes, page_no: int) -> OcrResult:
        self.read.append(page_no)
        return OcrResult(page_no, TEXT, engine=THIRD)


class ThirdPlugin:
    def __init__(self) -> None:
        self.engine = ThirdEngine()

    def make(self, settings: Settings) -> OcrEngine:
        return self.engine

    @hookimpl
    def docbatch_ocr_engine(self, name: str) -> OcrReader | None:
        return InThreads(THIRD, self.make) if name == THIRD else None


@pytest.fixture
def third() -> Iterator[ThirdPlugin]:
    plugin = ThirdPlugin()
    plugins().register(plugin)
    yield plugin
    plugins().unregister(plugin)


def read_with_third(settings: Settings) -> Settings:
    return settings.model_copy(update={"ocr_engine": THIRD, "poll_interval": 0.05})


def assert_forward_to_full(seen: list[tuple[JobState, float]]) -> None:
    values = [p for _, p in seen]
    assert values == sorted(values), seen  # never backwards
    assert values[-1] == 1.0, seen
    assert seen[-1][0] in (JobState.DONE, JobState.NEEDS_REVIEW), seen


def assert_ocr_moved(seen: list[tuple[JobState, float]]) -> None:
    """The bar went past the end of rendering while OCR read, page by page."""
    during = [p for s, p in seen if s is JobState.OCR]
    assert during, seen
    assert max(during) > BAR.done(PREPARE), seen
    assert BAR.at(OCR, 1, 2) in during, seen  # the first of two pages read


def test_a_third_engine_is_found_by_name(third: ThirdPlugin) -> None:
    assert ocr_reader(THIRD).name == THIRD
    assert ocr_reader("tesseract").name == "tesseract"  # DocBatch's own still answer


def test_sync_mode_bar_moves_forward_through_every_step_and_ocr_moves_it(
    claude_settings: Settings, third: ThirdPlugin
) -> None:
    app = DocBatchApp(read_with_third(claude_settings))
    seen: list[tuple[JobState, float]] = []
    try:
        (job,) = app.add([SCAN], mode="sync").jobs
        asyncio.run(app.run([job.id], lambda j: seen.append((j.state, j.progress))))
    finally:
        app.close()
    assert sorted(third.engine.read) == [1, 2]  # the third engine read the scan
    assert_forward_to_full(seen)
    assert_ocr_moved(seen)


def test_batch_mode_bar_moves_forward_through_every_step(
    claude_settings: Settings, third: ThirdPlugin, fake_anthropic: FakeAnthropic
) -> None:
    app = DocBatchApp(read_with_third(claude_settings))
    seen: list[tuple[JobState, float]] = []
    try:
        (job,) = app.add([SCAN], mode="batch").jobs

        async def main() -> None:
            worker = LocalWorker(app.context, lambda j: seen.append((j.state, j.progress)))
            client = app.batch_client()
            assert client is not None
            try:
                for _ in range(20):  # submit, poll until the batch ended, build
                    await app._batch_cycle(worker, client)
                    if app.store.get_job(job.id).state in (JobState.DONE, JobState.NEEDS_REVIEW):
                        return
            finally:
                await client.close()

        asyncio.run(main())
    finally:
        app.close()
    assert_forward_to_full(seen)
    assert_ocr_moved(seen)
    assert JobState.PROCESSING in {s for s, _ in seen}, seen


def test_a_retried_attempt_starts_its_bar_again(settings: Settings) -> None:
    app = DocBatchApp(settings.model_copy(update={"ocr_engine": "none"}))
    seen: list[tuple[int, float]] = []
    try:
        (job,) = app.add([INVOICE], mode="offline").jobs
        asyncio.run(app.run([job.id]))
        app.reprocess(job.id, force=True)
        asyncio.run(app.run([job.id], lambda j: seen.append((j.attempts, j.progress))))
    finally:
        app.close()
    assert seen[0] == (2, 0.0), seen  # the second attempt starts at 0, not at 1.0
    values = [p for _, p in seen]
    assert values == sorted(values) and values[-1] == 1.0, seen


class Heard:
    def __init__(self) -> None:
        self.jobs: list[int] = []

    def __call__(self, ctx: EngineContext, job: Job, documents: Sequence[Document]) -> None:
        self.jobs.append(job.id)


def test_every_subscriber_hears_each_finished_job_once_and_a_failing_one_fails_none(
    settings: Settings,
) -> None:
    heard = Heard()

    def failing(ctx: EngineContext, job: Job, documents: Sequence[Document]) -> None:
        raise RuntimeError("an export that cannot write")

    stop_failing = job_finished.subscribe(failing)
    stop_hearing = job_finished.subscribe(heard)
    app = DocBatchApp(settings.model_copy(update={"ocr_engine": "none"}))
    try:
        jobs = app.add([INVOICE, SAMPLES / "ru_three_documents.pdf"], mode="offline").jobs
        asyncio.run(app.run([j.id for j in jobs]))
        states = {app.store.get_job(j.id).state for j in jobs}
    finally:
        stop_failing()
        stop_hearing()
        app.close()
    assert sorted(heard.jobs) == sorted(j.id for j in jobs)  # each once
    assert states <= {JobState.DONE, JobState.NEEDS_REVIEW}, states  # none failed
