"""Each kind of bad input fails alone, as `unsupported`, naming the file and a fix,
while the good files in the same run succeed."""

from __future__ import annotations

import asyncio
import logging
import re
import shutil
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.cli.output import page_json
from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.states import JobState
from docbatch_gui.pipeline.child import STALL_VARIABLE
from tests import builders
from tests.conftest import SAMPLES
from tests.helpers import cli

# file name → (builder, words the message must contain)
BAD_INPUTS = {
    "empty.pdf": (lambda p: p.write_bytes(b"") and p, "empty"),
    "letter.pdf": (builders.renamed_non_pdf, "extension says PDF"),
    "garbage.pdf": (builders.corrupt_pdf, "neither MuPDF nor qpdf can open it"),
    "locked.pdf": (builders.encrypted_pdf, "password"),
    "nopages.pdf": (builders.zero_page_pdf, "no pages"),
    "bomb.png": (builders.bomb_png, "pixels"),
    "report.docx": (lambda p: p.write_bytes(b"PK\x03\x04 fake docx") and p, "not supported"),
}


@pytest.fixture
def inbox(tmp_path: Path) -> Path:
    folder = tmp_path / "inbox"
    folder.mkdir()
    for name, (build, _) in BAD_INPUTS.items():
        path = folder / name
        path.touch()
        build(path)
    shutil.copy(SAMPLES / "en_invoice_INV-2024-0042.pdf", folder / "good_invoice.pdf")
    builders.multipage_tiff(folder / "good_scan.tif", pages=2)
    return folder


@pytest.mark.slow
def test_every_bad_input_fails_alone_with_a_clear_reason(
    app: DocBatchApp, inbox: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="docbatch_gui.engine.worker")
    files = sorted(inbox.iterdir())  # named explicitly: even .docx gets a job
    report = app.add(files)
    jobs = asyncio.run(app.run([j.id for j in report.jobs]))
    by_name = {j.file_name: j for j in jobs}
    assert set(by_name) == {*BAD_INPUTS, "good_invoice.pdf", "good_scan.tif"}
    for name, (_, words) in BAD_INPUTS.items():
        job = by_name[name]
        assert job.state is JobState.FAILED, (name, job.state, job.error)
        assert job.error_kind is ErrorKind.UNSUPPORTED, name
        assert job.error is not None and job.error.startswith(name), job.error
        assert words.lower() in job.error.lower(), (name, job.error)
        assert any(v in job.error for v in ("add it", "Get a fresh", "Split", "Scan", "Export")), (
            job.error
        )
    assert by_name["good_invoice.pdf"].state is JobState.DONE
    assert by_name["good_scan.tif"].state is JobState.NEEDS_REVIEW
    assert by_name["good_scan.tif"].pages == 2
    logged = [r.getMessage() for r in caplog.records]
    for name in BAD_INPUTS:  # one line per failure: job, file, state, kind, reason
        job = by_name[name]
        line = f"job {job.id} ({name}) failed [unsupported]: {job.error}"
        assert logged.count(line) == 1, (line, logged)


@pytest.mark.slow
def test_failures_reach_the_log_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    bad = tmp_path / "garbage.pdf"
    builders.corrupt_pdf(bad)
    result = cli(data, "process", str(bad), "--mode", "offline", "--wait")
    assert result.returncode == 1
    text = (data / "logs" / "docbatch.log").read_text(encoding="utf-8")
    assert "job 1 (garbage.pdf) failed [unsupported]: garbage.pdf:" in text


@pytest.mark.slow
def test_truncated_pdf_is_refused(app: DocBatchApp, tmp_path: Path) -> None:
    source = builders.text_pdf(tmp_path / "full.pdf", pages=30)
    truncated = builders.truncated_pdf(tmp_path / "truncated.pdf", source)
    (job,) = asyncio.run(app.run([j.id for j in app.add([truncated]).jobs]))
    assert job.state is JobState.FAILED
    assert job.error_kind is ErrorKind.UNSUPPORTED
    assert (job.error or "").startswith("truncated.pdf: the PDF is truncated")
    assert job.artifacts_deliverable is False


@pytest.mark.slow
def test_folder_scan_skips_unsupported_types_by_name(app: DocBatchApp, inbox: Path) -> None:
    report = app.add([inbox])
    assert [p.name for p in report.skipped] == ["report.docx"]
    assert "report.docx" not in {j.file_name for j in report.jobs}


def test_missing_path_is_reported_not_lost(app: DocBatchApp, tmp_path: Path) -> None:
    report = app.add([tmp_path / "nowhere.pdf"])
    (job,) = report.jobs
    assert job.state is JobState.FAILED
    assert job.error_kind is ErrorKind.UNSUPPORTED
    assert "does not exist" in (job.error or "")


def test_oversized_file_is_refused_before_rendering(app: DocBatchApp, tmp_path: Path) -> None:
    app.settings.max_file_mb = 1
    big = tmp_path / "huge.pdf"
    big.write_bytes(b"%PDF-1.7\n" + b"0" * (2 * 2**20))
    (job,) = app.add([big]).jobs
    assert job.state is JobState.FAILED
    assert "MAX_FILE_MB" in (job.error or "")


