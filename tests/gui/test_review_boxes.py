"""Review follows the eye: a field's box is drawn where its value stands on the page,
at any zoom; the page zooms with Ctrl+wheel and +/−, a plain wheel scrolls."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QHelpEvent, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolTip

from docbatch_gui._qt.review.fields import field_color
from docbatch_gui._qt.widgets.page_canvas import ZOOM_STEP
from tests.gui.conftest import until
from tests.gui.review_helpers import BOX, boxed_job, dark_area, open_review

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])


def assert_box_on_block(tab: Any, field: str = "number") -> QRectF:
    """The drawn box is BOX × the page as displayed, and covers the block on screen."""
    canvas = tab.page_view.canvas
    page = canvas.page_rect()
    box = canvas.box_rect(field)
    assert box is not None
    expected = QRectF(
        page.x() + BOX[0] * page.width(),
        page.y() + BOX[1] * page.height(),
        (BOX[2] - BOX[0]) * page.width(),
        (BOX[3] - BOX[1]) * page.height(),
    )
    for got, want in zip(
        (box.left(), box.top(), box.right(), box.bottom()),
        (expected.left(), expected.top(), expected.right(), expected.bottom()),
        strict=True,
    ):
        assert abs(got - want) <= 2, (box, expected)
    # on screen, the block is under the box: its outline (3 px, centred on the box's
    # edge) hides a pixel or two of the block's rim
    seen = dark_area(canvas.viewport().grab().toImage())
    for got, want in zip(
        (seen.left(), seen.top(), seen.right() + 1, seen.bottom() + 1),
        (box.left(), box.top(), box.right(), box.bottom()),
        strict=True,
    ):
        assert abs(got - want) <= 3, (seen, box)
    return box


def wheel(canvas: Any, delta: int, modifiers: Qt.KeyboardModifier) -> None:
    at = QPointF(canvas.viewport().rect().center())
    event = QWheelEvent(
        at,
        canvas.viewport().mapToGlobal(at),
        QPoint(0, 0),
        QPoint(0, delta),
        Qt.MouseButton.NoButton,
        modifiers,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(canvas.viewport(), event)


async def test_a_focused_field_draws_its_box_on_the_value_at_any_zoom(window: Any) -> None:
    tab = await open_review(window, boxed_job(window.ctx.app))
    canvas = tab.page_view.canvas
    assert canvas.box_item("number") is not None  # drawn faint before it is chosen
    assert canvas.box_item("date") is None  # no location, nothing drawn
    tab.editors["number"].setFocus()
    await until(lambda: canvas.chosen == "number", what="number chosen")
    item = canvas.box_item("number")
    assert item.brush().color().alpha() > 40  # filled in the field's colour
    assert item.pen().color().name() == field_color(tab.current, "number").name()
    assert_box_on_block(tab)

    QTest.keyClick(canvas, Qt.Key.Key_Plus)
    QTest.keyClick(canvas, Qt.Key.Key_Plus)
    await until(lambda: canvas.fit is None, what="zoomed")
    assert_box_on_block(tab)
    canvas.set_zoom(2.5)
    canvas.choose("number")  # brought back into view at the new zoom
    box = assert_box_on_block(tab)
    assert QRectF(canvas.viewport().rect()).contains(box)


async def test_the_box_of_a_value_on_another_page_turns_the_page(window: Any) -> None:
    tab = await open_review(window, boxed_job(window.ctx.app))
    view = tab.page_view
    tab.editors["amount"].setFocus()
    await until(lambda: view.shown is not None and view.shown[1] == 2, what="page 2")
    await until(lambda: view.canvas.box_item("amount") is not None, what="amount box")
    assert view.canvas.chosen == "amount"
    assert view.canvas.box_item("number") is None  # page 1's box stays on page 1


async def test_hovering_a_box_tells_the_value_and_clicking_it_focuses_the_field(
    window: Any,
) -> None:
    tab = await open_review(window, boxed_job(window.ctx.app))
    canvas = tab.page_view.canvas
    box = canvas.box_rect("number")
    at = box.center().toPoint()
    help_event = QHelpEvent(QEvent.Type.ToolTip, at, canvas.viewport().mapToGlobal(at))
    QApplication.sendEvent(canvas.viewport(), help_event)
    await until(lambda: QToolTip.text() == "Number: 100", what="tooltip")
    tab.editors["date"].setFocus()
    QTest.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=box.center().toPoint())
    await until(lambda: tab.editors["number"].hasFocus(), what="number focused")
    assert canvas.chosen == "number"


async def test_zoom_keys_and_ctrl_wheel_zoom_a_plain_wheel_scrolls(window: Any) -> None:
    tab = await open_review(window, boxed_job(window.ctx.app))
    canvas = tab.page_view.canvas
    start = canvas.zoom
    QTest.keyClick(canvas, Qt.Key.Key_Plus)
    assert canvas.zoom == pytest.approx(start * ZOOM_STEP)
    QTest.keyClick(canvas, Qt.Key.Key_Minus)
    assert canvas.zoom == pytest.approx(start)
    # Ctrl++ and Ctrl+− work from the form, where + and − are typed
    editor = tab.editors["number"]
    editor.setFocus()
    await until(editor.hasFocus, what="editor focused")
    QTest.keyClick(editor, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    assert canvas.zoom == pytest.approx(start * ZOOM_STEP)
    QTest.keyClick(editor, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert canvas.zoom == pytest.approx(start)
    assert editor.text() == "100"
    QTest.keyClick(editor, Qt.Key.Key_Plus)  # a plain + is typed, not a zoom
    assert editor.text() == "100+" and canvas.zoom == pytest.approx(start)

    canvas.set_zoom(2.0)
    wheel(canvas, 120, Qt.KeyboardModifier.ControlModifier)
    assert canvas.zoom == pytest.approx(2.0 * ZOOM_STEP)
    wheel(canvas, -240, Qt.KeyboardModifier.ControlModifier)
    assert canvas.zoom == pytest.approx(2.0 / ZOOM_STEP)
    bar = canvas.verticalScrollBar()
    bar.setValue(0)
    wheel(canvas, -120, Qt.KeyboardModifier.NoModifier)
    assert canvas.zoom == pytest.approx(2.0 / ZOOM_STEP)  # never a zoom
    assert bar.value() > 0  # but a scroll


async def test_fit_width_fit_page_and_the_zoom_kept_for_the_next_document(window: Any) -> None:
    tab = await open_review(window, boxed_job(window.ctx.app, documents=2))
    view = tab.page_view
    canvas = view.canvas
    width, fit_page, *_ = view.zoom_actions[2:]
    fit_page.trigger()
    room = canvas.viewport().rect()
    page = canvas.page_rect()
    assert page.height() <= room.height() and page.width() <= room.width()
    assert min(room.height() - page.height(), room.width() - page.width()) <= 12
    width.trigger()
    page = canvas.page_rect()
    assert room.width() - 30 <= page.width() <= canvas.viewport().rect().width()
    assert view.zoom_label.text() == f"{round(canvas.zoom * 100)}%"

    canvas.set_zoom(1.7)
    tab.move_by(1)
    await until(lambda: tab.current is not None and tab.current.doc_index == 1, what="doc 2")
    await until(lambda: view.canvas.box_item("number") is not None, what="page shown")
    assert canvas.zoom == pytest.approx(1.7) and canvas.fit is None
