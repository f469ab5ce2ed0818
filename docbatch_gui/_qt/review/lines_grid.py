"""The Review tab's grid of a document's lines, beside its page.

``LinesModel`` is an editable table model with named columns (the profile's line
fields, then the page) and roles for what views and tests ask (:data:`KEY_ROLE`,
the column's key in the header; :data:`LINE_ROLE`, the row's :class:`Line`).
``LinesGrid`` shows it with a totals bar (the rows' sums against the totals the
document prints, updated as the person types), keys that move like a spreadsheet
(Enter goes down, Tab right, Delete clears, Insert adds a row below, Ctrl+Delete
deletes the selected rows, Ctrl+C copies them as tab-separated text for Excel), and
says which row is chosen so the page turns to it and draws its box. Typed values
stay as typed until Save: the review service stores and audits them.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.review.lines_columns import LineColumns, two_lines
from docbatch_gui._qt.widgets.columns import column_actions, offer_columns_menu
from docbatch_gui._qt.widgets.layout import filled
from docbatch_gui._qt.widgets.page_canvas import ValueBox
from docbatch_gui._qt.widgets.page_view import PageView
from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.lines import Line, decimal
from docbatch_gui.domain.models import Document
from docbatch_gui.i18n import _, pgettext, translation
from docbatch_gui.pipeline.tables import line_number

KEY_ROLE = Qt.ItemDataRole.UserRole + 1
LINE_ROLE = Qt.ItemDataRole.UserRole + 2
_Index = QModelIndex | QPersistentModelIndex
_TOTALS = (("net", "net"), ("vat", "vat"), ("gross", "amount"))


class LinesModel(QAbstractTableModel):
    """A document's lines as rows; columns are the profile's line keys and ``page``."""

    #: the lines changed (an edit, a row added, deleted or split)
    edited = Signal()

    def __init__(self, profile: Profile, language: str, parent: Any = None) -> None:
        super().__init__(parent)
        self.profile = profile
        self.keys = [*profile.line_keys, "page"]
        self.titles = [profile.line_label(k, language) for k in profile.line_keys]
        # the page column's title, as the registry's narrow page column words it
        self.titles.append(translation(language).pgettext("narrow column", "Page"))
        #: the header's titles: short forms where the profile gives them, on two lines
        self.headers = [two_lines(profile.line_title(k, language)) for k in profile.line_keys]
        self.headers.append(self.titles[-1])
        self.rows: list[Line] = []
        self.modified = False

    # -- the model ---------------------------------------------------------------------

    def set_lines(self, lines: list[Line]) -> None:
        self.beginResetModel()
        self.rows = list(lines)
        self.modified = False
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.keys)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal:
            if role == Qt.ItemDataRole.DisplayRole:
                return self.headers[section]
            if role == Qt.ItemDataRole.ToolTipRole:
                return self.titles[section]
            if role == KEY_ROLE:
                return self.keys[section]
        elif role == Qt.ItemDataRole.DisplayRole:
            return str(section + 1)
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        line = self.rows[index.row()]
        key = self.keys[index.column()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            value = line.page if key == "page" else line.value(key)
            return "" if value is None else str(value)
        if role == Qt.ItemDataRole.ToolTipRole and not self._numeric(key):
            return line.value(key) or None  # the whole of a name cut to fit
        if role == Qt.ItemDataRole.TextAlignmentRole and self._numeric(key):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == LINE_ROLE:
            return line
        if role == KEY_ROLE:
            return key
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        base = super().flags(index)
        return base | Qt.ItemFlag.ItemIsEditable if index.isValid() else base

    def setData(self, index: _Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or role != Qt.ItemDataRole.EditRole:
            return False
        key = self.keys[index.column()]
        text = str(value).strip() if value is not None else ""
        line = self.rows[index.row()]
        if key == "page":
            if text and not text.isdigit():
                return False
            line = replace(line, page=int(text) if text else None)
        else:
            line = line.with_value(key, text or None)
        if line == self.rows[index.row()]:
            return True
        self.rows[index.row()] = line
        self._changed()
        self.dataChanged.emit(index, index, [Qt.ItemDataRole.DisplayRole])
        return True

    # -- rows ------------------------------------------------------------------------

    def add_row(self, after: int) -> int:
        """A new empty row below ``after`` (on the same page); returns its row."""
        row = min(max(after + 1, 0), len(self.rows))
        page = self.rows[after].page if 0 <= after < len(self.rows) else None
        self.beginInsertRows(QModelIndex(), row, row)
        self.rows.insert(row, Line(page=page))
        self.endInsertRows()
        self._changed()
        return row

    def delete_rows(self, rows: list[int]) -> None:
        for row in sorted(set(rows), reverse=True):
            if 0 <= row < len(self.rows):
                self.beginRemoveRows(QModelIndex(), row, row)
                del self.rows[row]
                self.endRemoveRows()
        self._changed()

    def split_row(self, row: int) -> int:
        """Part a row that holds two goods: the new row below keeps the page, box and
        unit, and takes the name's second half; its numbers are the person's to type."""
        if not 0 <= row < len(self.rows):
            return -1
        line = self.rows[row]
        words = (line.name or "").split()
        half = (len(words) + 1) // 2
        first = line.with_value("name", " ".join(words[:half]) or None)
        second = Line(name=" ".join(words[half:]) or None, unit=line.unit, page=line.page,
                      box=line.box, vat_rate=line.vat_rate)  # fmt: skip
        self.rows[row] = first
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.keys) - 1))
        self.beginInsertRows(QModelIndex(), row + 1, row + 1)
        self.rows.insert(row + 1, second)
        self.endInsertRows()
        self._changed()
        return row + 1

    def as_tsv(self, rows: list[int]) -> str:
        """Rows as tab-separated text with a header line, as Excel pastes it."""
        lines = ["\t".join(self.titles)]
        for row in sorted(set(rows)):
            cells = [self.data(self.index(row, c)) or "" for c in range(len(self.keys))]
            lines.append("\t".join(str(c).replace("\t", " ").replace("\n", " ") for c in cells))
        return "\n".join(lines) + "\n"

    def sums(self) -> dict[str, Decimal | None]:
        """The rows' sums of net, VAT and gross, read as the readers read numbers."""
        out: dict[str, Decimal | None] = {}
        for key in ("net", "vat", "gross"):
            values = [decimal(line_number(line.value(key) or "")) for line in self.rows]
            present = [v for v in values if v is not None]
            out[key] = sum(present, Decimal(0)) if present else None
        return out

    def _numeric(self, key: str) -> bool:
        spec = next((f for f in self.profile.line_fields if f.key == key), None)
        return key == "page" or (spec is not None and spec.kind == "number")

    def _changed(self) -> None:
        self.modified = True
        self.edited.emit()


