"""The Queue tab on the real engine (offline mode): drops, progress, pause, reprocess."""

from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QAbstractItemView

from docbatch_gui._qt.queue.jobs_model import COL_FILE, COL_STATE, JobRole
from docbatch_gui._qt.tasks import drain
from docbatch_gui.domain.states import JobState
from tests.builders import text_pdf
from tests.conftest import SAMPLES
from tests.gui.conftest import shown_box, until

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])


def drop(window: Any, paths: list[Path]) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    event = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.dropEvent(event)


def states(window: Any) -> dict[str, str]:
    return {job.file_name: job.state.value for job in window.queue_tab.model.jobs()}


def select(window: Any, file_name: str) -> None:
    view: QAbstractItemView = window.queue_tab.table
    proxy = window.queue_tab.proxy
    for row in range(proxy.rowCount()):
        if proxy.index(row, 0).data(JobRole).file_name == file_name:
            view.selectRow(row)
            return
    pytest.fail(f"{file_name} is not in the table")


async def test_drop_of_files_and_a_folder_queues_them(window: Any, tmp_path: Path) -> None:
    folder = tmp_path / "scans"
    folder.mkdir()
    text_pdf(folder / "a.pdf", text="Invoice No. 1 {n}")
    text_pdf(folder / "b.pdf", text="Invoice No. 2 {n}")
    (folder / "notes.xyz").write_text("not a document")
    single = text_pdf(tmp_path / "single.pdf", text="Act No. 7 {n}")
    drop(window, [single, folder])
    await drain()
    await until(lambda: len(window.queue_tab.model.jobs()) == 3, what="three rows")
    assert set(states(window)) == {"single.pdf", "a.pdf", "b.pdf"}
    # the stray file is reported, not queued
    assert "notes.xyz" not in states(window)


@pytest.mark.slow
async def test_progress_and_state_reach_the_table(window: Any) -> None:
    seen: list[tuple[str, float]] = []
    model = window.queue_tab.model
    window.ctx.bridge.jobs_changed.connect(
        lambda jobs: seen.extend((j.state.value, j.progress) for j in jobs)
    )
    await window.queue_tab.add_paths([SAMPLES / "ru_three_documents.pdf"])
    await until(lambda: states(window).get("ru_three_documents.pdf") in ("done", "needs_review"))
    job = model.jobs()[0]
    assert job.documents == 3
    assert any(state == "preparing" for state, _ in seen), seen
    progress = [p for _, p in seen]
    assert progress == sorted(progress) and progress[-1] == 1.0
    # the row shows it: state text and documents
    row = model.index(0, COL_STATE)
    assert row.data() in ("Done", "Needs review")
    assert model.index(0, 5).data() == "3"


@pytest.mark.slow
async def test_pause_stops_new_work_and_resume_restarts_it(window: Any, tmp_path: Path) -> None:
    tab = window.queue_tab
    tab.pause_button.click()
    await drain()
    assert window.ctx.app.is_paused()  # the same stored flag as `docbatch pause`
    assert tab.paused_banner.isVisibleTo(window)
    await tab.add_paths([text_pdf(tmp_path / "held.pdf", text="Invoice No. 5 {n}")])
    await until(lambda: "held.pdf" in states(window), what="the row")
    # The engine looks for work every 0.5 s: give it several chances to (wrongly) start.
    for _ in range(6):
        await asyncio.sleep(0.5)
        assert states(window).get("held.pdf") == "queued"
    tab.pause_button.click()
    await drain()
    assert not window.ctx.app.is_paused()
    await until(lambda: states(window).get("held.pdf") in ("done", "needs_review"), what="resumed")


@pytest.mark.slow
async def test_force_reprocess_of_a_duplicate(window: Any, tmp_path: Path) -> None:
    tab = window.queue_tab
    first = text_pdf(tmp_path / "first.pdf", text="Invoice No. 9 {n}\nTotal: 10.00 USD")
    await tab.add_paths([first])
    await until(lambda: states(window).get("first.pdf") in ("done", "needs_review"))
    copy = tmp_path / "copy.pdf"
    shutil.copy(first, copy)
    await tab.add_paths([copy])
    await until(lambda: states(window).get("copy.pdf") == "duplicate", what="duplicate row")
    select(window, "copy.pdf")
    assert tab.reprocess_action.isEnabled()
    tab.reprocess_action.trigger()
    await drain()
    await until(
        lambda: states(window).get("copy.pdf") in ("done", "needs_review"), what="copy processed"
    )
    job = next(j for j in tab.model.jobs() if j.file_name == "copy.pdf")
    assert job.duplicate_of is None and job.documents == 1
    assert window.ctx.app.store.get_job(job.id).state in (JobState.DONE, JobState.NEEDS_REVIEW)


@pytest.mark.slow
async def test_filters_by_state_and_name(window: Any, tmp_path: Path) -> None:
    tab = window.queue_tab
    await tab.add_paths([text_pdf(tmp_path / "good.pdf"), tmp_path / "missing.pdf"])
    await until(lambda: states(window).get("good.pdf") in ("done", "needs_review"))
    tab.state_filter.setCurrentIndex(tab.state_filter.findText("Failed"))
    assert tab.proxy.rowCount() == 1
    assert tab.proxy.index(0, 0).data(JobRole).file_name == "missing.pdf"
    tab.state_filter.setCurrentIndex(0)
    tab.search.setText("GOOD")
    assert tab.proxy.rowCount() == 1
    tab.search.clear()
    tab.error_filter.setCurrentIndex(tab.error_filter.findData("unsupported"))
    assert [tab.proxy.index(r, 0).data(JobRole).file_name for r in range(tab.proxy.rowCount())] == [
        "missing.pdf"
    ]


