"""Wizard page 4: row filters with a visual review of what they drop.

This is where a registry import usually goes wrong silently (a subtotal row kept as
an invoice, a wrapped line dropped), so the rows it filters are shown with their
reason right under the settings, and the counts follow every edit. The rules page is
in ``pages_rules``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSignalBlocker
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from docbatch_gui._qt.registry.dialogs import FilteredRowsDialog
from docbatch_gui._qt.registry.models import RowsModel, left_out_text
from docbatch_gui._qt.registry.pages_setup import (
    WizardPart,
    fit_preview_columns,
    letters,
    preview_table,
)
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.layout import filled
from docbatch_gui._qt.widgets.quiet import blocked
from docbatch_gui.i18n import _
from docbatch_gui.registry.config import RegistryConfig, column_letter
from docbatch_gui.registry.service import PreviewResult

if TYPE_CHECKING:
    from docbatch_gui._qt.registry.wizard import RegistryWizard


class FiltersPage(WizardPart):
    def __init__(self, wizard: RegistryWizard) -> None:
        super().__init__(wizard)
        self.setTitle(_("Filters"))
        self.setSubTitle(
            _(
                "Rows that are not documents (totals, group headings, "
                "blank lines) are filtered. Check what is dropped below."
            )
        )
        self.fill_down = QLineEdit()
        self.fill_down.setPlaceholderText(_("columns, e.g. A, B"))
        self.skip_words = QLineEdit("ИТОГО; Всего")
        self.skip_words.setPlaceholderText(_("words separated by ;"))
        self.required = QComboBox()
        self.required.addItem(_("(none)"), None)
        self.min_filled = QSpinBox()
        self.min_filled.setRange(0, 1000)
        self.min_filled.setValue(1)
        for signal in (
            self.fill_down.textChanged,
            self.skip_words.textChanged,
            self.required.currentIndexChanged,
            self.min_filled.valueChanged,
        ):
            signal.connect(lambda *_: self.changed())
        form = QFormLayout()
        form.addRow(_("Fill down columns"), self.fill_down)
        form.addRow(_("Skip rows containing"), self.skip_words)
        form.addRow(_("Required column"), self.required)
        form.addRow(_("Minimum filled cells"), self.min_filled)
        self.status.setStyleSheet("font-size: 11pt;")
        self.model = RowsModel(self)
        self.table = preview_table(self.model)
        self.show_all = QPushButton(_("Open full list…"))
        self.show_all.clicked.connect(lambda: spawn(self.open_full_list()))
        self.table_title = QLabel(_("Filtered rows"))
        head = filled(QHBoxLayout(), (self.table_title, 1), self.show_all)
        filled(QVBoxLayout(self), form, self.status, head, (self.table, 1))

    def part(self) -> dict[str, Any]:
        words = [w.strip() for w in re.split(r"[;\n]", self.skip_words.text()) if w.strip()]
        required = self.required.currentData()
        return {
            "fill_down_columns": letters(self.fill_down.text()),
            "skip_rows_containing": words,
            "required_column_index": None if required is None else column_letter(required),
            "min_filled_cells": self.min_filled.value(),
        }

    def load(self, config: RegistryConfig) -> None:
        with blocked(self.fill_down, self.skip_words, self.required, self.min_filled):
            self.fill_down.setText(", ".join(column_letter(c) for c in config.fill_down_columns))
            self.skip_words.setText("; ".join(config.skip_rows_containing))
            column = config.required_column_index
            if column is not None and self.required.findData(column) < 0:
                self.required.addItem(column_letter(column), column)
            self.required.setCurrentIndex(max(0, self.required.findData(column)))
            self.min_filled.setValue(config.min_filled_cells)

    def add_skip_words(self, words: list[str]) -> None:
        """Add the words of the footer rows the wizard found (each once)."""
        current = self.part()["skip_rows_containing"]
        folded = {w.casefold() for w in current}
        new = [w for w in words if w.casefold() not in folded]
        if new:
            with QSignalBlocker(self.skip_words):
                self.skip_words.setText("; ".join([*current, *new]))

    def filtered_rows(self, result: PreviewResult) -> tuple[list[str], list[list[Any]], list[str]]:
        headers = [_("Row"), _("Reason"), *result.headers]
        layout = self.owner.sheet_layout
        rows = [[f.row, left_out_text(f, layout), *f.values] for f in result.filtered_rows]
        marks = [left_out_text(f, layout) for f in result.filtered_rows]
        return headers, rows, marks

    def on_preview(self, result: PreviewResult) -> None:
        super().on_preview(result)
        current = self.required.currentData()
        with QSignalBlocker(self.required):
            self.required.clear()
            self.required.addItem(_("(none)"), None)
            for col, header in enumerate(result.headers):
                self.required.addItem(f"{column_letter(col)}: {header}", col)
            self.required.setCurrentIndex(max(0, self.required.findData(current)))
        self.model.set_rows(*self.filtered_rows(result))
        fit_preview_columns(self.table)
        shown = len(result.filtered_rows)
        self.table_title.setText(
            _(
                "Filtered rows: {shown} shown of {filtered} (blank rows are counted, not listed)"
            ).format(shown=shown, filtered=result.filtered)
        )
        self.show_all.setEnabled(shown > 0)

    async def open_full_list(self) -> None:
        if self.owner.preview is None:
            return
        dialog = FilteredRowsDialog(self, *self.filtered_rows(self.owner.preview))
        self.full_list = dialog  # tests reach it
        await dialog.run()
