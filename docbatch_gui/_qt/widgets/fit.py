"""Widgets and sizes that keep the window usable on a small screen (1024×640).

A window is as small as the widest row of its widest tab allows, so one long label
(a count line, a Russian sentence) can push it off a laptop's screen. An
:class:`ElidedLabel` gives way instead, showing "…" and the whole text in its
tooltip; :func:`fit_to_screen` opens a dialog at its preferred size only where the
screen has room for it (the window's tabs scroll: ``_qt.lazy_tabs``).
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QGuiApplication, QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QSizePolicy,
    QWidget,
)

#: what a dialog leaves of the screen around it (window frame, panels)
SCREEN_MARGIN = 0.92


class ElidedLabel(QLabel):
    """One line of plain text that shrinks with "…" instead of widening its layout."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(text)

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(
            min(hint.width(), self.fontMetrics().horizontalAdvance("…") * 4), hint.height()
        )

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = self.contentsRect()
        shown = self.fontMetrics().elidedText(
            self.text(), Qt.TextElideMode.ElideRight, rect.width()
        )
        painter.drawText(rect, int(self.alignment()), shown)


class TwoLineLabel(ElidedLabel):
    """A list of counts ("5 jobs · 3 done · 1 to review · 1 failed") on one line where
    it fits, else broken into two at the separator nearest the middle (the Russian
    counts need twice the room of a 1024-pixel toolbar's last gap); "…" only when two
    lines are not enough either."""

    SEPARATOR = " · "

    def minimumSizeHint(self) -> QSize:
        """As wide as the wider of its two lines: the counts are read whole, and the
        bar's stretching neighbour (the queue's search field) gives way first."""
        metrics = self.fontMetrics()
        widest = max((metrics.horizontalAdvance(line) for line in self.lines(0)), default=0)
        margins = self.contentsMargins()
        width = widest + margins.left() + margins.right() if self.text() else 0
        return QSize(width, metrics.lineSpacing() * 2)

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(hint.width(), max(hint.height(), self.fontMetrics().lineSpacing() * 2))

    def lines(self, width: int) -> list[str]:
        """What is drawn in ``width`` pixels: one line, or two."""
        text, metrics = self.text(), self.fontMetrics()
        parts = text.split(self.SEPARATOR)
        if metrics.horizontalAdvance(text) <= width or len(parts) < 2:
            return [text]
        splits = [
            (self.SEPARATOR.join(parts[:n]), self.SEPARATOR.join(parts[n:]))
            for n in range(1, len(parts))
        ]
        first, second = min(
            splits,
            key=lambda pair: max(
                metrics.horizontalAdvance(pair[0]), metrics.horizontalAdvance(pair[1])
            ),
        )
        return [first + self.SEPARATOR.rstrip(), second]

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = self.contentsRect()
        metrics = self.fontMetrics()
        lines = [
            metrics.elidedText(line, Qt.TextElideMode.ElideRight, rect.width())
            for line in self.lines(rect.width())
        ]
        painter.drawText(
            rect, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), "\n".join(lines)
        )


def widen_to_labels(header: QHeaderView) -> None:
    """Every section the operator sizes (``Interactive``) at least as wide as its label:
    widths given in pixels were chosen for the English words, and the Russian ones are
    longer ("Истекает через" for "Expires in"). Call it after setting the widths."""
    for section in range(header.count()):
        if header.isSectionHidden(section):
            continue
        if header.sectionResizeMode(section) is not QHeaderView.ResizeMode.Interactive:
            continue
        needed = header.sectionSizeHint(section)
        if header.sectionSize(section) < needed:
            header.resizeSection(section, needed)


def available_size(widget: QWidget | None = None) -> QSize:
    """The room on the screen the widget is on (the primary one before it is shown)."""
    screen = widget.screen() if widget is not None else None
    screen = screen or QGuiApplication.primaryScreen()
    return screen.availableGeometry().size() if screen is not None else QSize(1024, 640)


def fit_to_screen(widget: QWidget, width: int, height: int) -> QSize:
    """Resize to ``width``×``height``, or to what the screen leaves when it is smaller."""
    room = available_size(widget.parentWidget() or widget)
    size = QSize(
        min(width, int(room.width() * SCREEN_MARGIN)),
        min(height, int(room.height() * SCREEN_MARGIN)),
    )
    widget.resize(size)
    return size
