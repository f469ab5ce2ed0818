"""Number boxes that show a number out of range instead of dropping it.

A plain spin box refuses the keystroke that would leave its range: typing 50 into a
1–20 box leaves 5, and the operator saves a value nobody typed. These keep what was
typed, even after the box loses focus, so the field is marked with the allowed range
and Save waits until it is fixed.
"""

from __future__ import annotations

from typing import cast

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


class _KeepsTyped:
    """The shared behaviour of both boxes, mixed in before the Qt class."""

    def typed(self) -> float | None:
        box = cast(QSpinBox | QDoubleSpinBox, self)
        return typed_out_of_range(box, box.minimum(), box.maximum())

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        box = cast(QAbstractSpinBox, self)
        state, text, pos = super().validate(text, pos)  # type: ignore[misc]
        return _kept(box, state, text), text, pos

    def focusOutEvent(self, event: QFocusEvent) -> None:
        box = cast(QAbstractSpinBox, self)
        typed = box.lineEdit().text() if self.typed() is not None else None
        super().focusOutEvent(event)  # type: ignore[misc]  # puts back the last value in range...
        if typed is not None:
            box.lineEdit().setText(typed)  # ...which would be a silent change


class RangeSpinBox(_KeepsTyped, QSpinBox):
    pass


class RangeDoubleSpinBox(_KeepsTyped, QDoubleSpinBox):
    pass
