"""The Review tab's grid of lines: a row chosen draws its box on its page (turning
the page), cells are edited with the keyboard like a spreadsheet, rows are added,
split and deleted, the totals bar follows the typing, rows copy as tab-separated
text, and Save puts every change in the audit trail."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from docbatch_gui._qt.review.lines_grid import KEY_ROLE, LINE_ROLE, LinesModel
from docbatch_gui.config.profile import load_profile
from docbatch_gui.domain.lines import Line
from tests.gui.conftest import until
from tests.gui.review_helpers import BOX, boxed_job, open_review

# the model test is plain; the window tests run on the qasync loop
ON_QASYNC = pytest.mark.asyncio(loop_factories=["qasync"])

LINES = [
    Line("1", "Бумага А4", None, "шт", "2", "10.00", "20.00", "20", "4.00", "24.00", 1, list(BOX)),
    Line("2", "Ручка и карандаш", None, "шт", "1", "26.00", "26.00", "20", "5.20", "31.20", 2,
         [0.1, 0.5, 0.9, 0.55]),
]  # fmt: skip


def lined_job(app: Any) -> int:
    job_id = boxed_job(app)
    (doc,) = app.store.list_documents(job_id)
    fields = {**doc.fields, "amount": "55.20", "vat_amount": "9.20"}
    app.store.update_document(replace(doc, lines=LINES, fields=fields))
    return job_id


def test_the_model_names_its_columns_and_gives_each_row_its_line() -> None:
    model = LinesModel(load_profile(), "ru")
    model.set_lines(LINES)
    keys = [model.headerData(c, Qt.Orientation.Horizontal, KEY_ROLE) for c in range(9)]
    assert keys[:5] == ["no", "name", "code", "unit", "qty"]
    assert model.headerData(4, Qt.Orientation.Horizontal) == "Кол-во"  # short, in the header
    assert model.headerData(4, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) == (
        "Количество"
    )
    assert model.headerData(6, Qt.Orientation.Horizontal) == "Сумма\nбез НДС"  # two lines
    assert model.data(model.index(1, 1), LINE_ROLE) == LINES[1]
    assert model.data(model.index(0, 4)) == "2"
    assert model.setData(model.index(0, 4), "3") and model.rows[0].qty == "3"
    assert model.modified
    assert model.setData(model.index(0, model.keys.index("page")), "x") is False


@ON_QASYNC
async def test_choosing_a_row_draws_its_box_and_turns_to_its_page(window: Any) -> None:
    tab = await open_review(window, lined_job(window.ctx.app))
    grid, view = tab.lines_grid, tab.page_view
    assert grid.model.rowCount() == 2
    grid.view.setCurrentIndex(grid.model.index(0, 1))
    await until(lambda: view.canvas.box_item("line:0") is not None, what="line 1's box")
    assert view.canvas.chosen == "line:0"
    grid.view.setCurrentIndex(grid.model.index(1, 1))
    await until(lambda: view.shown is not None and view.shown[1] == 2, what="page 2")
    await until(lambda: view.canvas.box_item("line:1") is not None, what="line 2's box")
    assert view.canvas.box_item("line:0") is None  # one line's box at a time


@ON_QASYNC
async def test_the_keyboard_edits_cells_and_the_totals_follow(window: Any) -> None:
    tab = await open_review(window, lined_job(window.ctx.app))
    grid = tab.lines_grid
    assert "=" in grid.totals.text() and "≠" not in grid.totals.text()
    qty = grid.model.keys.index("gross")
    grid.view.setFocus()
    grid.view.setCurrentIndex(grid.model.index(0, qty))
    QTest.keyClick(grid.view, Qt.Key.Key_F2)
    editor = QGuiApplication.focusObject()
    QTest.keySequence(editor, "SelectAll")
    QTest.keyClicks(editor, "1 024,00")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    await until(lambda: grid.model.rows[0].gross == "1 024,00", what="typed")
    assert "≠" in grid.totals.text()  # 1031.20 against the printed 55.20
    QTest.keyClick(grid.view, Qt.Key.Key_Return)  # Enter moves down, like a spreadsheet
    assert grid.view.currentIndex().row() == 1
    price = grid.model.keys.index("price")  # then net: both always shown
    grid.view.setCurrentIndex(grid.model.index(1, price))
    QTest.keyClick(grid.view, Qt.Key.Key_Tab)
    assert grid.view.currentIndex().column() == price + 1
    QTest.keyClick(grid.view, Qt.Key.Key_Insert)  # a row below
    assert grid.model.rowCount() == 3 and grid.view.currentIndex().row() == 2
    grid.view.selectRow(2)
    QTest.keyClick(grid.view, Qt.Key.Key_Delete, Qt.KeyboardModifier.ControlModifier)
    assert grid.model.rowCount() == 2
    # QTest leaves the application's modifier state at Ctrl after a click with Ctrl:
    # release it, or the next test's row selection extends instead of replacing
    QTest.keyRelease(grid.view, Qt.Key.Key_Control)
    assert QGuiApplication.keyboardModifiers() == Qt.KeyboardModifier.NoModifier


@ON_QASYNC
async def test_split_copy_and_save_go_to_the_audit_trail(window: Any) -> None:
    app = window.ctx.app
    job_id = lined_job(app)
    tab = await open_review(window, job_id)
    grid = tab.lines_grid
    grid.view.setCurrentIndex(grid.model.index(1, 1))
    grid.split_button.click()
    assert [line.name for line in grid.model.rows] == ["Бумага А4", "Ручка и", "карандаш"]
    grid.model.setData(grid.model.index(2, grid.model.keys.index("net")), "3,50")
    grid.view.selectAll()
    grid.copy_button.click()
    copied = QGuiApplication.clipboard().text().splitlines()
    assert copied[0].split("\t")[:2] == ["№", "Наименование"] or "Description" in copied[0]
    assert len(copied) == 4 and copied[1].split("\t")[1] == "Бумага А4"
    await tab.save()
    (saved,) = app.store.list_documents(job_id)
    assert [line.name for line in saved.lines] == ["Бумага А4", "Ручка и", "карандаш"]
    assert saved.lines[2].net == "3.50"  # stored as the readers store numbers
    actions = [(e["action"], e["field"]) for e in saved.audit]
    assert ("line_edit", "line 2: name") in actions
    assert ("line_add", "line 3") in actions
    assert all(e["who"] for e in saved.audit)
    assert "line" in tab.history.toPlainText()


@ON_QASYNC
async def test_rows_without_sums_leave_the_totals_bar_empty(window: Any) -> None:
    """Lines read with a quantity and no sums (an English invoice's description
    column): the bar says nothing rather than a bare "Rows' sums —"."""
    app = window.ctx.app
    job_id = boxed_job(app)
    (doc,) = app.store.list_documents(job_id)
    bare = [Line(name="Consulting services", qty="8", page=1), Line(name="Licence", qty="1")]
    app.store.update_document(replace(doc, lines=bare))
    tab = await open_review(window, job_id)
    assert tab.lines_grid.model.rowCount() == 2
    assert tab.lines_grid.totals.text() == ""
