"""The log panel: the engine's job events in the interface language and, with the
*Technical* filter, the English lines ``logging`` emits; filterable and copyable.

Lines come from the engine thread, executor threads and the GUI thread alike. The
handler never touches a widget: it formats the record where it was emitted, appends
it to a locked list and, once per burst, asks the GUI thread (a queued signal) to
take them all. The GUI takes at most one batch every ``FLUSH_MS``, so a chatty run
costs one ``rowsInserted`` per tick, and only the last ``MAX_RECORDS`` are kept.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QSortFilterProxyModel, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.widgets.fit import widen_to_labels
from docbatch_gui._qt.widgets.layout import filled
from docbatch_gui._qt.widgets.table_model import Index, TableModel
from docbatch_gui.i18n import _, pgettext

MAX_RECORDS = 10_000
FLUSH_MS = 100

COL_TIME, COL_LEVEL, COL_LOGGER, COL_MESSAGE = range(4)

LevelRole = Qt.ItemDataRole.UserRole + 1
LineRole = Qt.ItemDataRole.UserRole + 2
#: what the text filter searches: the logger, its area in words and the message
SearchRole = Qt.ItemDataRole.UserRole + 3

LEVEL_COLORS = {
    logging.DEBUG: "#8a8f98",
    logging.INFO: "#1a73e8",
    logging.WARNING: "#e37400",
    logging.ERROR: "#d93025",
    logging.CRITICAL: "#a50e0e",
}


@dataclass(frozen=True)
class LogLine:
    """A record reduced to text where it was emitted: no reference to its args or
    exception objects crosses to the GUI thread.

    ``technical`` marks a log record (English, as the log file has it); the others are
    job events worded in the interface language (``log_events``). Technical lines are
    shown only when the operator asks for them."""

    created: float
    level: int
    level_name: str
    logger: str
    message: str
    technical: bool = True

    @property
    def time(self) -> str:
        return datetime.fromtimestamp(self.created).strftime("%H:%M:%S.%f")[:-3]

    @property
    def text(self) -> str:
        return f"{self.time} {self.level_name:<8} {self.logger}: {self.message}"


class LogModel(TableModel):
    """The last ``limit`` lines; appends and trims in blocks, never a reset."""

    def __init__(self, limit: int = MAX_RECORDS, parent: QObject | None = None) -> None:
        columns = [
            (_("Time"), lambda line: line.time),
            (_("Level"), lambda line: self.level_text(line.level)),
            (_("Source"), lambda line: self.area(line.logger)),
            (_("Message"), lambda line: self.message_text(line)),
        ]
        roles = {LevelRole: lambda line: line.level, LineRole: lambda line: line.text}
        super().__init__(parent=parent, roles=roles, columns=columns)
        self.limit = limit
        self._items: list[LogLine] = []
        self._levels = {
            logging.DEBUG: _("Debug"),
            logging.INFO: _("Info"),
            logging.WARNING: _("Warning"),
            logging.ERROR: _("Error"),
            logging.CRITICAL: pgettext("log level", "Critical"),
        }
        #: the part of DocBatch a line comes from, by package (the logger's full name
        #: is in the tooltip and in a copy)
        self._areas = {
            "_qt": _("Window"),
            "app": _("Application"),
            "checks": _("Checks"),
            "cli": _("Command line"),
            "coordination": _("Coordination"),
            "diagnostics": _("Diagnostics"),
            "distributed": "Celery",
            "domain": _("Core"),
            "engine": _("Processing"),
            "llm": "Claude",
            "outbound": _("Sending out"),
            "pipeline": _("Pages"),
            "registry": _("Registry"),
            "settings": _("Settings"),
            "sources": _("Sources"),
            "storage": _("Storage"),
        }
        self._network = _("Network")
        self._library = _("Library")

    def level_text(self, level: int) -> str:
        return by_level(self._levels, level)

    def area(self, logger: str) -> str:
        """Where a line comes from, in words: a DocBatch package or a library."""
        top, _dot, rest = logger.partition(".")
        if top == "docbatch_gui":
            return self._areas.get(rest.partition(".")[0], _("Application"))
        if {top, top.rstrip("0123456789")} & {"httpx", "httpcore", "anthropic", "urllib3"}:
            return self._network
        return self._library

    def message_text(self, line: LogLine) -> str:
        return line.message.splitlines()[0] if line.message else ""

    def append(self, lines: list[LogLine]) -> None:
        lines = lines[-self.limit :]
        overflow = len(self._items) + len(lines) - self.limit
        if overflow > 0:
            self.beginRemoveRows(QModelIndex(), 0, overflow - 1)
            del self._items[:overflow]
            self.endRemoveRows()
        if lines:
            start = len(self._items)
            self.beginInsertRows(QModelIndex(), start, start + len(lines) - 1)
            self._items.extend(lines)
            self.endInsertRows()

    def clear(self) -> None:
        if self._items:
            self.beginRemoveRows(QModelIndex(), 0, len(self._items) - 1)
            self._items.clear()
            self.endRemoveRows()

    def line(self, row: int) -> LogLine:
        return self._items[row]

    def item_data(self, line: LogLine, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.ForegroundRole and column == COL_LEVEL:
            return QColor(by_level(LEVEL_COLORS, line.level))
        if role == Qt.ItemDataRole.FontRole and column == COL_LEVEL and line.level >= 30:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole and column == COL_MESSAGE:
            return line.message
        if role == Qt.ItemDataRole.ToolTipRole and column == COL_LOGGER:
            return line.logger
        if role == SearchRole:
            return f"{line.logger} {self.area(line.logger)} {line.message}".lower()
        return None


def by_level(values: dict[int, str], level: int) -> str:
    """The value of the nearest standard level at or below ``level`` (a custom level
    25 reads as INFO); DEBUG's below them all."""
    known = [lv for lv in values if lv <= level]
    return values[max(known)] if known else values[logging.DEBUG]


