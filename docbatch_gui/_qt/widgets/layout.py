"""Layouts filled in one call, so a row of buttons reads as the row it is."""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtWidgets import QBoxLayout, QLayout, QWidget

L = TypeVar("L", bound=QBoxLayout)
#: in ``filled``: a stretch (room that grows) at this place
STRETCH = None
Item = QWidget | QLayout | tuple[QWidget | QLayout, int] | int | None


def filled(layout: L, *items: Item, margins: int | tuple[int, int, int, int] | None = None) -> L:
    """``layout`` with ``items`` added in order: a widget or a layout, ``(it,
    stretch)`` with its stretch factor, a number for spacing, ``STRETCH``;
    ``margins``: all four, or (left, top, right, bottom)."""
    if margins is not None:
        layout.setContentsMargins(*(margins if isinstance(margins, tuple) else [margins] * 4))
    for item in items:
        it, stretch = item if isinstance(item, tuple) else (item, 0)
        if isinstance(it, QWidget):
            layout.addWidget(it, stretch)
        elif isinstance(it, QLayout):
            layout.addLayout(it, stretch)
        elif it is None:
            layout.addStretch(1)
        else:
            layout.addSpacing(it)
    return layout
