"""Widgets and sizes that keep the window usable on a small screen (1024×640).

A window is as small as the widest row of its widest tab allows, so one long label
(a count line, a Russian sentence) can push it off a laptop's screen. An
:class:`ElidedLabel` gives way instead, showing "…" and the whole text in its
tooltip; :func:`fit_to_screen` opens a dialog at its preferred size only where the
screen has room for it; :class:`ScrollingTabs` lets a tab scroll instead of making the
window taller than the screen (the Log panel docked under a tall tab, say).
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QGuiApplication, QPainter, QPaintEvent
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QSizePolicy, QTabWidget, QWidget

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


class ScrollingTabs(QTabWidget):
    """Tabs whose pages scroll when the window is smaller than a page's minimum.

    Each page goes into a frameless scroll area that gives it all the room there is,
    so at a normal size nothing changes; ``setCurrentWidget`` and :meth:`page` take
    and give the page itself, not its scroll area.
    """

    def addTab(self, page: QWidget, label: str) -> int:  # type: ignore[override]
        area = QScrollArea()
        area.setObjectName(f"{type(page).__name__}Scroll")
        area.setWidget(page)
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        return super().addTab(area, label)

    def page(self, index: int) -> QWidget | None:
        """The page at ``index`` (inside its scroll area)."""
        area = self.widget(index)
        return area.widget() if isinstance(area, QScrollArea) else area

    def setCurrentWidget(self, widget: QWidget) -> None:
        for index in range(self.count()):
            if self.page(index) is widget:
                self.setCurrentIndex(index)
                return
        super().setCurrentWidget(widget)
