"""Delete (button or Del key) asks once, names the file or the count, and offers to keep
the documents, with buttons that say what they do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from docbatch_gui._qt.queue.jobs_model import JobRole
from docbatch_gui.domain.states import SUCCESS_STATES
from tests.builders import text_pdf
from tests.gui.conftest import shown_box, until
from tests.gui.test_queue import select

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])


def buttons(box: QMessageBox) -> list[str]:
    return [b.text() for b in box.buttons()]


def click(box: QMessageBox, text: str) -> None:
    (button,) = [b for b in box.buttons() if b.text() == text]
    button.click()


def select_also(window: Any, file_name: str) -> None:
    tab = window.queue_tab
    for row in range(tab.proxy.rowCount()):
        if tab.proxy.index(row, 0).data(JobRole).file_name == file_name:
            flags = (
                QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
            )
            tab.table.selectionModel().select(tab.proxy.index(row, 0), flags)


async def focus_table(window: Any) -> None:
    """The Del key reaches the table's shortcut when its window is active (a closed
    message box does not always hand activation back on the offscreen platform)."""
    window.activateWindow()
    await until(lambda: QApplication.activeWindow() is window, what="the window active")
    window.queue_tab.table.setFocus()
    await until(window.queue_tab.table.hasFocus, what="the table focused")


async def test_delete_asks_once_and_keeps_or_deletes_the_documents(
    window: Any, tmp_path: Path
) -> None:
    try:
        await _delete_flow(window, tmp_path)
    finally:  # a failed step must not leave a question open for the teardown to wait on
        for box in window.queue_tab.findChildren(QMessageBox):
            box.reject()


async def _delete_flow(window: Any, tmp_path: Path) -> None:
    tab, app = window.queue_tab, window.ctx.app
    names = ["a.pdf", "b.pdf", "c.pdf"]
    await tab.add_paths(
        [text_pdf(tmp_path / n, text=f"Invoice No. {i} {{n}}\nTotal: 9.00 USD")
         for i, n in enumerate(names)]
    )  # fmt: skip
    await until(
        lambda: (
            len(tab.model.jobs()) == 3
            and all(j.state in SUCCESS_STATES for j in app.store.list_jobs())
        ),
        what="three files processed",
    )
    await until(lambda: all(j.documents for j in tab.model.jobs()), what="rows with documents")
    ids = {j.file_name: j.id for j in app.store.list_jobs()}

    # the Del key on one file: its name, three named buttons, Cancel the default
    select(window, "a.pdf")
    await focus_table(window)
    QTest.keyClick(tab.table, Qt.Key.Key_Delete)
    await until(lambda: shown_box(tab) is not None, what="the question")
    box = shown_box(tab)
    assert "a.pdf" in box.text()
    assert sorted(buttons(box)) == [
        "Cancel",
        "Delete job and documents",
        "Delete job, keep documents",
    ]
    assert box.defaultButton().text() == "Cancel"
    click(box, "Cancel")
    await until(lambda: shown_box(tab) is None, what="the question closed")
    assert "a.pdf" in {j.file_name for j in tab.model.jobs()}  # nothing happened

    await focus_table(window)
    QTest.keyClick(tab.table, Qt.Key.Key_Delete)
    await until(lambda: shown_box(tab) is not None, what="the question again")
    click(shown_box(tab), "Delete job, keep documents")
    await until(lambda: "a.pdf" not in {j.file_name for j in tab.model.jobs()}, what="row gone")
    assert ids["a.pdf"] in {j.id for j in app.jobs()}  # the store waits for the undo time
    await tab.pending_deletes.flush()  # the undo time over
    assert app.documents(ids["a.pdf"])  # kept for Review and the registry
    assert ids["a.pdf"] not in {j.id for j in app.jobs()}  # not in the queue on restart

    # the button on two files: the count, asked once
    select(window, "b.pdf")
    select_also(window, "c.pdf")
    assert len(tab.selected_jobs()) == 2
    tab.delete_action.trigger()
    await until(lambda: shown_box(tab) is not None, what="the question for two files")
    box = shown_box(tab)
    assert "2 files" in box.text()
    click(box, "Delete job and documents")
    await until(lambda: not tab.model.jobs(), what="both rows gone")
    assert shown_box(tab) is None  # asked once, not once per file
    await tab.pending_deletes.flush()
    assert app.documents(ids["b.pdf"]) == [] and app.documents(ids["c.pdf"]) == []


async def test_undo_brings_deleted_jobs_back_untouched(window: Any, tmp_path: Path) -> None:
    """*Undo* in the notice, within its seconds: the rows come back and the store never
    lost them; without Undo, the store deletes them when the time is over."""
    tab, app = window.queue_tab, window.ctx.app
    told: list[str] = []
    window.ctx.notifier.shown.connect(lambda text, _level: told.append(text))
    await tab.add_paths(
        [
            text_pdf(tmp_path / n, text=f"Invoice No. {n}\nTotal: 9.00 USD")
            for n in ("keep.pdf", "gone.pdf")
        ]
    )
    await until(lambda: len(tab.model.jobs()) == 2, what="two rows")
    # the rows, not only the store: Delete is offered for what the table shows final
    await until(lambda: all(j.state in SUCCESS_STATES for j in tab.model.jobs()), what="processed")
    ids = {j.file_name: j.id for j in app.store.list_jobs()}
    select(window, "keep.pdf")
    tab.delete_action.trigger()
    await until(lambda: shown_box(tab) is not None, what="the question")
    click(shown_box(tab), "Delete job and documents")
    await until(lambda: "keep.pdf" not in {j.file_name for j in tab.model.jobs()}, what="gone")
    toast = window.ctx.notifier._toasts[-1]
    assert toast.button is not None and toast.button.text() == "Undo"
    toast.button.click()
    assert "keep.pdf" in {j.file_name for j in tab.model.jobs()}
    assert app.documents(ids["keep.pdf"])  # never deleted
    assert told[-1] == "1 job is back in the queue."

    tab.pending_deletes.undo_ms = 0  # the time runs out at once
    select(window, "gone.pdf")
    tab.delete_action.trigger()
    await until(lambda: shown_box(tab) is not None, what="the question again")
    click(shown_box(tab), "Delete job and documents")
    await until(lambda: ids["gone.pdf"] not in {j.id for j in app.jobs()}, what="deleted")
    assert ids["keep.pdf"] in {j.id for j in app.jobs()}
