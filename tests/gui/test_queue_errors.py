"""A failure is explained where the eye is: under the failed row, in the job's detail
pane, and as a line (job id and file name) in the Log panel and the log file; so is the
operator's retry."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QColor

from docbatch_gui._qt.queue.file_cell import ERROR_COLOR, FileCellDelegate
from docbatch_gui._qt.queue.jobs_model import COL_FILE, ErrorLineRole, JobRole
from docbatch_gui.app.log_file import log_path, log_to_file
from docbatch_gui.domain.states import JobState
from tests.builders import corrupt_pdf
from tests.gui.conftest import until
from tests.gui.test_queue import select

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])


@pytest.fixture
def log_file(window: Any) -> Iterator[Path]:
    handler = log_to_file(window.ctx.app.settings)
    assert handler is not None
    yield log_path(window.ctx.app.settings)
    logging.getLogger().removeHandler(handler)
    handler.close()


def panel_has(window: Any, text: str) -> bool:
    return any(text in line.message for line in window.log_panel.model._items)


def file_has(path: Path, text: str) -> bool:
    return path.exists() and text in path.read_text(encoding="utf-8")


def reddish(color: QColor) -> bool:
    return color.red() > 120 and color.green() < 110 and color.blue() < 110


async def test_a_failed_job_is_explained_in_the_row_the_detail_and_the_logs(
    window: Any, tmp_path: Path, log_file: Path
) -> None:
    tab, store = window.queue_tab, window.ctx.app.store
    window.resize(1024, 640)
    await tab.add_paths([corrupt_pdf(tmp_path / "garbage.pdf")])
    await until(lambda: bool(store.list_jobs()), what="the job")
    (job,) = store.list_jobs()
    await until(lambda: store.get_job(job.id).state is JobState.FAILED, what="the failure")
    job = store.get_job(job.id)
    assert job.error and job.error.startswith("garbage.pdf")
    await until(lambda: tab.model.job(job.id).state is JobState.FAILED, what="the row failed")

    # under the row: the reason, painted in the File column the operator always sees
    row = next(
        r for r in range(tab.proxy.rowCount()) if tab.proxy.index(r, 0).data(JobRole).id == job.id
    )
    index = tab.proxy.index(row, COL_FILE)
    assert index.data(ErrorLineRole) == " ".join(job.error.split())
    assert isinstance(tab.table.itemDelegateForColumn(COL_FILE), FileCellDelegate)
    cell = tab.table.visualRect(index)
    assert cell.right() <= tab.table.viewport().width()  # fits at 1024×640
    tab.table.clearSelection()  # Add selected the new row: a selected row is painted white
    image = tab.table.viewport().grab(cell).toImage()
    lower = [
        image.pixelColor(x, y)
        for x in range(0, image.width(), 2)
        for y in range(image.height() // 2, image.height())
    ]
    assert any(reddish(c) for c in lower), "no red error line under the file name"
    assert ERROR_COLOR.name() == "#b3261e"

    # in the detail pane, with what to do
    select(window, "garbage.pdf")
    await until(lambda: tab.detail.error.isVisible(), what="the error in the detail pane")
    assert job.error in tab.detail.error.text()
    assert "fix or replace the file" in tab.detail.error.text()

    # in the Log panel and the log file, with the job id and file name
    failed = f"job {job.id} (garbage.pdf) failed [unsupported]"
    await until(lambda: panel_has(window, failed), what="the failure in the Log panel")
    await until(lambda: file_has(log_file, failed), what="the failure in the log file")

    # retrying a damaged file will not help: Retry is off, Process again is the way
    assert not tab.retry_action.isEnabled()
    assert "Retrying will not help" in tab.retry_action.toolTip()
    tab.reprocess_action.trigger()
    retried = f"job {job.id} (garbage.pdf) queued to be processed again by the operator"
    await until(lambda: panel_has(window, retried), what="the retry in the Log panel")
    await until(lambda: file_has(log_file, retried), what="the retry in the log file")


async def test_the_error_box_keeps_every_line_on_a_small_screen_with_the_log_open(
    russian: None, window: Any, tmp_path: Path
) -> None:
    """At 1024×640 with the Log panel docked, the red box of a damaged file shows its
    whole text (the advice is its last line); the empty pages and documents give way."""
    tab, store = window.queue_tab, window.ctx.app.store
    window.resize(1024, 640)
    window.log_dock.show()
    await tab.add_paths([corrupt_pdf(tmp_path / "damaged_scan_from_the_copier.pdf")])
    await until(lambda: bool(store.list_jobs()), what="the job")
    (job,) = store.list_jobs()
    await until(lambda: tab.model.job(job.id).state is JobState.FAILED, what="the failure")
    select(window, "damaged_scan_from_the_copier.pdf")
    box = tab.detail.error
    await until(lambda: box.isVisible(), what="the error box")
    await until(lambda: not tab.detail.contents.isVisible(), what="no empty pages list")
    assert window.size().height() == 640
    assert box.text().endswith("исправьте или замените файл.")
    # the row is selected here (not when added): wait for the pane's layout to settle
    await until(lambda: box.height() >= box.heightForWidth(box.width()), what="the whole box")
