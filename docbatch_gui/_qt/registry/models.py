"""Table models of the Registry tab: the registries, plain sheet rows, and results.

The registry list and the results are small enough (one registry, a few thousand
rows shown at once) that a reset per load is fine; the point of the models is the
roles: the score bar reads ``ScoreRole``, sorting reads ``SortRole``, and tests and
the detail pane read the record itself through ``RecordRole``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor

from docbatch_gui._qt.language import interface_language
from docbatch_gui._qt.widgets.icons import disc_icon
from docbatch_gui._qt.widgets.table_model import RIGHT, Index, TableModel
from docbatch_gui.domain.models import Document
from docbatch_gui.domain.registry import (
    FilteredRowRecord,
    Registry,
    RegistryStatus,
    SearchResult,
)
from docbatch_gui.i18n import _, pgettext
from docbatch_gui.registry.layout import FOOTER_SIGNATURE, FOOTER_TOTALS, SheetLayout
from docbatch_gui.registry.search import is_stale
from docbatch_gui.registry.words import filter_detail, filter_reason

RecordRole = Qt.ItemDataRole.UserRole + 1
ScoreRole = Qt.ItemDataRole.UserRole + 2
SortRole = Qt.ItemDataRole.UserRole + 3

# Registry list columns
REG_NAME, REG_FILE, REG_STATUS, REG_KEPT, REG_FILTERED, REG_SEARCHED, REG_MATCHED = range(7)

STATUS_COLORS = {
    RegistryStatus.IMPORTING: ("#1a73e8", "▶"),
    RegistryStatus.CONFIGURED: ("#8a8f98", "…"),
    RegistryStatus.SEARCHING: ("#7b1fa2", "⧗"),
    RegistryStatus.SEARCHED: ("#188038", "✓"),
    RegistryStatus.ERROR: ("#d93025", "✕"),
}
WARNING_ICON = ("#e37400", "!")
MANUAL_ICON = ("#1a73e8", "✎")
SHADE_FILTERED = QColor("#fdecea")


def status_label(status: RegistryStatus) -> str:
    return {
        RegistryStatus.IMPORTING: _("Importing"),
        RegistryStatus.CONFIGURED: _("Imported, not searched"),
        RegistryStatus.SEARCHING: _("Searching"),
        RegistryStatus.SEARCHED: _("Searched"),
        RegistryStatus.ERROR: _("Error"),
    }.get(status, str(status))


def reason_label(reason: str) -> str:
    """A filter reason code (importer.REASON_*) in the operator's words."""
    return filter_reason(reason, interface_language())


def filter_text(record: FilteredRowRecord) -> str:
    """Why a row was filtered, in the interface language: the detail when it has one."""
    language = interface_language()
    if record.detail:
        return filter_detail(record, language)
    return filter_reason(record.reason, language)


def footer_label(kind: str) -> str:
    """What a footer row the wizard found is (``layout.FOOTER_*``)."""
    return {FOOTER_TOTALS: _("Totals row"), FOOTER_SIGNATURE: _("Signature line")}.get(kind, kind)


def left_out_status(record: FilteredRowRecord, layout: SheetLayout | None) -> str:
    """The short reason a row is left out: what it is, when it is a footer row."""
    footer = layout.footer_row(record.row) if layout is not None else None
    return footer_label(footer.kind) if footer is not None else reason_label(record.reason)


def left_out_text(record: FilteredRowRecord, layout: SheetLayout | None) -> str:
    """Why a row is left out, in words: "Signature line: contains '___'"."""
    footer = layout.footer_row(record.row) if layout is not None else None
    what = footer_label(footer.kind) if footer is not None else reason_label(record.reason)
    return f"{what}: {filter_text(record)}" if record.detail else what


