"""Icons drawn once in code: a coloured disc per job state, so the queue reads at a
glance without shipping image files (and stays sharp at any scale)."""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPixmap

from docbatch_gui.domain.states import JobState

STATE_COLORS: dict[JobState, tuple[str, str]] = {
    # state: (colour, glyph)
    JobState.QUEUED: ("#8a8f98", "…"),
    JobState.PREPARING: ("#1a73e8", "▶"),
    JobState.OCR: ("#1a73e8", "▶"),
    JobState.EXTRACTING: ("#1a73e8", "▶"),
    JobState.SUBMITTED: ("#7b1fa2", "⧗"),
    JobState.PROCESSING: ("#7b1fa2", "⧗"),
    JobState.BUILDING: ("#1a73e8", "▶"),
    JobState.DONE: ("#188038", "✓"),
    JobState.NEEDS_REVIEW: ("#e37400", "!"),
    JobState.FAILED: ("#d93025", "✕"),
    JobState.TIMED_OUT: ("#d93025", "⏱"),
    JobState.CANCELED: ("#5f6368", "–"),
    JobState.DUPLICATE: ("#5f6368", "="),
}


@cache
def disc_icon(color: str, glyph: str, size: int = 16) -> QIcon:
    pixmap = QPixmap(size * 2, size * 2)  # drawn at 2x, crisp on HiDPI too
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(color))
    painter.drawEllipse(QRectF(2, 2, size * 2 - 4, size * 2 - 4))
    painter.setPen(QColor("white"))
    font = QFont()
    font.setPixelSize(int(size * 1.1))
    font.setBold(True)
    painter.setFont(font)
    painter.drawText(QRectF(0, 0, size * 2, size * 2), Qt.AlignmentFlag.AlignCenter, glyph)
    painter.end()
    pixmap.setDevicePixelRatio(2)
    return QIcon(pixmap)


def state_icon(state: JobState) -> QIcon:
    color, glyph = STATE_COLORS.get(state, ("#8a8f98", "?"))
    return disc_icon(color, glyph)


#: from here a value's dot is green (the reader is sure of it)
SURE = 0.85
