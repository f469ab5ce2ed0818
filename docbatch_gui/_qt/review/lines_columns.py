"""The lines grid's columns fitted to the room beside the form: no sideways scrolling.

Review's middle pane is about 440 pixels wide on a 1024-pixel screen, and a УПД's
lines have eleven columns: the grid scrolled sideways and the sums were out of sight.
The columns an operator checks a line by (its number, name, quantity, price, net,
VAT and total) always stay; the others (code, unit, VAT rate, page) are shown where
they fit and hidden first, in that order, where they do not. The operator shows or
hides any of them from the header's menu and that choice is kept over the fitting.
Numbers get their whole width; the name takes what is left and elides (its tooltip
holds the whole text). Titles of more than one word wrap onto two lines in the
header (``LinesModel`` breaks them) so "Сумма без НДС" costs the width of "без НДС".
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QTableView

#: never hidden to fit: what a line is checked by
MAIN_KEYS = ("no", "name", "qty", "price", "net", "vat", "gross")
#: hidden to fit, the first to go first
SECONDARY_KEYS = ("page", "code", "vat_rate", "unit")
#: the widest a column opens at for its content (the person widens it by dragging)
CAP_PX = 220
#: the name's own floor: a few words of it stay readable
NAME_MIN_PX = 80
#: the name's width before a secondary column is shown beside it
NAME_COMFORT_PX = 180


class LineColumns(QObject):
    """Keeps the grid's shown columns within its viewport, refitted on every resize and
    every document shown (``fit``)."""

    def __init__(self, view: QTableView, keys: list[str]) -> None:
        super().__init__(view)
        self.view = view
        self.keys = keys
        #: the operator's choices from the header's menu, by column key
        self.chosen: dict[str, bool] = {}
        self._fitting = False
        # the viewport's own resize: the view's comes before its viewport is laid out
        # (a fit then measured the old width), and a vertical scroll bar showing up
        # narrows the viewport alone
        self.viewport = view.viewport()
        self.viewport.installEventFilter(self)

    def fixed(self) -> tuple[int, ...]:
        """The columns the header's menu leaves out: those never hidden."""
        return tuple(c for c, key in enumerate(self.keys) if key not in SECONDARY_KEYS)

    def choose(self, column: int, shown: bool) -> None:
        self.chosen[self.keys[column]] = shown
        self.fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and watched is self.viewport:
            self.fit()
        return False

    def fit(self) -> None:
        if self._fitting or not self.keys:
            return
        self._fitting = True
        try:
            self._fit()
        finally:
            self._fitting = False

    def _fit(self) -> None:
        view, header = self.view, self.view.horizontalHeader()
        count = len(self.keys)
        room = view.viewport().width() or view.width()
        scroll = view.verticalScrollBar()
        rows = view.model().rowCount()
        if not scroll.isVisible() and rows * view.verticalHeader().defaultSectionSize() > (
            view.viewport().height()
        ):
            room -= scroll.sizeHint().width()  # about to show: leave it its room
        for column in range(count):  # a hidden section's size hint is 0: measure all shown
            header.setSectionHidden(column, False)
        floors = {c: max(header.sectionSizeHint(c), 24) for c in range(count)}
        wants = {c: max(floors[c], min(view.sizeHintForColumn(c), CAP_PX)) for c in range(count)}
        name = self.keys.index("name") if "name" in self.keys else None
        if name is not None:
            floors[name] = max(floors[name], min(wants[name], NAME_MIN_PX))
        shown = {c: self.chosen.get(self.keys[c], True) for c in range(count)}
        comfort = max(floors[name], min(wants[name], NAME_COMFORT_PX)) if name is not None else 0
        order = [self.keys.index(k) for k in SECONDARY_KEYS if k in self.keys]
        for column in order:  # the secondary ones where the others leave room
            needed = sum(wants[c] if c != name else comfort for c in shown if shown[c])
            if needed <= room:
                break
            if self.keys[column] not in self.chosen:
                shown[column] = False
        widths = {c: wants[c] for c in range(count) if shown[c]}
        if name is not None and shown[name]:
            others = sum(w for c, w in widths.items() if c != name)
            widths[name] = max(floors[name], room - others)
        for column in range(count):
            header.setSectionHidden(column, not shown[column])
        for column, width in widths.items():
            header.resizeSection(column, width)


def two_lines(title: str) -> str:
    """A title of more than one word broken at the space nearest its middle."""
    spaces = [i for i, ch in enumerate(title) if ch == " "]
    if not spaces:
        return title
    middle = len(title) / 2
    cut = min(spaces, key=lambda i: abs(i - middle))
    return f"{title[:cut]}\n{title[cut + 1 :]}"
