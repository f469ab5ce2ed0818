"""Closing the window: asked while jobs run, nothing lost, no process left behind."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import psutil
import pytest
from PySide6.QtWidgets import QAbstractButton, QApplication, QMessageBox

from docbatch_gui.domain.states import RECOVERABLE_STATES, JobState
from tests.builders import text_pdf
from tests.gui.conftest import signal_future, until
from tests.helpers import child_processes
from tests.peers import SHARED_PIDS


def descendants() -> list[str]:
    """Every process this test process started and that is still alive, but for
    multiprocessing's resource tracker (one per interpreter, by design) and the peers
    that serve the whole session (a Redis an earlier test on this worker started)."""
    alive = []
    for child in psutil.Process().children(recursive=True):
        if child.pid in SHARED_PIDS:
            continue
        try:
            if child.status() == psutil.STATUS_ZOMBIE:
                continue
            cmdline = " ".join(child.cmdline())
        except psutil.NoSuchProcess:
            continue
        if "resource_tracker" not in cmdline:
            alive.append(cmdline)
    return alive


pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])


async def answer_close_question(button: str) -> None:
    """Click "wait_button", "quit_button" or "cancel" on the close question."""
    await until(
        lambda: isinstance(QApplication.activeModalWidget(), QMessageBox), what="close question"
    )
    box = QApplication.activeModalWidget()
    assert isinstance(box, QMessageBox)
    assert "being processed" in box.text()
    names = {b.text() for b in box.buttons()}
    assert {"Wait for running jobs", "Quit now"} <= names, names
    assert box.button(QMessageBox.StandardButton.Yes) is None  # no guessing game
    if button == "cancel":
        box.button(QMessageBox.StandardButton.Cancel).click()
    else:
        box.findChild(QAbstractButton, button).click()


async def running(window: Any, tmp_path: Path) -> int:
    big = text_pdf(tmp_path / "big.pdf", pages=400, text="Invoice No. {n}\nTotal: 1.00 USD")
    await window.queue_tab.add_paths([big])
    store = window.ctx.app.store
    await until(
        lambda: any(j.state in RECOVERABLE_STATES for j in store.list_jobs()), what="a job running"
    )
    return store.list_jobs()[0].id


@pytest.mark.slow
async def test_leave_for_next_start_stops_at_once_and_leaves_no_process(
    window: Any, tmp_path: Path
) -> None:
    job_id = await running(window, tmp_path)
    assert child_processes(parent=os.getpid()), "the engine should be rendering in children"
    closed = signal_future(window.closed)
    window.close()
    await answer_close_question("quit_button")
    await closed
    assert not window.ctx.bridge.running
    await until(lambda: not descendants(), timeout=10, what=f"no processes left: {descendants()}")
    # Nothing lost: the interrupted job resumes on the next start.
    job = window.ctx.app.store.get_job(job_id)
    assert job.state in RECOVERABLE_STATES | {JobState.QUEUED}


@pytest.mark.slow
async def test_wait_lets_the_running_job_finish(window: Any, tmp_path: Path) -> None:
    job_id = await running(window, tmp_path)
    closed = signal_future(window.closed)
    window.close()
    await answer_close_question("wait_button")
    await closed
    job = window.ctx.app.store.get_job(job_id)
    assert job.state in (JobState.DONE, JobState.NEEDS_REVIEW)
    await until(lambda: not descendants(), timeout=10, what=f"no processes left: {descendants()}")


@pytest.mark.slow
async def test_cancel_keeps_the_window_open(window: Any, tmp_path: Path) -> None:
    await running(window, tmp_path)
    window.close()
    await answer_close_question("cancel")
    await until(lambda: not window._closing, what="close flow ended")
    assert window.isVisible() and window.ctx.bridge.running


async def test_column_widths_and_window_layout_come_back(
    window: Any, gui_settings: Any, qsettings: Any
) -> None:
    from docbatch_gui._qt.build import build_window

    window.queue_tab.table.setColumnWidth(2, 133)  # Pages: the file name stretches
    window.batches_tab.table.setColumnWidth(0, 222)
    window.review_tab.splitter.setSizes([300, 500, 400])
    review_sizes = window.review_tab.splitter.sizes()
    await window.shutdown()  # saves the layout, as closing does
    again = build_window(gui_settings, qsettings)
    try:
        assert again.queue_tab.table.columnWidth(2) == 133
        assert again.batches_tab.table.columnWidth(0) == 222
        again.resize(window.size())
        again.show()
        assert again.review_tab.splitter.sizes() == review_sizes  # the Review splitter too
    finally:
        again.ctx.host.close()
        again.deleteLater()
