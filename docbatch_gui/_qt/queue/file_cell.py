"""The queue's File cell: the file name, and under a failed row why it failed (under
a held one, in amber, why it is held).

The Error column is off-screen on a small window (the detail pane takes the right
side), so the reason is painted where the eye already is: under the name, in red,
wrapped over the lines the row has room for and elided after them. The whole text
is in the tooltip and the detail pane.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QRect, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QTextLayout
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from docbatch_gui._qt.queue.jobs_model import ErrorLineRole, HeldRole, StateRole
from docbatch_gui.domain.states import JobState

ERROR_COLOR = QColor("#b3261e")
CANCELED_COLOR = QColor("#6b7280")
#: a held job waits for the operator: a warning, not an error
HELD_COLOR = QColor("#8a5a00")
PADDING = 4


class FileCellDelegate(QStyledItemDelegate):
    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        reason = index.data(ErrorLineRole)
        if not reason:
            super().paint(painter, option, index)
            return
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        name = item.text
        item.text = ""  # the background and selection only; the text is ours
        style = option.widget.style() if option.widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, option.widget)

        rect = option.rect.adjusted(PADDING, 2, -PADDING, -2)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        painter.save()
        metrics = QFontMetrics(option.font)
        painter.setPen(option.palette.color(role))
        painter.setFont(option.font)
        first = QRect(rect.left(), rect.top(), rect.width(), metrics.height())
        elided = metrics.elidedText(name, Qt.TextElideMode.ElideMiddle, rect.width())
        painter.drawText(first, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, elided)

        small = QFont(option.font)
        small.setPointSizeF(max(option.font.pointSizeF() - 1, 7.0))
        canceled = index.data(StateRole) == JobState.CANCELED.value
        color = CANCELED_COLOR if canceled else ERROR_COLOR
        if index.data(HeldRole):
            color = HELD_COLOR
        painter.setPen(option.palette.color(role) if selected else color)
        painter.setFont(small)
        below = rect.adjusted(0, metrics.height() + 1, 0, 0)
        draw_wrapped(painter, below, str(reason), small)
        painter.restore()


def draw_wrapped(painter: QPainter, rect: QRect, text: str, font: QFont) -> None:
    """Word-wrap ``text`` into ``rect``: as many whole lines as fit, the last one
    elided when the text goes on."""
    metrics = QFontMetrics(font)
    fitting = max(1, rect.height() // metrics.lineSpacing())
    layout = QTextLayout(text, font)
    layout.beginLayout()
    lines: list[tuple[int, int]] = []
    while len(lines) < fitting:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(rect.width())
        lines.append((line.textStart(), line.textLength()))
    layout.endLayout()
    y = rect.top()
    for number, (start, length) in enumerate(lines):
        last = number == len(lines) - 1
        piece = text[start:] if last else text[start : start + length]
        if last:
            piece = metrics.elidedText(piece, Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(QPointF(rect.left(), y + metrics.ascent()), piece.rstrip())
        y += metrics.lineSpacing()
