"""Wizard pages 2-3: the header and data rows, the column mapping (page 1, the file,
is in ``pages_file``), and what every page shares.

Each page writes its part of the configuration JSON and asks the wizard for a new
preview when an input changes; the preview (run off the GUI thread) comes back
through ``preview_changed`` and every page redraws from it.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSignalBlocker
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWizardPage,
)

from docbatch_gui._qt.registry.models import (
    RowsModel,
    display,
    footer_label,
    left_out_status,
    left_out_text,
    reason_label,
)
from docbatch_gui._qt.widgets.layout import STRETCH, filled
from docbatch_gui._qt.widgets.quiet import blocked
from docbatch_gui.domain.registry import FilteredRowRecord, RegistryRowRecord
from docbatch_gui.i18n import _
from docbatch_gui.registry.config import RegistryConfig, column_letter
from docbatch_gui.registry.layout import SheetLayout
from docbatch_gui.registry.service import PreviewResult

if TYPE_CHECKING:
    from docbatch_gui._qt.registry.wizard import RegistryWizard

MAX_ROW = 1_048_576  # Excel's last row
_OVERRIDE_RE = re.compile(r"^\s*([A-Za-z]{1,3})\s*[=:]\s*(\d+)\s*$")


class WizardPart(QWizardPage):
    """A page that owns part of the configuration JSON."""

    def __init__(self, wizard: RegistryWizard) -> None:
        super().__init__(wizard)  # owned by the wizard from the start
        self.owner = wizard
        self.status = QLabel()
        self.status.setWordWrap(True)
        wizard.preview_changed.connect(self.on_preview)
        wizard.preview_failed.connect(self.on_failed)

    def part(self) -> dict[str, Any]:
        return {}

    def load(self, config: RegistryConfig) -> None:
        """Show a loaded template's values."""

    def on_preview(self, result: PreviewResult) -> None:
        self.status.setStyleSheet("")
        self.status.setText(counts_text(self, result, self.owner.sheet_layout))
        self.completeChanged.emit()

    def on_failed(self, message: str) -> None:
        self.status.setStyleSheet("color: #b3261e;")
        self.status.setText(message)
        self.completeChanged.emit()

    def isComplete(self) -> bool:
        return self.owner.preview is not None and not self.owner.preview_error

    def changed(self) -> None:
        self.owner.settings_changed()


def counts_text(
    widget: QWizardPage, result: PreviewResult, layout: SheetLayout | None = None
) -> str:
    """The sheet's counts, each left-out row counted as the table under it names it:
    a totals row or signature line the wizard found is not "contains a stop word"."""
    counts = Counter({reason_label(k): v for k, v in sorted(result.by_reason.items())})
    for record in result.filtered_rows:
        footer = layout.footer_row(record.row) if layout is not None else None
        if footer is not None and counts[reason_label(record.reason)] > 0:
            counts[reason_label(record.reason)] -= 1
            counts[footer_label(footer.kind)] += 1
    reasons = ", ".join(f"{label}: {count}" for label, count in counts.items() if count)
    text = _("Sheet “{sheet}”: <b>{kept}</b> rows kept, <b>{filtered}</b> filtered").format(
        sheet=result.sheet, kept=result.kept, filtered=result.filtered
    )
    return f"{text} ({reasons})" if reasons else text


#: the widest a preview column grows for its cells (the row and status columns excepted)
CELL_CAP_PX = 120


def fit_preview_columns(table: QTableView) -> None:
    """Columns sized to their cells, the sheet's own (after the row and its status or
    reason) at most ``CELL_CAP_PX``: a long cell (a signature line under "№ п/п")
    wraps rather than pushing the sheet's last columns out of sight at 1024 px."""
    table.resizeColumnsToContents()
    header = table.horizontalHeader()
    for column in range(2, table.model().columnCount()):
        cap = max(CELL_CAP_PX, header.sectionSizeHint(column))  # the title stays whole
        if table.columnWidth(column) > cap:
            table.setColumnWidth(column, cap)
    # a capped cell wraps onto lines of its own ("Главный бухгалтер ____ Петрова" on a
    # signature line) instead of ending in "…"; its tooltip has the whole text too
    table.resizeRowsToContents()


def preview_table(model: RowsModel) -> QTableView:
    table = QTableView()
    table.setModel(model)
    table.setAlternatingRowColors(False)
    table.verticalHeader().hide()
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    table.horizontalHeader().setStretchLastSection(True)
    table.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
    return table


def letters(text: str) -> list[str]:
    return [p.strip().upper() for p in re.split(r"[,;\s]+", text) if p.strip()]