def display(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def last_search(reg: Registry) -> str:
    if not reg.stats.get("search") or reg.updated_at is None:
        return _("never")
    return reg.updated_at.astimezone().strftime("%Y-%m-%d %H:%M")


def matched(reg: Registry) -> str:
    """Rows matched of all, those assigned by hand counted in both."""
    search = reg.stats.get("search") or {}
    if not search:
        return ""
    manual = search.get("manual", 0)
    return f"{search.get('matched', 0) + manual} / {search.get('rows', 0) + manual}"


class RegistryListModel(TableModel):
    def __init__(self, parent: QObject | None = None) -> None:
        columns = [
            (_("Name"), lambda reg: reg.name),
            (_("File"), lambda reg: reg.source_file.replace("\\", "/").rsplit("/", 1)[-1]),
            (_("Status"), lambda reg: status_label(reg.status)),
            (_("Rows kept"), lambda reg: display(reg.stats.get("kept"))),
            (_("Filtered"), lambda reg: display(reg.stats.get("filtered"))),
            (_("Last search"), last_search),
            (pgettext("registry column", "Matched"), matched),
        ]
        super().__init__(parent=parent, roles={RecordRole: lambda reg: reg}, columns=columns)

    def registry(self, row: int) -> Registry:
        return self._items[row]

    def row_of(self, registry_id: int) -> int | None:
        return next((i for i, r in enumerate(self._items) if r.id == registry_id), None)

    def item_data(self, reg: Registry, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DecorationRole and column == REG_STATUS:
            return disc_icon(*STATUS_COLORS.get(reg.status, ("#8a8f98", "?")))
        elif role == Qt.ItemDataRole.ToolTipRole:
            if column == REG_STATUS and reg.task_error:
                return reg.task_error
            if column == REG_FILE:
                return reg.source_file
        elif role == Qt.ItemDataRole.TextAlignmentRole and column in (
            REG_KEPT,
            REG_FILTERED,
            REG_MATCHED,
        ):
            return RIGHT
        return None


#: a cell with more characters than this may be cut at its column's width: its tooltip
#: says it whole
LONG_CELL_CHARS = 14


class RowsModel(TableModel):
    """Plain sheet rows (the wizard's previews); a row with a ``mark`` is shaded and
    its mark is the tooltip, so filtered rows stand out among kept ones."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent=parent)
        self._marks: list[str | None] = []

    def set_rows(
        self,
        headers: Sequence[str],
        rows: Sequence[Sequence[Any]],
        marks: Sequence[str | None] | None = None,
    ) -> None:
        self.beginResetModel()
        self._headers = list(headers)
        self._items = [list(r) for r in rows]
        self._marks = list(marks) if marks is not None else [None] * len(rows)
        self.endResetModel()

    def cell(self, row: int, column: int) -> Any:
        values = self._items[row]
        return values[column] if column < len(values) else None

    def tooltip(self, row: int, column: int, mark: str | None) -> str | None:
        """The row's mark, and a long cell's whole text: the preview caps a column's
        width, so "Главный бухгалтер ____ Петрова" shows cut in its cell."""
        text = display(self.cell(row, column))
        # the reason column's text is the mark itself: said once
        whole = text if len(text) > LONG_CELL_CHARS and text != mark else None
        return "\n".join(part for part in (whole, mark) if part) or None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        mark = self._marks[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return display(self.cell(index.row(), index.column()))
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tooltip(index.row(), index.column(), mark)
        if role == Qt.ItemDataRole.BackgroundRole and mark:
            return SHADE_FILTERED
        return None


@dataclass(frozen=True)
class ResultRow:
    """One registry row with its result and the matched document, as the view shows it."""

    row: int
    result: SearchResult | None
    values: dict[str, Any]  # registry field → value as read
    raw: dict[str, Any]  # header → value as read
    document: Document | None = None
    file_name: str = ""
    runner_up: Document | None = None
    runner_up_file: str = ""
    history: list[str] = field(default_factory=list)

    @property
    def stale(self) -> bool:
        """Its document's file is being processed again: the match waits to be checked."""
        return self.result is not None and is_stale(self.result)

    @property
    def score(self) -> float | None:
        if self.result is None or self.result.document_id is None or self.stale:
            return None
        return self.result.score


# Result columns: fixed ones first, then one per mapped registry field, then the document
RES_ROW = 0
RES_SCORE = 1
RES_WARN = 2
RES_FIXED = 3
DOC_FILE, DOC_TYPE, DOC_PAGES, DOC_NUMBER, DOC_DATE, DOC_AMOUNT = range(6)


class ResultsModel(TableModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent=parent, roles={RecordRole: lambda item: item})
        self.type_label: Any = str
        self._doc_headers = [
            _("Document file"),
            _("Type"),
            pgettext("narrow column", "Pages"),
            _("Doc. number"),
            _("Doc. date"),
            _("Doc. amount"),
        ]
        self._set_fields([])

    def _set_fields(self, fields: Sequence[tuple[str, str]]) -> None:
        self.fields = list(fields)  # (registry field, column header)
        self._headers = [_("Row"), _("Score"), "", *(f[1] for f in fields), *self._doc_headers]

    def load(self, fields: Sequence[tuple[str, str]], rows: Sequence[ResultRow]) -> None:
        self.beginResetModel()
        self._set_fields(fields)
        self._items = list(rows)
        self.endResetModel()

    def result_row(self, row: int) -> ResultRow:
        return self._items[row]

    def rows(self) -> list[ResultRow]:
        return list(self._items)

    def doc_column(self, which: int) -> int:
        return RES_FIXED + len(self.fields) + which

    def item_data(self, item: ResultRow, column: int, role: int) -> Any:
        result = item.result
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(item, column)
        if role == Qt.ItemDataRole.DecorationRole and column == RES_WARN and result:
            if result.manual:
                return disc_icon(*MANUAL_ICON)
            if result.warnings:
                return disc_icon(*WARNING_ICON)
        elif role == Qt.ItemDataRole.ToolTipRole and column in (RES_WARN, RES_SCORE) and result:
            return "\n".join(result.warnings_in(interface_language())) or None
        elif role == Qt.ItemDataRole.ToolTipRole and column >= RES_FIXED:
            return self._display(item, column) or None  # the whole value where it elides
        elif role == Qt.ItemDataRole.ForegroundRole and column == RES_SCORE and item.stale:
            return QColor(WARNING_ICON[0])
        elif (
            role == Qt.ItemDataRole.ForegroundRole
            and item.document is None
            and column >= (RES_FIXED + len(self.fields))
        ):
            return QColor("#8a8f98")
        elif role == ScoreRole and column == RES_SCORE:
            return item.score
        elif role == SortRole:
            if column == RES_ROW:
                return item.row
            if column == RES_SCORE:
                return -1.0 if item.score is None else item.score
            if column == RES_WARN:
                return len(result.warnings) if result else 0
            return self._display(item, column)
        return None

    def _display(self, item: ResultRow, column: int) -> str:
        if column == RES_ROW:
            return str(item.row)
        if column == RES_SCORE:
            if item.stale:
                return _("stale")
            return "" if item.score is None else f"{item.score:.0%}"
        if column == RES_WARN:
            return ""
        if column < RES_FIXED + len(self.fields):
            return display(item.values.get(self.fields[column - RES_FIXED][0]))
        doc = item.document
        if doc is None:
            return _("no match") if column == self.doc_column(DOC_FILE) else ""
        which = column - RES_FIXED - len(self.fields)
        if which == DOC_FILE:
            return item.file_name
        if which == DOC_TYPE:
            return str(self.type_label(doc.doc_type))
        if which == DOC_PAGES:
            return doc.page_label
        key = {DOC_NUMBER: "number", DOC_DATE: "date", DOC_AMOUNT: "amount"}[which]
        return doc.fields.get(key) or ""
