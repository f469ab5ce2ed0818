"""What every flat table model of the GUI shares: headers, counts and item roles.

Subclasses keep their rows in ``self._items`` (a list, one entry per row), name their
columns with what each shows of an item (``columns``), and the roles that read an
item whole (``roles``), and give the rest in ``item_data()``;
``changed_rows`` turns a set of changed rows into as few ``dataChanged`` signals as
the rows allow, so a burst of updates never resets a view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

Index = QModelIndex | QPersistentModelIndex
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
#: a column's title, and what it shows of a row's item
Column = tuple[str, Callable[[Any], Any]]


class TableModel(QAbstractTableModel):
    def __init__(
        self,
        headers: Sequence[str] = (),
        parent: QObject | None = None,
        roles: Mapping[int, Callable[[Any], Any]] | None = None,
        columns: Sequence[Column] = (),
    ) -> None:
        super().__init__(parent)
        self._headers = list(headers) or [title for title, _shown in columns]
        self._shown = [shown for _title, shown in columns]
        self._items: list[Any] = []
        #: role → what it reads of a row's item, whatever the column
        self._roles = roles or {}

    def reset(self, items: Iterable[Any]) -> None:
        self.beginResetModel()
        self._items = list(items)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._items)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._headers)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._headers[section] if section < len(self._headers) else None
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        item = self._items[index.row()]
        read = self._roles.get(role)
        if read is not None:
            return read(item)
        if role == Qt.ItemDataRole.DisplayRole and self._shown:
            return self._shown[index.column()](item)
        return self.item_data(item, index.column(), role)

    def shown(self, item: Any, column: int) -> Any:
        return self._shown[column](item)

    def item_data(self, item: Any, column: int, role: int) -> Any:
        return None

    def changed_rows(self, rows: Iterable[int]) -> None:
        last_column = self.columnCount() - 1
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
