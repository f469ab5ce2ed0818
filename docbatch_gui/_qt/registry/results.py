"""The results of a registry search: one row per registry row with its best document.

Selecting a row shows the document's first page beside the row's own values and the
score explained sub-rule by sub-rule, with the runner-up, so the operator can judge
a match without opening anything. Manual assignments go through the core, which
writes the audit record (who, when, previous document) with the window's operator.
Everything that reads the store runs in a worker thread.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QDialog,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.language import error_text, interface_language
from docbatch_gui._qt.registry.detail import MatchDetail
from docbatch_gui._qt.registry.dialogs import DocumentPicker, UnmatchedDialog
from docbatch_gui._qt.registry.models import (
    RES_SCORE,
    ResultRow,
    ResultsModel,
    ScoreRole,
    SortRole,
    display,
)
from docbatch_gui._qt.registry.results_columns import ResultColumns
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.columns import column_actions, offer_columns_menu
from docbatch_gui._qt.widgets.delegates import ProgressDelegate
from docbatch_gui._qt.widgets.dialogs import ask
from docbatch_gui._qt.widgets.fit import ElidedLabel
from docbatch_gui._qt.widgets.folders import remember_folder, remembered_folder
from docbatch_gui._qt.widgets.layout import STRETCH, filled
from docbatch_gui._qt.widgets.progress import counted, run_with_progress
from docbatch_gui._qt.widgets.thumbs import PageImages
from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.domain.progress import Canceled
from docbatch_gui.domain.registry import Registry
from docbatch_gui.i18n import _, ngettext, pgettext
from docbatch_gui.registry.service import RESULT_FILTERS

ROW_PAGE = 5000
#: where the last export went: the next one is suggested there
EXPORT_FOLDER_KEY = "registry/export_folder"


def export_file_name(registry_name: str, day: date) -> str:
    """The file name an export suggests: ``registry_<name>_<date>.xlsx``, the name
    reduced to characters every file system takes."""
    safe = re.sub(r"[^\w.-]+", "_", registry_name, flags=re.UNICODE).strip("._") or "registry"
    return f"registry_{safe[:60]}_{day.isoformat()}.xlsx"


@dataclass(frozen=True)
class Loaded:
    registry: Registry
    fields: list[tuple[str, str]]
    rows: list[ResultRow]


class ResultsView(QWidget):
    #: (row, document id or None) after a manual assignment reached the store
    assigned = Signal(int, object)
    #: a registry's results are shown
    loaded = Signal(int)

    def __init__(self, ctx: GuiContext, images: PageImages, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.images = images
        self.registry_id: int | None = None
        self.registry_name = ""
        self.filter = "all"

        self.title = ElidedLabel()  # plain text (user data); shrinks on a small screen
        self.title.setStyleSheet("font-weight: bold;")
        labels = {
            "all": _("All"),
            "matched": pgettext("results filter", "Matched"),
            "no_match": _("No match"),
            "warnings": _("Warnings"),
            "ties": _("Ties"),
            "manual": _("Manual"),
        }
        self.filter_buttons: dict[str, QToolButton] = {}
        group = QButtonGroup(self)
        top = QHBoxLayout()
        for name in RESULT_FILTERS:
            button = QToolButton()
            button.setText(labels[name])
            button.setCheckable(True)
            button.setChecked(name == "all")
            button.clicked.connect(lambda _c=False, n=name: spawn(self.set_filter(n)))
            group.addButton(button)
            self.filter_buttons[name] = button
            top.addWidget(button)
        self.unmatched_button = QPushButton(_("Unmatched documents…"))
        self.unmatched_button.clicked.connect(lambda: spawn(self.show_unmatched(), self._failed))
        self.export_button = QPushButton(_("Export…"))
        self.export_button.clicked.connect(lambda: spawn(self.export_dialog(), self._failed))
        filled(top, STRETCH, self.unmatched_button, self.export_button)

        self.model = ResultsModel(self)
        self.model.type_label = ctx.doc_type_label
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SortRole)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.setItemDelegateForColumn(RES_SCORE, ProgressDelegate(ScoreRole, self.table))
        self.table.selectionModel().currentRowChanged.connect(lambda cur, _p: self._selected())
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        # every column in sight at 1024 px: fitted, the secondary ones hidden by priority
        self.columns = ResultColumns(self.table, self.model)
        offer_columns_menu(self.table, self.columns.fixed, self, self._column_chosen)

        self.detail = MatchDetail(ctx, images)
        self.detail.assign_button.clicked.connect(lambda: spawn(self.assign_dialog(), self._failed))
        self.detail.unassign_button.clicked.connect(lambda: spawn(self.unassign(), self._failed))
        # the explanation scrolls rather than making the window taller than the screen
        detail_scroll = QScrollArea()
        detail_scroll.setWidget(self.detail)
        detail_scroll.setWidgetResizable(True)
        detail_scroll.setFrameShape(QFrame.Shape.NoFrame)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.table)
        split.addWidget(detail_scroll)
        split.setSizes([640, 600])
        filled(QVBoxLayout(self), self.title, top, (split, 1), margins=0)

    async def open(self, registry_id: int, select_row: int | None = None) -> None:
        self.registry_id = registry_id
        await self.reload(select_row)

    async def set_filter(self, name: str) -> None:
        self.filter = name
        self.filter_buttons[name].setChecked(True)
        await self.reload()

    async def reload(self, select_row: int | None = None) -> None:
        if self.registry_id is None:
            return
        keep = select_row if select_row is not None else self.detail._shown_row
        data = await asyncio.to_thread(self._load, self.registry_id, self.filter)
        self.model.load(data.fields, data.rows)
        self.columns.fit()
        reg = data.registry
        self.registry_name = reg.name
        self.title.setText(
            ngettext(
                "{registry}: {count} row shown", "{registry}: {count} rows shown", len(data.rows)
            ).format(registry=reg.name, count=len(data.rows))
        )
        if keep is None or not self.select_row(keep):
            self.detail.show_row(None)
        self.loaded.emit(reg.id)

    def _load(self, registry_id: int, filter: str) -> Loaded:
        """Worker thread: the results with their rows and documents, no Qt."""
        service = self.ctx.app.registry
        store = service.store
        registry = store.get_registry(registry_id)
        results = service.results(registry_id, filter)
        records: dict[int, Any] = {}
        offset = 0
        while batch := store.list_registry_rows(registry_id, offset=offset, limit=ROW_PAGE):
            records.update((r.row, r) for r in batch)
            offset += len(batch)
        documents = {d.id: d for d in service.documents()}
        names = {j.id: j.file_name for j in store.list_jobs()}
        history: dict[int, list[str]] = {}
        for a in store.list_assignments(registry_id):
            what = (
                _("assigned document {document_id}").format(document_id=a.document_id)
                if a.document_id is not None
                else _("unassigned")
            )
            was = (
                ""
                if a.previous_document_id is None
                else _(" (was {previous_document_id})").format(
                    previous_document_id=a.previous_document_id
                )
            )
            history.setdefault(a.row, []).append(f"{a.at[:19]} {a.who}: {what}{was}")
        headers: list[str] = registry.stats.get("headers") or []
        mapping: dict[str, int] = registry.config.get("mapping") or {}
        fields = [(f, headers[c] if c < len(headers) else f) for f, c in mapping.items()]
        rows = []
        for result in results:
            record = records.get(result.row)
            doc = documents.get(result.document_id) if result.document_id else None
            runner = documents.get(result.runner_up_id) if result.runner_up_id else None
            rows.append(
                ResultRow(
                    row=result.row,
                    result=result,
                    values=record.mapped_data if record else {},
                    raw=record.raw_data if record else {},
                    document=doc,
                    file_name=names.get(doc.job_id, "") if doc else "",
                    runner_up=runner,
                    runner_up_file=names.get(runner.job_id, "") if runner else "",
                    history=history.get(result.row, []),
                )
            )
        return Loaded(registry, fields, rows)

    def column_actions(self) -> list[QAction]:
        """The header menu's actions: every column that may be hidden."""
        return column_actions(self.table, self.columns.fixed(), self, self._column_chosen)

    def _column_chosen(self, column: int, shown: bool) -> None:
        self.columns.choose(column, shown)

    # -- the selected row ------------------------------------------------------------

    def select_row(self, sheet_row: int) -> bool:
        for r in range(self.proxy.rowCount()):
            if self.proxy.index(r, 0).data(SortRole) == sheet_row:
                self.table.selectRow(r)
                self._selected()
                return True
        return False

    def current(self) -> ResultRow | None:
        index = self.table.currentIndex()
        if not index.isValid():
            return None
        return self.model.result_row(self.proxy.mapToSource(index).row())

    def _selected(self) -> None:
        self.detail.show_row(self.current())

    async def assign_dialog(self) -> None:
        item = self.current()
        if item is None or self.registry_id is None:
            return
        service = self.ctx.app.registry
        docs, names = await asyncio.to_thread(lambda: (service.documents(), self._job_names()))
        hint = _("Row {row}: {values}").format(
            row=item.row,
            values=", ".join(display(v) for v in item.values.values() if v is not None),
        )
        self.picker = DocumentPicker(self, docs, names, self.ctx.doc_type_label, hint=hint)
        if item.document is not None and item.document.id is not None:
            self.picker.select_document(item.document.id)
        if await self.picker.run() and (doc_id := self.picker.selected_id()) is not None:
            await self.assign(item.row, doc_id)

    async def assign(self, row: int, document_id: int | None) -> None:
        """Assign (or with None unassign) by hand; the core keeps the audit record."""
        assert self.registry_id is not None
        service, who = self.ctx.app.registry, self.ctx.operator
        registry_id = self.registry_id
        if document_id is None:
            call = lambda: service.unassign(registry_id, row, who)  # noqa: E731
        else:
            call = lambda: service.assign(registry_id, row, document_id, who)  # noqa: E731
        await asyncio.to_thread(call)
        await self.reload(select_row=row)
        self.assigned.emit(row, document_id)

    async def unassign(self) -> None:
        item = self.current()
        if item is not None:
            await self.assign(item.row, None)

    async def show_unmatched(self) -> None:
        if self.registry_id is None:
            return
        registry_id, service = self.registry_id, self.ctx.app.registry
        by_type, names = await asyncio.to_thread(
            lambda: (service.unmatched(registry_id), self._job_names())
        )
        self.unmatched = UnmatchedDialog(self, by_type, names, self.ctx.doc_type_label)
        await self.unmatched.run()

    async def export_dialog(self) -> None:
        if self.registry_id is None:
            return
        folder = remembered_folder(self.ctx.qsettings, EXPORT_FOLDER_KEY)
        dialog = QFileDialog(self, _("Export registry"), folder, _("Excel (*.xlsx)"))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix("xlsx")
        dialog.selectFile(export_file_name(self.registry_name, date.today()))
        self.export_file_dialog = dialog  # tests reach it
        if await ask(dialog) == QDialog.DialogCode.Accepted and dialog.selectedFiles():
            out = Path(dialog.selectedFiles()[0])
            remember_folder(self.ctx.qsettings, EXPORT_FOLDER_KEY, out.parent)
            await self.export(out)

    async def export(self, out: Path, language: str | None = None) -> int | None:
        """Export off the GUI thread behind a cancellable progress dialog; headers and
        warnings in ``language``, by default the interface's."""
        assert self.registry_id is not None
        registry_id, service = self.registry_id, self.ctx.app.registry
        language = language or interface_language()
        try:
            label = _("Writing {name}…").format(name=out.name)
            rows = await run_with_progress(
                self,
                _("Export"),
                label,
                lambda p, c: service.export(
                    registry_id, out, progress=p, cancel=c, language=language
                ),
                describe=counted(label, _("rows")),
            )
        except Canceled:
            self.ctx.notifier.notify(_("Export canceled."), "info")
            return None
        self.ctx.notifier.notify(
            ngettext(
                "Exported {count} row to {file}", "Exported {count} rows to {file}", rows
            ).format(count=rows, file=out),
            "success",
        )
        return rows

    def _job_names(self) -> dict[int, str]:
        return {j.id: j.file_name for j in self.ctx.app.store.list_jobs()}

    def _failed(self, error: BaseException) -> None:
        if isinstance(error, DocBatchError | OSError):
            self.ctx.notifier.notify(error_text(error).strip("'\""), "error")