class RowsPage(WizardPart):
    def __init__(self, wizard: RegistryWizard) -> None:
        super().__init__(wizard)
        self.setTitle(_("Header and data rows"))
        self.setSubTitle(
            _(
                "Rows are numbered as Excel shows them. Shaded rows are "
                "filtered; hover for the reason."
            )
        )
        self.header_row = QSpinBox()
        self.header_row.setRange(1, MAX_ROW)
        #: the top row of a header written over several rows; 0: the header is one row
        self.header_top = QSpinBox()
        self.header_top.setRange(0, MAX_ROW)
        self.header_top.setSpecialValueText(_("(one row)"))
        self.header_top.setToolTip(
            _("A header written over several rows: its texts are joined for each column.")
        )
        self.header_top.valueChanged.connect(lambda _v: self.changed())
        self.data_row = QSpinBox()
        self.data_row.setRange(2, MAX_ROW)
        self.data_row.setValue(2)
        self.overrides = QLineEdit()
        self.overrides.setPlaceholderText(_("e.g. F=4, G=4 for headers on another row"))
        self.header_row.valueChanged.connect(self._header_moved)
        self.data_row.valueChanged.connect(lambda _v: self.changed())
        self.overrides.textChanged.connect(lambda _t: self.changed())
        form = QFormLayout()
        form.addRow(_("Header row"), self.header_row)
        form.addRow(_("Header starts on row"), self.header_top)
        form.addRow(_("First data row"), self.data_row)
        form.addRow(_("Column header row overrides"), self.overrides)
        self.model = RowsModel(self)
        self.table = preview_table(self.model)
        filled(QVBoxLayout(self), form, self.status, (self.table, 1))

    def _header_moved(self, value: int) -> None:
        if self.data_row.value() <= value:
            self.data_row.setValue(value + 1)  # emits its own change
        self.changed()

    def column_overrides(self) -> dict[str, int]:
        """``F=4, G=4`` → {"F": 4, "G": 4}; ValueError says which part is wrong."""
        out: dict[str, int] = {}
        for piece in filter(None, (p.strip() for p in self.overrides.text().split(","))):
            match = _OVERRIDE_RE.match(piece)
            if match is None:
                raise ValueError(
                    _("column_header_row: “{piece}” is not COLUMN=ROW").format(piece=piece)
                )
            out[match.group(1).upper()] = int(match.group(2))
        return out

    def part(self) -> dict[str, Any]:
        return {
            "header_row": self.header_row.value(),
            "header_top_row": self.header_top.value() or None,
            "data_start_row": self.data_row.value(),
            "column_header_row": self.column_overrides(),
        }

    def show_layout(self, layout: SheetLayout) -> None:
        """Show the rows the wizard guessed (the preview already used them)."""
        self._show_rows(layout.header_row, layout.header_top_row, layout.data_start_row, "")

    def load(self, config: RegistryConfig) -> None:
        overrides = config.column_header_row.items()
        self._show_rows(
            config.header_row,
            config.header_top_row,
            config.first_data_row,
            ", ".join(f"{column_letter(c)}={r}" for c, r in overrides),
        )

    def _show_rows(self, header: int, top: int | None, data: int, overrides: str) -> None:
        with blocked(self.header_row, self.header_top, self.data_row, self.overrides):
            self.header_row.setValue(header)
            self.header_top.setValue(top or 0)
            self.data_row.setValue(data)
            self.overrides.setText(overrides)

    def on_preview(self, result: PreviewResult) -> None:
        super().on_preview(result)
        headers = [_("Row"), _("Status"), *result.headers]
        layout = self.owner.sheet_layout
        rows: list[list[Any]] = []
        marks: list[str | None] = []
        for item in result.rows:
            if isinstance(item, RegistryRowRecord):
                rows.append([item.row, _("kept"), *(item.raw_data.get(h) for h in result.headers)])
                marks.append(None)
            else:
                rows.append([item.row, left_out_status(item, layout), *item.values])
                marks.append(left_out_text(item, layout))
        self.model.set_rows(headers, rows, marks)
        fit_preview_columns(self.table)


#: registry fields the mapping offers, in the order people think of them
FIELDS = ("number", "date", "amount", "counterparty", "tax_id")
#: header words that suggest a field (lower case, RU and EN)
GUESS = {
    "number": ("номер", "№", "number", "no.", "num"),
    "date": ("дата", "date"),
    "amount": ("сумма", "amount", "total", "итого"),
    "counterparty": (
        "контрагент",
        "поставщик",
        "покупатель",
        "counterparty",
        "supplier",
        "vendor",
        "customer",
    ),
    "tax_id": ("инн", "tax", "vat id"),
}
#: a column's running number ("№", "№ п/п", "#"): never the document's number
RUNNING_NUMBERS = {"№", "#", "no", "no.", "n", "nn", "п/п", "№ п/п", "№п/п", "пп", "№ пп"}


