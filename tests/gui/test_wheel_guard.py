"""The mouse wheel scrolls a form; it changes a combo box, spin box or slider only
when the operator gave that field focus first."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint, QPointF, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDoubleSpinBox,
    QScrollArea,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)
from pytestqt.qtbot import QtBot

from docbatch_gui._qt.widgets.wheel_guard import install_wheel_guard
from tests.fakes.memory_keyring import memory_keyring
from tests.gui.settings_helpers import make_tab


def wheel(widget: QWidget, notches: int = -1) -> None:
    """One wheel turn over the widget's centre, through the window system as a real
    mouse sends it (Qt passes only such events on to the parent when ignored)."""
    window = widget.window()
    handle = window.windowHandle()
    assert handle is not None
    where = widget.mapTo(window, widget.rect().center())
    QTest.wheelEvent(handle, QPointF(where), QPoint(0, 120 * notches))
    QApplication.processEvents()


Form = tuple[QScrollArea, QComboBox, QSpinBox, QDoubleSpinBox, QSlider]


@pytest.fixture
def form(qtbot: QtBot) -> Iterator[Form]:
    install_wheel_guard()
    content = QWidget()
    column = QVBoxLayout(content)
    combo = QComboBox()
    combo.addItems([f"choice {n}" for n in range(10)])
    combo.setCurrentIndex(5)
    spin = QSpinBox()
    spin.setRange(0, 100)
    spin.setValue(50)
    double = QDoubleSpinBox()
    double.setValue(5.0)
    slider = QSlider(Qt.Orientation.Horizontal)
    slider.setRange(0, 100)
    slider.setValue(50)
    column.addSpacing(600)
    for widget in (combo, spin, double, slider):
        column.addWidget(widget)
    column.addSpacing(1200)
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setWidget(content)
    area.resize(400, 500)
    qtbot.addWidget(area)
    area.show()
    qtbot.waitExposed(area)
    area.ensureWidgetVisible(combo)
    yield area, combo, spin, double, slider


def test_the_wheel_over_an_unfocused_field_scrolls_the_page_and_changes_nothing(
    form: Form,
) -> None:
    area, combo, spin, double, slider = form
    area.setFocus()
    for widget in (combo, spin, double, slider):
        assert widget.focusPolicy() == Qt.FocusPolicy.StrongFocus, widget
    bar = area.verticalScrollBar()
    before = bar.value()
    for widget in (combo, spin, double, slider):
        wheel(widget)
        assert not widget.hasFocus()  # a scroll does not hand it focus either
    assert combo.currentIndex() == 5
    assert spin.value() == 50
    assert double.value() == 5.0
    assert slider.value() == 50
    assert bar.value() > before  # the page scrolled instead


def test_a_focused_field_still_takes_the_wheel(form: Form, qtbot: QtBot) -> None:
    _area, combo, spin, _double, _slider = form
    combo.setFocus()
    qtbot.waitUntil(combo.hasFocus)
    wheel(combo)
    assert combo.currentIndex() != 5
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    wheel(spin)
    assert spin.value() != 50


def test_scrolling_the_settings_page_changes_no_field(qtbot: QtBot, qsettings: QSettings) -> None:
    """The real Settings page: the wheel over its engine combo box and a number field
    scrolls the page and leaves both as they were."""
    install_wheel_guard()
    with memory_keyring():
        tab = make_tab(qsettings)
        qtbot.addWidget(tab)
        tab.resize(900, 500)
        tab.show()
        qtbot.waitExposed(tab)
        area = tab.findChild(QScrollArea)
        assert area is not None
        combo = tab.editors["ocr_engine"].editor
        spin = tab.editors["batch_size"].editor
        assert isinstance(combo, QComboBox) and isinstance(spin, QSpinBox)
        tab.save_button.setFocus()
        for field in (combo, spin):
            area.ensureWidgetVisible(field)
            engine, batch = combo.currentIndex(), spin.value()
            before = area.verticalScrollBar().value()
            wheel(field, notches=-1 if before == 0 else 1)
            assert (combo.currentIndex(), spin.value()) == (engine, batch)
            assert area.verticalScrollBar().value() != before  # the page moved instead
        assert not tab.save_button.isEnabled()  # nothing changed, nothing to save