class LinesView(QTableView):
    """A table that moves like a spreadsheet."""

    copy_rows = Signal()
    add_below = Signal()
    delete_selected = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        editing = self.state() == QAbstractItemView.State.EditingState
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_rows.emit()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not editing:
            current = self.currentIndex()
            below = current.sibling(current.row() + 1, current.column())
            if below.isValid():
                self.setCurrentIndex(below)
        elif key == Qt.Key.Key_Delete and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.delete_selected.emit()
        elif key == Qt.Key.Key_Delete and not editing:
            for index in self.selectedIndexes():
                self.model().setData(index, "")
        elif key == Qt.Key.Key_Insert:
            self.add_below.emit()
        else:
            super().keyPressEvent(event)


class LinesGrid(QWidget):
    """The grid, its buttons and its totals bar."""

    #: a row was chosen: its page (0 when unknown) and its box (empty when unknown)
    row_chosen = Signal(int, int, list)

    def __init__(self, profile: Profile, language: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = LinesModel(profile, language, self)
        self.document: Document | None = None
        self.view = LinesView()
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.view.setAlternatingRowColors(True)
        self.view.verticalHeader().setDefaultSectionSize(22)
        self.view.verticalHeader().hide()  # the printed No. column numbers the rows
        self.view.horizontalHeader().setStretchLastSection(False)
        self.view.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.columns = LineColumns(self.view, self.model.keys)
        offer_columns_menu(self.view, self.columns.fixed(), self, self.columns.choose)
        self.view.copy_rows.connect(self.copy)
        self.view.add_below.connect(self.add_row)
        self.view.delete_selected.connect(self.delete_rows)
        self.view.selectionModel().currentRowChanged.connect(self._row_changed)
        self.model.edited.connect(self._update_totals)
        self.totals = QLabel()
        self.totals.setTextFormat(Qt.TextFormat.PlainText)
        self.totals.setWordWrap(True)
        # one short word each, beside the title: one bar, so the grid keeps its rows on
        # a 640-pixel-high screen (the tooltips say the whole action and its key)
        self.add_button = QPushButton(pgettext("lines grid", "Add"))
        self.delete_button = QPushButton(pgettext("lines grid", "Delete"))
        self.split_button = QPushButton(pgettext("lines grid", "Split"))
        self.copy_button = QPushButton(pgettext("lines grid", "Copy"))
        self.add_button.setToolTip(_("A new row below the current one (Insert)"))
        self.delete_button.setToolTip(_("Delete the selected rows (Ctrl+Delete)"))
        self.split_button.setToolTip(_("Part a row that holds two goods into two"))
        self.copy_button.setToolTip(_("Copy the selected rows for Excel (Ctrl+C)"))
        self.add_button.clicked.connect(self.add_row)
        self.delete_button.clicked.connect(self.delete_rows)
        self.split_button.clicked.connect(self.split_row)
        self.copy_button.clicked.connect(self.copy)
        self.title = QLabel(_("Lines"))
        self.title.setStyleSheet("font-weight: bold;")
        buttons = (self.add_button, self.split_button, self.delete_button, self.copy_button)
        bar = filled(QHBoxLayout(), (self.title, 1), *buttons)
        filled(QVBoxLayout(self), bar, (self.view, 1), self.totals, margins=0)

    def show_document(self, document: Document | None) -> None:
        self.document = document
        self.model.set_lines(list(document.lines) if document else [])
        self.title.setText(_("Lines ({rows})").format(rows=len(self.model.rows)))
        self.columns.fit()  # the sums in sight: secondary columns go, the name elides
        self._update_totals()

    def column_actions(self) -> list[QAction]:
        """The header menu's actions: the columns that may be hidden to fit."""
        return column_actions(self.view, self.columns.fixed(), self, self.columns.choose)

    def lines(self) -> list[Line] | None:
        """The lines as the person left them; None when nothing was changed."""
        return list(self.model.rows) if self.model.modified else None

    def _selected_rows(self) -> list[int]:
        rows = {index.row() for index in self.view.selectedIndexes()}
        if not rows and self.view.currentIndex().isValid():
            rows = {self.view.currentIndex().row()}
        return sorted(rows)

    def add_row(self) -> None:
        current = self.view.currentIndex()
        row = self.model.add_row(current.row() if current.isValid() else len(self.model.rows) - 1)
        self.view.setCurrentIndex(self.model.index(row, max(current.column(), 0)))

    def delete_rows(self) -> None:
        self.model.delete_rows(self._selected_rows())

    def split_row(self) -> None:
        current = self.view.currentIndex()
        if current.isValid():
            row = self.model.split_row(current.row())
            self.view.setCurrentIndex(self.model.index(row, current.column()))

    def copy(self) -> None:
        rows = self._selected_rows() or list(range(len(self.model.rows)))
        QGuiApplication.clipboard().setText(self.model.as_tsv(rows))

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            return
        line = self.model.rows[current.row()]
        self.row_chosen.emit(current.row(), line.page or 0, list(line.box or []))

    def _update_totals(self) -> None:
        self.title.setText(_("Lines ({rows})").format(rows=len(self.model.rows)))
        document = self.document
        if document is None or not self.model.rows:
            self.totals.setText("")
            self.totals.setStyleSheet("")
            return
        sums = self.model.sums()
        printed = {
            "net": None,
            "vat": decimal(document.fields.get("vat_amount")),
            "amount": decimal(document.fields.get("amount")),
        }
        parts, apart = [], False
        names = {"net": _("net"), "vat": _("VAT"), "gross": _("total")}
        for key, field in _TOTALS:
            value = sums[key]
            if value is None:
                continue
            target = printed[field]
            if key == "net" and sums["gross"] is None:
                target = printed["amount"]
            if target is None:
                parts.append(_("{name}: {value}").format(name=names[key], value=value))
                continue
            differs = abs(value - target) > Decimal("0.01")
            apart = apart or differs
            mark = "≠" if differs else "="
            parts.append(
                _("{name}: {value} {mark} {target} printed").format(
                    name=names[key], value=value, mark=mark, target=target
                )
            )
        if not parts:  # no row has a sum: nothing to say ("Rows' sums —" said nothing)
            self.totals.setText("")
            self.totals.setStyleSheet("")
            return
        self.totals.setText(_("Rows' sums — ") + " · ".join(parts))
        self.totals.setStyleSheet("color: #a02020;" if apart else "color: #206020;")


LINE_COLOR = "#1f6feb"


def show_line_box(page_view: PageView, row: int, page: int, box: list[float]) -> None:
    """Draw a chosen line's box on the page view, turning to its page; the boxes of
    other lines go (one line is shown at a time, beside the fields' boxes)."""
    key = f"line:{row}"
    boxes = {k: v for k, v in page_view.boxes.items() if not k.startswith("line:")}
    if not page or len(box) != 4 or page not in page_view.pages:
        page_view.boxes = boxes
        return
    tip = f"line {row + 1}"
    x0, y0, x1, y1 = box
    boxes[key] = ValueBox(key, page, (x0, y0, x1, y1), LINE_COLOR, tip)
    page_view.boxes = boxes
    page_view.canvas.chosen = key
    if page_view.shown == (page_view.job_id, page):
        page_view.canvas.set_boxes([b for b in boxes.values() if b.page == page])
        page_view.canvas.choose(key)
    else:
        page_view.go(page_view.pages.index(page))