def guess_columns(headers: list[str]) -> dict[str, int]:
    """Each field's column: the first header holding the field's word, the more
    specific words first. A running number ("№", "№ п/п") is never the document
    number: a sheet with "№" before "№ документа" had its row counter matched."""
    taken: set[int] = set()
    lowered = [" ".join(str(h or "").lower().split()) for h in headers]
    guessed: dict[str, int] = {}
    for field in FIELDS:
        column = next(
            (col for word in GUESS[field] for col, low in enumerate(lowered)
             if col not in taken and word in low and "п/п" not in low
             and low not in RUNNING_NUMBERS),
            None,
        )  # fmt: skip
        if column is not None:
            guessed[field] = column
            taken.add(column)
    return guessed


def samples(result: PreviewResult, column: int, count: int = 3) -> list[str]:
    """The first non-empty values of a column among the preview's kept rows."""
    header = result.headers[column]
    found: list[str] = []
    for item in result.rows:
        value = item.raw_data.get(header) if isinstance(item, RegistryRowRecord) else None
        if isinstance(item, FilteredRowRecord) or value in (None, ""):
            continue
        found.append(display(value))
        if len(found) >= count:
            break
    return found


class MappingPage(WizardPart):
    def __init__(self, wizard: RegistryWizard) -> None:
        super().__init__(wizard)
        self.setTitle(_("Column mapping"))
        self.setSubTitle(
            _(
                "Say which column holds each registry field. Each choice "
                "shows the column's header and sample values."
            )
        )
        #: each registry field in words (the rules page shows them too)
        self.labels = labels = {
            "number": _("Number"),
            "date": _("Date"),
            "amount": _("Amount"),
            "counterparty": _("Counterparty"),
            "tax_id": _("Tax ID"),
        }
        self.combos: dict[str, QComboBox] = {}
        self.sample_labels: dict[str, QLabel] = {}
        self._wanted: dict[str, int] = {}  # a template's mapping, before columns are known
        form = QFormLayout()
        for field in FIELDS:
            combo = QComboBox()
            combo.setMinimumContentsLength(40)
            combo.currentIndexChanged.connect(lambda _i, f=field: self._picked(f))
            sample = QLabel()
            sample.setStyleSheet("color: palette(mid);")
            self.combos[field] = combo
            self.sample_labels[field] = sample
            form.addRow(labels[field], combo)
            form.addRow("", sample)
        filled(QVBoxLayout(self), form, self.status, STRETCH)

    def mapping(self) -> dict[str, str]:
        return {
            field: column_letter(combo.currentData())
            for field, combo in self.combos.items()
            if combo.currentData() is not None
        }

    def set_column(self, field: str, column: int | None) -> None:
        combo = self.combos[field]
        combo.setCurrentIndex(max(0, combo.findData(column)))

    def part(self) -> dict[str, Any]:
        return {"mapping": self.mapping()}

    def load(self, config: RegistryConfig) -> None:
        self._wanted = dict(config.mapping)
        for field in self.combos:
            self.set_column(field, self._wanted.get(field))

    def isComplete(self) -> bool:
        return super().isComplete() and bool(self.mapping())

    def _picked(self, field: str) -> None:
        combo = self.combos[field]
        result = self.owner.preview
        column = combo.currentData()
        text = ", ".join(samples(result, column)) if result and column is not None else ""
        self.sample_labels[field].setText(text)
        self.completeChanged.emit()

    def on_preview(self, result: PreviewResult) -> None:
        super().on_preview(result)
        for field, combo in self.combos.items():
            current = combo.currentData() if combo.count() else self._wanted.get(field)
            with QSignalBlocker(combo):
                combo.clear()
                combo.addItem(_("(not mapped)"), None)
                for col, header in enumerate(result.headers):
                    values = ", ".join(samples(result, col))
                    combo.addItem(f"{column_letter(col)}: {header} — {values}", col)
                combo.setCurrentIndex(max(0, combo.findData(current)))
        for field in self.combos:
            self._picked(field)

    def initializePage(self) -> None:
        """Guess from the header names when nothing is mapped yet: the header row is
        only final once the operator leaves the rows page."""
        if not self.mapping() and self.owner.preview is not None:
            self._guess(self.owner.preview.headers)

    def _guess(self, headers: list[str]) -> None:
        for field, column in guess_columns(headers).items():
            self.set_column(field, column)
