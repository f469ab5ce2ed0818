"""Deadlines (seed 004): a huge file times out cleanly, alone, and leaves nothing behind."""

from __future__ import annotations

import asyncio
import resource
import shutil
from pathlib import Path

import pytest

from docbatch_gui.app import DocBatchApp
from docbatch_gui.config import load_settings
from docbatch_gui.domain import ErrorKind, JobState, Phase
from tests import builders
from tests.conftest import SAMPLES
from tests.helpers import child_processes


@pytest.fixture(scope="module")
def huge_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return builders.text_pdf(tmp_path_factory.mktemp("huge") / "huge_2000.pdf", pages=2000)


def test_huge_pdf_times_out_alone_and_leaves_no_process(tmp_path: Path, huge_pdf: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "data", JOB_TIMEOUT=2, RENDER_WORKERS=2)
    app = DocBatchApp(settings)
    good = tmp_path / "good.pdf"
    shutil.copy(SAMPLES / "en_invoice_INV-2024-0042.pdf", good)
    report = app.add([huge_pdf, good])
    jobs = {j.file_name: j for j in asyncio.run(app.run([j.id for j in report.jobs]))}
    huge = jobs["huge_2000.pdf"]
    assert huge.state is JobState.TIMED_OUT
    assert huge.error_kind is ErrorKind.TIMEOUT
    assert huge.phase is Phase.PREPARE
    assert huge.termination_confirmed is True
    assert huge.artifacts_deliverable is False
    assert "JOB_TIMEOUT" in (huge.error or "") and "huge_2000.pdf" in (huge.error or "")
    pages = app.pages(huge.id)
    assert 0 < len(pages) < 2000  # partial output is kept as evidence …
    assert not any(p.deliverable for p in pages)  # … but never delivered
    assert app.documents(huge.id) == []
    assert jobs["good.pdf"].state is JobState.DONE
    assert child_processes() == []
    app.close()


def test_timed_out_job_can_be_retried_with_a_longer_deadline(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "data", JOB_TIMEOUT=0.1)
    app = DocBatchApp(settings)
    pdf = builders.text_pdf(tmp_path / "slowish.pdf", pages=40)
    (job,) = asyncio.run(app.run([j.id for j in app.add([pdf]).jobs]))
    assert job.state is JobState.TIMED_OUT
    app.settings.job_timeout = 120
    app.retry(job.id)
    (job,) = asyncio.run(app.run([job.id]))
    assert job.state in (JobState.DONE, JobState.NEEDS_REVIEW)
    assert job.attempts == 2
    assert job.pages == 40 and len(app.pages(job.id)) == 40
    assert all(p.deliverable for p in app.pages(job.id))
    app.close()


@pytest.mark.slow
def test_huge_pdf_is_processed_in_bounded_memory(tmp_path: Path, huge_pdf: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "data", JOB_TIMEOUT=600)
    app = DocBatchApp(settings)
    (job,) = asyncio.run(app.run([j.id for j in app.add([huge_pdf]).jobs]))
    assert job.state in (JobState.DONE, JobState.NEEDS_REVIEW)
    assert job.pages == 2000 and len(app.pages(job.id)) == 2000
    peak_child_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    assert peak_child_mb < 400, f"a prepare child peaked at {peak_child_mb:.0f} MB"
    assert child_processes() == []
    app.close()
