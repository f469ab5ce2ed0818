"""Number boxes that show a number out of range instead of dropping it.

A plain spin box refuses the keystroke that would leave its range: typing 50 into a
1–20 box leaves 5, and the operator saves a value nobody typed. These keep what was
typed, even after the box loses focus, so the field is marked with the allowed range
and Save waits until it is fixed.
"""

from __future__ import annotations

from PySide6.QtGui import QFocusEvent, QValidator
from PySide6.QtWidgets import QAbstractSpinBox, QDoubleSpinBox, QSpinBox


def typed_out_of_range(box: QAbstractSpinBox, low: float, high: float) -> float | None:
    """The number typed in ``box`` when it lies outside ``low``..``high``; None when it
    fits (or what is typed is no number at all)."""
    number = _number(box.lineEdit().text().strip(), box)
    if number is None:
        return None
    return number if not low <= number <= high else None


def _kept(box: QAbstractSpinBox, state: QValidator.State, text: str) -> QValidator.State:
    """An out-of-range number stays in the box (Intermediate) instead of the keystroke
    being refused."""
    if state is QValidator.State.Invalid and _number(text.strip(), box) is not None:
        return QValidator.State.Intermediate
    return state


def _number(text: str, box: QAbstractSpinBox) -> float | None:
    locale = box.locale()
    cleaned = text.replace(locale.groupSeparator(), "").replace("\u00a0", "").replace(" ", "")
    try:
        return float(cleaned.replace(locale.decimalPoint(), "."))
    except ValueError:
        return None


class RangeSpinBox(QSpinBox):
    def typed(self) -> float | None:
        return typed_out_of_range(self, self.minimum(), self.maximum())

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        state, text, pos = super().validate(text, pos)
        return _kept(self, state, text), text, pos

    def focusOutEvent(self, event: QFocusEvent) -> None:
        typed = self.lineEdit().text() if self.typed() is not None else None
        super().focusOutEvent(event)  # puts back the last value in range...
        if typed is not None:
            self.lineEdit().setText(typed)  # ...which would be a silent change


class RangeDoubleSpinBox(QDoubleSpinBox):
    def typed(self) -> float | None:
        return typed_out_of_range(self, self.minimum(), self.maximum())

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        state, text, pos = super().validate(text, pos)
        return _kept(self, state, text), text, pos

    def focusOutEvent(self, event: QFocusEvent) -> None:
        typed = self.lineEdit().text() if self.typed() is not None else None
        super().focusOutEvent(event)
        if typed is not None:
            self.lineEdit().setText(typed)
