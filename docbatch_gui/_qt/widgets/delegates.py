"""Item delegates: the queue's progress bar is painted, not a widget per row."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QApplication,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionProgressBar,
    QStyleOptionViewItem,
)

from docbatch_gui._qt.queue.jobs_model import ProgressRole


class ProgressDelegate(QStyledItemDelegate):
    """Paints ``ProgressRole`` (0..1) as a native progress bar."""

    def __init__(self, role: int = ProgressRole, parent: object | None = None) -> None:
        super().__init__(parent)  # type: ignore[arg-type]
        self.role = role

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        value = index.data(self.role)
        if value is None:
            super().paint(painter, option, index)
            return
        if option.state & QStyle.StateFlag.State_Selected:
            painter.fillRect(option.rect, option.palette.highlight())
        bar = QStyleOptionProgressBar()
        bar.rect = option.rect.adjusted(4, 5, -4, -5)
        bar.minimum = 0
        bar.maximum = 1000
        bar.progress = int(max(0.0, min(1.0, float(value))) * 1000)
        bar.text = f"{float(value):.0%}"
        bar.textVisible = True
        bar.textAlignment = Qt.AlignmentFlag.AlignCenter
        bar.state = QStyle.StateFlag.State_Enabled | QStyle.StateFlag.State_Horizontal
        style = option.widget.style() if option.widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ProgressBar, bar, painter)
