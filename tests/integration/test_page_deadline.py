"""A hung page is skipped within the job's time, and the rest of the file renders.

The hang is the render child's test seam ``DOCBATCH_CHILD_STALL_PAGE``: the child
blocks on the named page, as MuPDF does on a page it would take minutes to draw.
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.models import Job, Page
from docbatch_gui.domain.states import JobState
from docbatch_gui.pipeline.child import STALL_VARIABLE
from tests import builders


def _run_with_hung_first_page(
    app: DocBatchApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pages: int
) -> tuple[Job, dict[int, Page], float]:
    monkeypatch.setenv(STALL_VARIABLE, "hung.pdf:1")
    pdf = builders.text_pdf(tmp_path / "hung.pdf", pages=pages, text="Page {n} of the hung file")
    started = time.monotonic()
    (job,) = asyncio.run(app.run([j.id for j in app.add([pdf]).jobs]))
    took = time.monotonic() - started
    return job, {p.page_no: p for p in app.pages(job.id)}, took


@pytest.mark.slow
def test_a_hung_first_page_is_skipped_and_the_rest_renders_in_the_job_time(
    app: DocBatchApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """JOB_TIMEOUT=20 and PAGE_TIMEOUT=60: page 1 gets its share (20 s / 3 pages),
    not 60 s, so it is skipped with that reason and pages 2 and 3 are rendered."""
    app.settings.job_timeout = 20
    app.settings.page_timeout = 60
    job, pages, _ = _run_with_hung_first_page(app, tmp_path, monkeypatch, pages=3)
    assert job.state is not JobState.TIMED_OUT, job.error
    assert sorted(pages) == [1, 2, 3]
    hung = pages[1]
    assert hung.image_sha is None
    assert hung.text == "Page 1 of the hung file"
    assert hung.render_error is not None
    reason = hung.render_error.english
    seconds = re.fullmatch(
        r"rendering took longer than ([\d.]+) s, this page's share of what JOB_TIMEOUT "
        r"left for the pages still to render",
        reason,
    )
    assert seconds and 5 <= float(seconds[1]) <= 6.7, reason  # 20 s for 3 pages, less opening
    assert hung.render_error.words("ru").startswith(f"отрисовка заняла больше {seconds[1]} с")
    assert pages[2].image_sha and pages[3].image_sha
    assert not pages[2].render_error and not pages[3].render_error


@pytest.mark.slow
def test_the_issue_case_job_timeout_40_and_a_hung_first_page_of_15(
    app: DocBatchApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The case reported: JOB_TIMEOUT=40, PAGE_TIMEOUT=60, page 1 of 15 never ends.
    Before, the whole file timed out "while rendering page 1 of 15"."""
    app.settings.job_timeout = 40
    app.settings.page_timeout = 60
    job, pages, took = _run_with_hung_first_page(app, tmp_path, monkeypatch, pages=15)
    assert job.state is not JobState.TIMED_OUT, job.error
    assert sorted(pages) == list(range(1, 16))
    assert pages[1].image_sha is None
    skipped = pages[1].render_error
    assert skipped is not None and "JOB_TIMEOUT" in skipped.english
    assert all(pages[n].image_sha for n in range(2, 16))
    assert took < 40
