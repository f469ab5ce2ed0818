"""Number boxes that show a number out of range instead of dropping it.

A plain spin box refuses the keystroke that would leave its range: typing 50 into a
1–20 box leaves 5, and the operator saves a value nobody typed. These keep what was
typed, even after the box loses focus, so the field is marked with the allowed range
and Save waits until it is fixed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QFocusEvent, QValidator
from PySide6.QtWidgets import QAbstractSpinBox, QDoubleSpinBox, QSpinBox

# A mixin placed before the Qt class; typed as a spin box so its calls are checked.
_Base = QAbstractSpinBox if TYPE_CHECKING else object


class _KeepsTyped(_Base):
    """What both boxes share: the typed number when it is out of range."""

    def typed(self) -> float | None:
        """The number typed when it lies outside the range; None when it fits (or
        what is typed is no number at all)."""
        text = self.lineEdit().text().strip()
        number = _number(text, self.locale().groupSeparator(), self.locale().decimalPoint())
        if number is None:
            return None
        low, high = self._bounds()
        return number if not low <= number <= high else None

    def _bounds(self) -> tuple[float, float]:
        raise NotImplementedError

    def _validated(self, state: QValidator.State, text: str) -> QValidator.State:
        """An out-of-range number stays in the box (Intermediate) instead of the
        keystroke being refused."""
        if state is QValidator.State.Invalid:
            separator, point = self.locale().groupSeparator(), self.locale().decimalPoint()
            if _number(text.strip(), separator, point) is not None:
                return QValidator.State.Intermediate
        return state

    def focusOutEvent(self, event: QFocusEvent) -> None:
        typed = self.lineEdit().text() if self.typed() is not None else None
        super().focusOutEvent(event)  # resets the text to the last value in range
        if typed is not None:
            self.lineEdit().setText(typed)  # ...which would be a silent change


class RangeSpinBox(_KeepsTyped, QSpinBox):
    def validate(self, text: str, pos: int) -> object:
        state, text, pos = super().validate(text, pos)  # type: ignore[misc]
        return self._validated(state, text), text, pos

    def _bounds(self) -> tuple[float, float]:
        return self.minimum(), self.maximum()


class RangeDoubleSpinBox(_KeepsTyped, QDoubleSpinBox):
    def validate(self, text: str, pos: int) -> object:
        state, text, pos = super().validate(text, pos)  # type: ignore[misc]
        return self._validated(state, text), text, pos

    def _bounds(self) -> tuple[float, float]:
        return self.minimum(), self.maximum()


def _number(text: str, separator: str, point: str) -> float | None:
    cleaned = text.replace(separator, "").replace("\u00a0", "").replace(" ", "")
    cleaned = cleaned.replace(point, ".")
    try:
        return float(cleaned)
    except ValueError:
        return None
