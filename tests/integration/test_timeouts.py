"""Deadlines (seed 004): a huge file times out cleanly, alone, and leaves nothing behind."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.states import JobState, Phase
from docbatch_gui.pipeline.child import STALL_VARIABLE
from docbatch_gui.pipeline.prepare import PrepareResult, prepare_pool, run_prepare
from docbatch_gui.pipeline.render import PrepareTask
from docbatch_gui.settings.loading import load_settings
from tests import builders
from tests.conftest import SAMPLES
from tests.helpers import child_processes

pytestmark = pytest.mark.slow  # a 2,000-page file, a deadline waited for


@pytest.fixture(scope="module")
def huge_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return builders.text_pdf(tmp_path_factory.mktemp("huge") / "huge_2000.pdf", pages=2000)


#: the job's deadline: the file that never finishes reaches it, and the one-page file
#: beside it finishes well within it on a loaded machine; the test lasts this long
#: whatever the machine's speed. What must happen before it (the one-page file done,
#: the hung file's 11 pages rendered and its child at the stall) took 0.9 s of wall
#: time idle and 1.4 s with six busy loops on the two cores (it was 60 s: 40 s more
#: of waiting bought no more meaning)
HUNG_JOB_TIMEOUT = 20
#: the hung file's pages; its render child stalls forever on the last one
HUNG_PAGES = 12


def test_huge_pdf_times_out_alone_and_leaves_no_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file whose rendering never ends (its child stalls on its last page, a seam)
    times out at JOB_TIMEOUT, alone: the file beside it is done. The last page has
    all the time left, so no page deadline skips it and the file cannot finish, on a
    fast machine or a slow one. (This was a 2,000-page file, stalled on page 60; past
    the skipped page a fast machine could render the rest within the deadline.)"""
    hung = builders.text_pdf(tmp_path / "hung.pdf", pages=HUNG_PAGES)
    monkeypatch.setenv(STALL_VARIABLE, f"hung.pdf:{HUNG_PAGES}")
    settings = load_settings(
        data_dir=tmp_path / "data", JOB_TIMEOUT=HUNG_JOB_TIMEOUT, RENDER_WORKERS=2
    )
    app = DocBatchApp(settings)
    good = tmp_path / "good.pdf"
    shutil.copy(SAMPLES / "en_invoice_INV-2024-0042.pdf", good)
    report = app.add([hung, good])
    jobs = {j.file_name: j for j in asyncio.run(app.run([j.id for j in report.jobs]))}
    timed_out = jobs["hung.pdf"]
    assert timed_out.state is JobState.TIMED_OUT
    assert timed_out.error_kind is ErrorKind.TIMEOUT
    assert timed_out.phase is Phase.PREPARE
    assert timed_out.termination_confirmed is True
    assert timed_out.artifacts_deliverable is False
    assert "JOB_TIMEOUT" in (timed_out.error or "") and "hung.pdf" in (timed_out.error or "")
    pages = app.pages(timed_out.id)
    assert [p.page_no for p in pages] == list(range(1, HUNG_PAGES))  # kept as evidence …
    assert not any(p.deliverable for p in pages)  # … but never delivered
    assert app.documents(timed_out.id) == []
    assert jobs["good.pdf"].state is JobState.DONE
    assert child_processes(parent=os.getpid()) == []
    app.close()


def test_timed_out_job_can_be_retried_with_a_longer_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = load_settings(data_dir=tmp_path / "data", JOB_TIMEOUT=1)
    app = DocBatchApp(settings)
    pdf = builders.text_pdf(tmp_path / "slowish.pdf", pages=40)
    monkeypatch.setenv(STALL_VARIABLE, "slowish.pdf:1")  # it cannot finish in time
    (job,) = asyncio.run(app.run([j.id for j in app.add([pdf]).jobs]))
    assert job.state is JobState.TIMED_OUT
    monkeypatch.delenv(STALL_VARIABLE)
    app.settings.job_timeout = 120
    app.retry(job.id)
    (job,) = asyncio.run(app.run([job.id]))
    assert job.state in (JobState.DONE, JobState.NEEDS_REVIEW)
    assert job.attempts == 2
    assert job.pages == 40 and len(app.pages(job.id)) == 40
    assert all(p.deliverable for p in app.pages(job.id))
    app.close()


def _prepare(path: Path) -> PrepareResult:
    async def ignore(_: object) -> None:
        return None

    async def main() -> PrepareResult:
        async with prepare_pool(1) as pool:
            task = PrepareTask(str(path), path.name, "pdf")
            return await run_prepare(
                task, time.monotonic() + 600, pool, on_count=ignore, on_page=ignore
            )

    return asyncio.run(main())


@pytest.mark.slow
def test_huge_pdf_is_rendered_in_bounded_memory(tmp_path: Path, huge_pdf: Path) -> None:
    small = _prepare(builders.text_pdf(tmp_path / "small.pdf", pages=50))
    huge = _prepare(huge_pdf)
    assert huge.pages_done == 2000
    assert small.child_peak_rss_mb is not None and huge.child_peak_rss_mb is not None
    # 40 times the pages, about the same memory: pages are streamed, caches emptied
    assert huge.child_peak_rss_mb < small.child_peak_rss_mb + 64, (small, huge)


@pytest.mark.slow
def test_huge_pdf_is_processed_to_the_end(tmp_path: Path, huge_pdf: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "data", JOB_TIMEOUT=600)
    app = DocBatchApp(settings)
    (job,) = asyncio.run(app.run([j.id for j in app.add([huge_pdf]).jobs]))
    assert job.state in (JobState.DONE, JobState.NEEDS_REVIEW)
    assert job.pages == 2000 and len(app.pages(job.id)) == 2000
    assert child_processes(parent=os.getpid()) == []
    app.close()