async def test_adding_a_big_folder_shows_progress_and_can_be_stopped(
    window: Any, tmp_path: Path
) -> None:
    from PySide6.QtWidgets import QProgressDialog, QPushButton

    folder = tmp_path / "many"
    folder.mkdir()
    for n in range(400):
        (folder / f"scan{n:03}.pdf").write_bytes(b"%PDF-1.4\n" + bytes(str(n), "ascii") * 1000)
    # A slow disk (a network share): each file takes a moment to copy in.
    blobs = window.ctx.app.blobs
    put_file = blobs.put_file

    def slow_put_file(path: Path) -> Any:
        time.sleep(0.02)
        return put_file(path)

    blobs.put_file = slow_put_file
    task = asyncio.ensure_future(window.queue_tab.add_paths([folder]))
    await until(
        lambda: any(
            isinstance(w, QProgressDialog) and w.isVisible()
            for w in window.findChildren(QProgressDialog)
        ),
        what="the progress dialog",
    )
    dialog = next(w for w in window.findChildren(QProgressDialog) if w.isVisible())
    assert dialog.maximum() == 400
    dialog.findChild(QPushButton).click()  # the operator presses Stop
    await task
    added = len(window.ctx.app.store.list_jobs())
    assert 0 < added < 400  # stopped between two files; those taken in stay queued


@pytest.mark.slow
async def test_processing_a_corrected_file_again_asks_first(window: Any, tmp_path: Path) -> None:
    """A person's corrections are at stake: Cancel leaves the job alone, Yes processes
    it again and keeps the corrected value on the same document."""
    from PySide6.QtWidgets import QMessageBox

    tab = window.queue_tab
    app = window.ctx.app
    source = text_pdf(tmp_path / "fixed.pdf", text="Invoice No. 12 {n}\nTotal: 10.00 USD")
    await tab.add_paths([source])
    await until(lambda: states(window).get("fixed.pdf") in ("done", "needs_review"))
    job = next(j for j in tab.model.jobs() if j.file_name == "fixed.pdf")
    (document,) = app.documents(job.id)
    app.review.edit(job.id, 0, who="olga", fields={"number": "12-A"})

    async def answer(button: QMessageBox.StandardButton) -> None:
        select(window, "fixed.pdf")
        tab.reprocess_action.trigger()
        await until(lambda: shown_box(tab), 10, "the question")
        box = shown_box(tab)
        assert "corrected or confirmed by a person" in box.text()
        box.button(button).click()
        await drain()

    await answer(QMessageBox.StandardButton.Cancel)
    assert app.store.get_job(job.id).state is job.state
    await answer(QMessageBox.StandardButton.Yes)
    await until(lambda: app.store.get_job(job.id).attempts > job.attempts, what="queued again")
    await until(lambda: states(window).get("fixed.pdf") in ("done", "needs_review"))
    (again,) = app.documents(job.id)
    assert again.id == document.id and again.fields["number"] == "12-A"


async def test_user_data_is_shown_as_text_not_markup(window: Any, tmp_path: Path) -> None:
    """A file named like HTML is shown as written in the job detail and in a notice."""
    from docbatch_gui.domain.models import NewJob

    tab = window.queue_tab
    name = "<img src=x><b>bold</b>.pdf"
    job = window.ctx.app.store.create_job(NewJob(name, f"/in/{name}", "d" * 64, 10))
    tab.detail.show_job(job)
    assert "&lt;img src=x&gt;&lt;b&gt;bold&lt;/b&gt;.pdf" in tab.detail.title.text()
    window.ctx.notifier.notify(f"{name}: done", "info")
    await drain()
    from PySide6.QtWidgets import QLabel

    labels = [lb for lb in window.findChildren(QLabel) if lb.text() == f"{name}: done"]
    assert labels and all(lb.textFormat() == Qt.TextFormat.PlainText for lb in labels)


async def test_two_files_of_the_same_name_can_be_told_apart(window: Any) -> None:
    """Two rows named invoice.pdf from two folders: each shows its job's number, and its
    tooltip the folder, the job and when it was added; alone again, the plain name."""
    from docbatch_gui.domain.models import NewJob

    tab = window.queue_tab
    store = window.ctx.app.store
    first = store.create_job(NewJob("invoice.pdf", "/in/march/invoice.pdf", "e" * 64, 10))
    second = store.create_job(NewJob("invoice.pdf", "/in/april/invoice.pdf", "f" * 64, 10))
    tab.model.apply([first])
    row = tab.model.row_of(first.id)
    assert tab.model.index(row, COL_FILE).data() == "invoice.pdf"
    tab.model.apply([second])
    names = {
        job_id: tab.model.index(tab.model.row_of(job_id), COL_FILE).data()
        for job_id in (first.id, second.id)
    }
    assert names == {
        first.id: f"invoice.pdf · #{first.id}",
        second.id: f"invoice.pdf · #{second.id}",
    }
    tip = tab.model.index(tab.model.row_of(second.id), COL_FILE).data(Qt.ItemDataRole.ToolTipRole)
    assert "/in/april/invoice.pdf" in tip and f"Job {second.id}, added " in tip
    tab.model.remove([second.id])
    assert tab.model.index(tab.model.row_of(first.id), COL_FILE).data() == "invoice.pdf"
