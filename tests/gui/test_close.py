"""Closing the window: asked while jobs run, nothing lost, no process left behind."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import psutil
import pytest
from PySide6.QtWidgets import QAbstractButton, QApplication, QMessageBox

from docbatch_gui.domain.states import RECOVERABLE_STATES, JobState
from docbatch_gui.settings.model import Settings
from tests.gui.conftest import signal_future, until
from tests.gui.held_render import HeldRender, held_settings
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


@pytest.fixture
def gui_settings(tmp_path: Path) -> Settings:
    return held_settings(tmp_path)


@pytest.fixture
def held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HeldRender:
    return HeldRender(tmp_path, monkeypatch)


async def running(window: Any, held: HeldRender) -> int:
    """A job running, held on its page until the test releases it: the close question
    is asked while it runs, on any machine."""
    await window.queue_tab.add_paths([held.file])
    await until(held.stalled, what="the job's render child held on its page")
    store = window.ctx.app.store
    (job,) = store.list_jobs()
    assert job.state in RECOVERABLE_STATES, job
    return job.id


@pytest.mark.slow
async def test_leave_for_next_start_stops_at_once_and_leaves_no_process(
    window: Any, held: HeldRender, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="docbatch_gui")
    job_id = await running(window, held)
    assert child_processes(parent=os.getpid()), "the engine should be rendering in children"
    closed = signal_future(window.closed)
    window.close()
    await answer_close_question("quit_button")
    await closed
    assert "quitting with 1 running job(s): the operator chose to quit now" in caplog.text
    assert not window.ctx.bridge.running
    await until(lambda: not descendants(), timeout=10, what=f"no processes left: {descendants()}")
    # Nothing lost: the interrupted job resumes on the next start.
    job = window.ctx.app.store.get_job(job_id)
    assert job.state in RECOVERABLE_STATES | {JobState.QUEUED}


@pytest.mark.slow
async def test_wait_lets_the_running_job_finish(window: Any, held: HeldRender) -> None:
    job_id = await running(window, held)
    closed = signal_future(window.closed)
    window.close()
    await answer_close_question("wait_button")
    assert not closed.done()  # waiting for the held job
    held.release()
    await closed
    job = window.ctx.app.store.get_job(job_id)
    assert job.state in (JobState.DONE, JobState.NEEDS_REVIEW)
    await until(lambda: not descendants(), timeout=10, what=f"no processes left: {descendants()}")


@pytest.mark.slow
async def test_cancel_keeps_the_window_open(
    window: Any, held: HeldRender, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="docbatch_gui")
    await running(window, held)
    window.close()
    await answer_close_question("cancel")
    await until(lambda: not window._closing, what="close flow ended")
    assert "quitting with 1 running job(s): the operator chose to stay" in caplog.text
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