@pytest.mark.slow
def test_what_other_readers_open_is_processed(app: DocBatchApp, tmp_path: Path) -> None:
    """NUL padding after %%EOF is not a cut-off file, and a page tree MuPDF alone finds
    empty is rebuilt by qpdf: both are read, not refused."""
    padded = builders.padded_pdf(tmp_path / "padded.pdf", SAMPLES / "en_invoice_INV-2024-0042.pdf")
    broken_tree = builders.page_tree_without_count_pdf(tmp_path / "no_count.pdf")
    jobs = asyncio.run(app.run([j.id for j in app.add([padded, broken_tree], force=True).jobs]))
    by_name = {j.file_name: j for j in jobs}
    assert by_name["padded.pdf"].state is JobState.DONE, by_name["padded.pdf"].error
    tree = by_name["no_count.pdf"]
    assert tree.state in (JobState.DONE, JobState.NEEDS_REVIEW), tree.error
    assert tree.pages == 1
    (page,) = app.pages(tree.id)
    assert "Invoice No 42" in page.text


@pytest.mark.slow
def test_a_page_the_renderer_never_finishes_is_skipped_not_the_file(
    app: DocBatchApp,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Page 2 never finishes (the render child stalls on it: a seam, so no machine is
    fast enough to finish it first): past PAGE_TIMEOUT it is given up with its text
    layer and a reason, pages 1 and 3 are rendered, and the job ends in review."""
    caplog.set_level(logging.WARNING, logger="docbatch_gui.engine.worker")
    app.settings.page_timeout = 3
    monkeypatch.setenv(STALL_VARIABLE, "slow.pdf:2")
    slow = builders.text_pdf(tmp_path / "slow.pdf", pages=3, text="Page {n} of the slow file")
    (job,) = asyncio.run(app.run([j.id for j in app.add([slow]).jobs]))
    assert job.state is JobState.NEEDS_REVIEW, job.error
    pages = {p.page_no: p for p in app.pages(job.id)}
    assert sorted(pages) == [1, 2, 3]
    assert pages[1].image_sha and pages[3].image_sha
    assert pages[2].image_sha is None and pages[2].thumb_sha is None
    assert pages[2].text == "Page 2 of the slow file"  # the text layer is kept
    skipped = pages[2].render_error
    assert (
        skipped is not None and skipped.english == "rendering took longer than 3 s (PAGE_TIMEOUT)"
    )
    russian = skipped.words("ru")  # stored with its code: a Russian window
    assert russian == "отрисовка заняла больше 3 с (PAGE_TIMEOUT)"
    assert pages[3].text == "Page 3 of the slow file"
    shown = page_json(pages[2])  # what `docbatch pages N --json` prints
    assert shown["render_error"] == skipped.english and shown["image_sha256"] is None
    assert page_json(pages[1])["render_error"] is None
    assert shown["render_error_code"] == "page_render_timeout"  # for scripts
    assert page_json(pages[1])["render_error_code"] is None
    reasons = [r for d in app.documents(job.id) for r in d.review_reasons]
    assert any(r.startswith("page 2 could not be rendered in time") for r in reasons), reasons
    (line,) = [r.getMessage() for r in caplog.records if "skipped" in r.getMessage()]
    assert line.startswith(
        f"job {job.id} (slow.pdf) page 2 skipped: rendering took longer than 3 s (PAGE_TIMEOUT);"
        " its text layer (23 characters) is kept."
    )
    assert "Splitting the file would not help" in line


@pytest.mark.slow
def test_the_job_deadline_still_holds_over_skipped_pages(
    app: DocBatchApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every page stalls: each is skipped after PAGE_TIMEOUT, but the file as a whole
    still stops at JOB_TIMEOUT, and the message names where it stopped. Twelve pages
    of 2 s are more than the 20 s deadline however fast the machine; the deadline
    leaves room for a child to start on a busy one."""
    app.settings.page_timeout = 2
    app.settings.job_timeout = 20
    monkeypatch.setenv(STALL_VARIABLE, "all_slow.pdf:" + ",".join(map(str, range(1, 13))))
    slow = builders.text_pdf(tmp_path / "all_slow.pdf", pages=12, text="Page {n} of the slow file")
    (job,) = asyncio.run(app.run([j.id for j in app.add([slow]).jobs]))
    assert job.state is JobState.TIMED_OUT, job.error
    assert re.search(r"while rendering page \d+ of 12", job.error or ""), job.error
    assert re.search(r"Pages? 1(-\d+)? (was|were) skipped after PAGE_TIMEOUT", job.error or "")
    assert "splitting the file would not help" in (job.error or "")
    russian = job.error_words("ru") or ""
    assert job.error_code == "prepare_timeout"
    assert "подготовка заняла больше JOB_TIMEOUT=20 с" in russian
    assert "при отрисовке страницы" in russian and "PAGE_TIMEOUT" in russian
    assert "разделение файла не поможет" in russian
    assert job.termination_confirmed is True
