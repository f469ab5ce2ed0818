"""Both number boxes keep an out-of-range number as typed (widget level)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFocusEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractSpinBox

from docbatch_gui._qt.settings.spin import RangeDoubleSpinBox, RangeSpinBox


@pytest.mark.parametrize("kind", [RangeSpinBox, RangeDoubleSpinBox])
def test_a_number_out_of_range_stays_typed_after_focus_leaves(
    kind: type[QAbstractSpinBox], qtbot: object
) -> None:
    box = kind()
    box.setRange(1, 20)  # type: ignore[attr-defined]
    box.lineEdit().selectAll()
    QTest.keyClicks(box, "50")
    assert "50" in box.lineEdit().text()  # not refused at the keystroke
    assert box.typed() == 50  # type: ignore[attr-defined]
    box.focusOutEvent(QFocusEvent(QFocusEvent.Type.FocusOut, Qt.FocusReason.TabFocusReason))
    assert "50" in box.lineEdit().text()  # nor put back silently when focus leaves
    box.lineEdit().selectAll()
    QTest.keyClicks(box, "7")
    assert box.typed() is None  # in range: nothing to mark