class LogFilter(QSortFilterProxyModel):
    """A minimum level, a case-insensitive text found in the source or message, and
    whether technical lines (the log records) are shown."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.min_level = logging.NOTSET
        self.text = ""
        self.technical = False

    def set_technical(self, shown: bool) -> None:
        self.beginFilterChange()
        self.technical = shown
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_min_level(self, level: int) -> None:
        self.beginFilterChange()
        self.min_level = level
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_text(self, text: str) -> None:
        self.beginFilterChange()
        self.text = text.strip().lower()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        model = self.sourceModel()
        assert isinstance(model, LogModel)
        line = model.line(source_row)
        if line.level < self.min_level or (line.technical and not self.technical):
            return False
        if not self.text:
            return True
        return self.text in str(model.index(source_row, 0).data(SearchRole))


class LogPanel(QWidget):
    """Level, text and *Technical* filters over the log, with Copy (selection, else
    all shown) and Clear."""

    #: emitted (from any thread) when the handler has lines waiting
    _pending_ready = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = LogModel(parent=self)
        self.proxy = LogFilter(self)
        self.proxy.setSourceModel(self.model)
        self._pending: list[LogLine] = []
        self._lock = threading.Lock()
        self._armed = False
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(FLUSH_MS)
        self._flush_timer.timeout.connect(self.flush)
        self._pending_ready.connect(self._arm, Qt.ConnectionType.QueuedConnection)

        self.level = QComboBox()
        for name, level in (
            (_("All levels"), logging.NOTSET),
            (_("Info and above"), logging.INFO),
            (_("Warnings and errors"), logging.WARNING),
            (_("Errors only"), logging.ERROR),
        ):
            self.level.addItem(name, level)
        self.level.currentIndexChanged.connect(
            lambda: self.proxy.set_min_level(int(self.level.currentData()))
        )
        self.search = QLineEdit()
        self.search.setPlaceholderText(_("Filter messages…"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.proxy.set_text)
        self.technical = QCheckBox(_("Technical"))
        self.technical.setToolTip(_("Also show the log file's lines, in English"))
        self.technical.toggled.connect(self.proxy.set_technical)
        self.copy_button = QPushButton(_("Copy"))
        self.copy_button.setToolTip(_("Copy the selected lines, or every line shown"))
        self.copy_button.clicked.connect(self.copy)
        self.clear_button = QPushButton(_("Clear"))
        self.clear_button.clicked.connect(self.model.clear)

        self.view = QTableView()
        self.view.setModel(self.proxy)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setShowGrid(False)
        self.view.setWordWrap(False)
        self.view.setAlternatingRowColors(True)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setDefaultSectionSize(22)
        header = self.view.horizontalHeader()
        header.setStretchLastSection(True)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        for column, width in ((COL_TIME, 100), (COL_LEVEL, 80), (COL_LOGGER, 220)):
            header.resizeSection(column, width)
        header.setSectionResizeMode(COL_TIME, QHeaderView.ResizeMode.Interactive)
        widen_to_labels(header)

        buttons = (self.technical, self.copy_button, self.clear_button)
        bar = filled(QHBoxLayout(), self.level, (self.search, 1), *buttons)
        filled(QVBoxLayout(self), bar, self.view, margins=4)

    # -- from any thread ------------------------------------------------------------------

    def post(self, line: LogLine) -> None:
        """Queue a line; safe from any thread. One signal per burst, not per line."""
        with self._lock:
            self._pending.append(line)
            if len(self._pending) > MAX_RECORDS:
                del self._pending[: len(self._pending) - MAX_RECORDS]
            arm = not self._armed
            self._armed = True
        if arm:
            self._pending_ready.emit()

    # -- on the GUI thread ------------------------------------------------------------------

    def _arm(self) -> None:
        if not self._flush_timer.isActive():
            self._flush_timer.start()

    def flush(self) -> None:
        """Move waiting lines into the model; keep the view at the bottom if it was."""
        with self._lock:
            lines, self._pending = self._pending, []
            self._armed = False
        if not lines:
            return
        bar = self.view.verticalScrollBar()
        at_bottom = bar.value() >= bar.maximum() - 2
        self.model.append(lines)
        if at_bottom:
            self.view.scrollToBottom()

    def lines_shown(self) -> list[str]:
        return [
            str(self.proxy.index(row, 0).data(LineRole)) for row in range(self.proxy.rowCount())
        ]

    def copy(self) -> None:
        rows = sorted({i.row() for i in self.view.selectionModel().selectedRows()})
        if rows:
            text = "\n".join(str(self.proxy.index(r, 0).data(LineRole)) for r in rows)
        else:
            text = "\n".join(self.lines_shown())
        clipboard = QGuiApplication.clipboard()
        clipboard.setText(text)
