"""Dialogs of the registry screens, each opened with ``open()`` and awaited.

The full list of filtered rows, the document picker for a manual assignment (a
searchable list: a registry is checked against thousands of documents) and the
reverse reconciliation, documents no row matched, grouped by type.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QTableView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.registry.models import RowsModel
from docbatch_gui._qt.widgets.dialogs import ask
from docbatch_gui._qt.widgets.fit import fit_to_screen
from docbatch_gui._qt.widgets.layout import filled
from docbatch_gui.domain.models import Document
from docbatch_gui.i18n import _, ngettext

DOC_ID_ROLE = Qt.ItemDataRole.UserRole + 1


class _Dialog(QDialog):
    async def run(self) -> bool:
        return await ask(self) == QDialog.DialogCode.Accepted


class FilteredRowsDialog(_Dialog):
    def __init__(
        self,
        parent: QWidget,
        headers: Sequence[str],
        rows: Sequence[Sequence[Any]],
        marks: Sequence[str | None],
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Filtered rows"))
        fit_to_screen(self, 1000, 560)
        self.model = RowsModel(self)
        self.model.set_rows(headers, rows, marks)
        table = QTableView()
        table.setModel(self.model)
        table.verticalHeader().hide()
        table.resizeColumnsToContents()
        note = QLabel(
            _(
                "Up to 50 filtered rows are kept with their reason. Change the "
                "filters on the page behind and the list follows."
            )
        )
        note.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        filled(QVBoxLayout(self), note, (table, 1), buttons)


def document_items(
    doc: Document, file_name: str, type_label: Callable[[str], str]
) -> list[QStandardItem]:
    values = [
        str(doc.id),
        file_name,
        doc.page_label,
        type_label(doc.doc_type),
        doc.fields.get("number") or "",
        doc.fields.get("date") or "",
        doc.fields.get("amount") or "",
    ]
    items = [QStandardItem(v) for v in values]
    for item in items:
        item.setEditable(False)
        item.setData(doc.id, DOC_ID_ROLE)
    return items


class DocumentPicker(_Dialog):
    """Pick one document; typing filters on every column (number, file, amount…)."""

    def __init__(
        self,
        parent: QWidget,
        documents: Sequence[Document],
        names: Mapping[int, str],
        type_label: Callable[[str], str],
        *,
        hint: str = "",
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Assign a document"))
        fit_to_screen(self, 900, 520)
        self.model = QStandardItemModel(self)
        self.model.setHorizontalHeaderLabels(
            [
                _("Id"),
                _("File"),
                _("Pages"),
                _("Type"),
                _("Number"),
                _("Date"),
                _("Amount"),
            ]
        )
        for doc in documents:
            self.model.appendRow(document_items(doc, names.get(doc.job_id, ""), type_label))
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.search = QLineEdit()
        self.search.setPlaceholderText(_("Search number, file, date, amount…"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.proxy.setFilterFixedString)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.resizeColumnsToContents()
        self.table.doubleClicked.connect(lambda _i: self.accept())
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        hints = [QLabel(hint)] if hint else []
        filled(QVBoxLayout(self), *hints, self.search, (self.table, 1), self.buttons)

    def select_document(self, document_id: int) -> bool:
        for row in range(self.proxy.rowCount()):
            if self.proxy.index(row, 0).data(DOC_ID_ROLE) == document_id:
                self.table.selectRow(row)
                return True
        return False

    def selected_id(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows and self.proxy.rowCount() == 1:
            return self.proxy.index(0, 0).data(DOC_ID_ROLE)
        return rows[0].data(DOC_ID_ROLE) if rows else None


class UnmatchedDialog(_Dialog):
    """Reverse reconciliation: documents no registry row has, per document type."""

    def __init__(
        self,
        parent: QWidget,
        by_type: Mapping[str, Sequence[Document]],
        names: Mapping[int, str],
        type_label: Callable[[str], str],
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Unmatched documents"))
        fit_to_screen(self, 820, 520)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(
            [
                _("Type / file"),
                _("Pages"),
                _("Number"),
                _("Date"),
                _("Amount"),
            ]
        )
        total = 0
        for doc_type, docs in sorted(by_type.items(), key=lambda kv: -len(kv[1])):
            top = QTreeWidgetItem([f"{type_label(doc_type)} ({len(docs)})"])
            for doc in docs:
                top.addChild(
                    QTreeWidgetItem(
                        [
                            names.get(doc.job_id, ""),
                            doc.page_label,
                            doc.fields.get("number") or "",
                            doc.fields.get("date") or "",
                            doc.fields.get("amount") or "",
                        ]
                    )
                )
            total += len(docs)
            self.tree.addTopLevelItem(top)
            top.setExpanded(True)
        self.tree.resizeColumnToContents(0)
        self.total = total
        label = QLabel(
            ngettext(
                "{count} document is not matched to any registry row.",
                "{count} documents are not matched to any registry row.",
                total,
            ).format(count=total)
            if total
            else _("Every document is matched to a registry row.")
        )
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        filled(QVBoxLayout(self), label, (self.tree, 1), buttons)
