"""A render's flushes run beside it: while one waits for the disk, the child's next
pages are read; the rows are still written in page order, each once its blobs are
durable, and a flush that fails fails the job with nothing naming a lost blob."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine import render_step
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.blob_batch import BlobBatch
from tests import builders

pytestmark = pytest.mark.slow  # whole files rendered in children

#: a failure's bound, never a wait: the event comes at once when the code is right
BOUND_S = 60.0
PAGES = 6


@pytest.fixture
def small_flushes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A flush every two pages, whatever the time the pages take."""
    monkeypatch.setattr(render_step, "PAGE_FLUSH_COUNT", 2)
    monkeypatch.setattr(render_step, "PAGE_FLUSH_SECONDS", float("inf"))


def read_pages(monkeypatch: pytest.MonkeyPatch) -> tuple[list[int], threading.Event]:
    """The page numbers the render step was handed, and an event set at the fourth:
    the last page of the flush after the first (one flush is in flight at a time)."""
    seen: list[int] = []
    fourth = threading.Event()
    real = render_step.run_prepare

    async def run_prepare(task: Any, *args: Any, on_page: Any, **kwargs: Any) -> Any:
        async def heard(page: Any) -> None:
            seen.append(page.page_no)
            if page.page_no == 4:
                fourth.set()
            await on_page(page)

        return await real(task, *args, on_page=heard, **kwargs)

    monkeypatch.setattr(render_step, "run_prepare", run_prepare)
    return seen, fourth


def test_the_next_pages_are_read_while_a_flush_waits_for_the_disk(
    settings: Settings, small_flushes: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen, fourth = read_pages(monkeypatch)
    real_commit = BlobBatch.commit
    waited: list[bool] = []

    def commit(self: BlobBatch) -> None:
        if not waited:  # the first flush (pages 1-2) holds until page 4 is read
            waited.append(fourth.wait(BOUND_S))
        real_commit(self)

    monkeypatch.setattr(BlobBatch, "commit", commit)
    app = DocBatchApp(settings.model_copy(update={"ocr_engine": "none"}))
    try:
        (job,) = app.add([builders.text_pdf(tmp_path / "six.pdf", PAGES)], mode="offline").jobs
        (done,) = asyncio.run(app.run([job.id]))
        pages = app.store.list_pages(job.id)
        assert waited == [True], seen  # pages 3-4 were read before pages 1-2 were stored
        assert done.state in (JobState.DONE, JobState.NEEDS_REVIEW), done.error
        assert [p.page_no for p in pages] == list(range(1, PAGES + 1))
        assert all(p.image_sha and app.blobs.exists(p.image_sha) for p in pages)
        assert all(p.deliverable for p in pages)
    finally:
        app.close()


def test_a_flush_that_fails_fails_the_job_and_no_row_names_its_blobs(
    settings: Settings, small_flushes: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real_commit = BlobBatch.commit
    calls: list[int] = []

    def commit(self: BlobBatch) -> None:
        calls.append(1)
        if len(calls) > 1:  # from pages 3-4 on, the disk refuses every write
            raise OSError(5, "Input/output error")
        real_commit(self)

    monkeypatch.setattr(BlobBatch, "commit", commit)
    app = DocBatchApp(settings.model_copy(update={"ocr_engine": "none"}))
    stored: list[set[int]] = []
    try:
        (job,) = app.add([builders.text_pdf(tmp_path / "six.pdf", PAGES)], mode="offline").jobs

        def heard(changed: Any) -> None:
            if changed.state is JobState.FAILED and not stored:  # the first attempt's end
                stored.append({p.page_no for p in app.store.list_pages(job.id)})

        asyncio.run(app.run([job.id], heard))
        failed = app.store.get_job(job.id)
        pages = app.store.list_pages(job.id)
        assert failed.state is JobState.FAILED, failed.state  # each attempt, then for good
        assert "Input/output error" in (failed.error or ""), failed.error
        assert stored == [{1, 2}], stored  # the pages whose flush failed have no row
        assert all(p.image_sha is None or app.blobs.exists(p.image_sha) for p in pages)
        assert not any(p.deliverable for p in pages)  # a failed attempt's pages: evidence
    finally:
        app.close()
