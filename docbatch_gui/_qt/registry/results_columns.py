"""The results table's columns fitted to the room it has: no sideways scrolling.

A registry maps any number of its columns, and each result row also carries its
document's file, type, pages, number, date and amount: at 1024 pixels that was twice
the table's width. Here every shown column gets what its content wants up to a cap,
never less than its whole title; when even the titles do not fit, columns are hidden
by priority (the document's secondary columns first, which the match pane beside the
table compares anyway, as soon as what they want does not fit; then the registry's own
columns from the last, when even their titles do not fit). What the
operator shows or hides from the header's menu is kept over the priorities. Values
cut to fit are elided and their tooltip holds the whole text; short ones (a date, an
amount) are never cut: their column shows them whole or goes.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QTableView

from docbatch_gui._qt.registry.models import (
    DOC_AMOUNT,
    DOC_DATE,
    DOC_FILE,
    DOC_NUMBER,
    DOC_PAGES,
    DOC_TYPE,
    RES_FIXED,
    RES_ROW,
    RES_SCORE,
    RES_WARN,
    ResultsModel,
)

#: the widest a column grows to for its content (its values elide past it)
CAP_PX = 220
#: content this narrow (a date, an amount, a number) is never elided: the column
#: shows it whole or is hidden
SHORT_PX = 90
#: the document's columns the match pane compares: hidden first, in this order
SECONDARY_DOC = (DOC_PAGES, DOC_TYPE, DOC_AMOUNT, DOC_DATE, DOC_NUMBER)


class ResultColumns(QObject):
    """Keeps ``table``'s shown columns within its viewport, refitted on every resize
    and load (``fit``)."""

    def __init__(self, table: QTableView, model: ResultsModel) -> None:
        super().__init__(table)
        self.table = table
        self.model = model
        #: the operator's choices from the header's menu, by column title
        self.chosen: dict[str, bool] = {}
        table.installEventFilter(self)

    def fixed(self) -> tuple[int, ...]:
        """Never hidden: the row, its score and warnings, the registry's first column
        (which moves with the registry's mapping)."""
        first = (RES_FIXED,) if self.model.fields else ()
        return (RES_ROW, RES_SCORE, RES_WARN, *first)

    def choose(self, column: int, shown: bool) -> None:
        self.chosen[self._title(column)] = shown
        self.fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.table and event.type() == QEvent.Type.Resize:
            self.fit()
        return False

    def _title(self, column: int) -> str:
        return str(self.model.headerData(column, Qt.Orientation.Horizontal) or column)

    def _hiding_order(self) -> list[int]:
        """The columns that may be hidden to fit, the first to go first."""
        fields = [RES_FIXED + n for n in range(len(self.model.fields))]
        docs = [self.model.doc_column(which) for which in SECONDARY_DOC]
        # the matched file is named above the match pane too: it goes before the
        # registry's first two columns (the registry's first column always stays)
        file = self.model.doc_column(DOC_FILE)
        return [*docs, *reversed(fields[2:]), file, *fields[1:2]]

    def fit(self) -> None:
        header = self.table.horizontalHeader()
        count = self.model.columnCount()
        if not count:
            return
        room = self.table.viewport().width() or self.table.width()
        scroll = self.table.verticalScrollBar()
        if not scroll.isVisible() and self.model.rowCount() * 30 > self.table.height():
            room -= scroll.sizeHint().width()  # about to show: leave it its room
        for column in range(count):  # a hidden section's size hint is 0: measure all shown
            header.setSectionHidden(column, False)
        floors = {c: max(header.sectionSizeHint(c), 24) for c in range(count)}
        wants = {c: max(floors[c], min(self.table.sizeHintForColumn(c), CAP_PX))
                 for c in range(count)}  # fmt: skip
        for column, want in wants.items():  # "01.03.20…" helps nobody
            if want <= SHORT_PX:
                floors[column] = want
        shown = {c: self.chosen.get(self._title(c), True) for c in range(count)}
        for column in self._hiding_order():  # the secondary ones: shown where they fit
            if sum(wants[c] for c in range(count) if shown[c]) <= room:
                break
            secondary = column >= self.model.doc_column(0) and column != self.model.doc_column(
                DOC_FILE
            )
            if self._title(column) not in self.chosen and secondary:
                shown[column] = False
        dropped = []
        for column in self._hiding_order():
            if sum(floors[c] for c in range(count) if shown[c]) <= room:
                break
            if self._title(column) not in self.chosen and shown[column]:
                shown[column] = False
                dropped.append(column)
        for column in reversed(dropped):  # the last one dropped may have left room for one
            if sum(floors[c] for c in range(count) if shown[c]) + floors[column] <= room:
                shown[column] = True  # dropped earlier (a date beside a wide file name)
        visible = [c for c in range(count) if shown[c]]
        widths = _share(room, {c: floors[c] for c in visible}, {c: wants[c] for c in visible})
        for column in range(count):
            header.setSectionHidden(column, not shown[column])
        for column, width in widths.items():
            header.resizeSection(column, width)


def _share(room: int, floors: dict[int, int], wants: dict[int, int]) -> dict[int, int]:
    """Widths between each column's floor and what it wants, summing to at most
    ``room`` where the floors allow: the widest wants are cut first (one cap for
    all), and room left over goes to the last column."""
    if sum(wants.values()) <= room:
        widths = dict(wants)
    else:
        low, high = 0, max(wants.values())
        while low < high:  # the largest cap whose widths fit
            cap = (low + high + 1) // 2
            if sum(max(floors[c], min(wants[c], cap)) for c in wants) <= room:
                low = cap
            else:
                high = cap - 1
        widths = {c: max(floors[c], min(wants[c], low)) for c in wants}
    spare = room - sum(widths.values())
    if spare > 0 and widths:
        last = max(widths)
        widths[last] += spare
    return widths
