"""What every flat table model of the GUI shares: headers and counts.

Subclasses keep their rows in ``self._items`` (a list, one entry per row) and give
``data()``; ``changed_rows`` turns a set of changed rows into as few ``dataChanged``
signals as the rows allow, so a burst of updates never resets a view.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

Index = QModelIndex | QPersistentModelIndex


class TableModel(QAbstractTableModel):
    def __init__(self, headers: Sequence[str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._headers = list(headers)
        self._items: list[Any] = []

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._items)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._headers)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._headers[section]
        return None

    def changed_rows(self, rows: Iterable[int]) -> None:
        last_column = len(self._headers) - 1
        for first, last in blocks(sorted(set(rows))):
            self.dataChanged.emit(self.index(first, 0), self.index(last, last_column))


def blocks(rows: Sequence[int]) -> list[tuple[int, int]]:
    """Contiguous runs of sorted row numbers, as (first, last)."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and row == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs
