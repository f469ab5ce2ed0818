"""The Registry tab: the imported registries above, the open one's results below.

A registry is an Excel list of documents that should exist (an auditor's list of
invoices, say); the wizard imports it and matches every row to a document. Long
actions (search, export) run off the GUI thread behind a cancellable progress
dialog; deleting asks first.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.language import error_text
from docbatch_gui._qt.registry.models import REG_FILE, REG_NAME, RecordRole, RegistryListModel
from docbatch_gui._qt.registry.results import ResultsView
from docbatch_gui._qt.registry.wizard import RegistryWizard
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.dialogs import ask, confirm
from docbatch_gui._qt.widgets.layout import STRETCH, filled
from docbatch_gui._qt.widgets.progress import counted, run_with_progress
from docbatch_gui._qt.widgets.thumbs import PageImages
from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.domain.progress import Canceled
from docbatch_gui.domain.registry import Registry, RegistryStatus
from docbatch_gui.i18n import _, ngettext

#: the registry whose results were open last: they open again at the next start
LAST_OPEN_KEY = "registry/last_open"


class RegistryTab(QWidget):
    #: the registry list was reloaded
    refreshed = Signal()

    def __init__(
        self, ctx: GuiContext, images: PageImages | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.images = images or PageImages(ctx.host)
        self.wizard: RegistryWizard | None = None
        #: the last results were shown once the list first had registries
        self.restored = False

        self.new_button = QPushButton(_("New registry…"))
        self.new_button.clicked.connect(lambda: spawn(self.new_registry(), self._failed))
        self.open_button = QPushButton(_("Open results"))
        self.open_button.clicked.connect(lambda: spawn(self.open_selected(), self._failed))
        self.search_button = QPushButton(_("Search again"))
        self.search_button.clicked.connect(lambda: spawn(self.search_selected(), self._failed))
        self.export_button = QPushButton(_("Export…"))
        self.export_button.clicked.connect(lambda: spawn(self.export_selected(), self._failed))
        self.delete_button = QPushButton(_("Delete"))
        self.delete_button.clicked.connect(lambda: spawn(self.delete_selected(), self._failed))
        buttons = (self.new_button, self.open_button, self.search_button, self.export_button)
        bar = filled(QHBoxLayout(), *buttons, self.delete_button, STRETCH)

        self.model = RegistryListModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.doubleClicked.connect(lambda _i: spawn(self.open_selected(), self._failed))
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._enable())
        self.empty = QLabel(
            _(
                "<p><b>No registry yet.</b></p><p>A registry is an Excel list of documents "
                "that should exist, for example an auditor's list of invoices. Import it with "
                "<b>New registry…</b>: say where the table is, which columns hold the number, "
                "date and amount, and DocBatch finds the document for every row, shows the rows "
                "without one and the amounts that disagree.</p>"
            )
        )
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setStyleSheet("color: palette(mid); padding: 24px;")
        self.results = ResultsView(ctx, self.images)
        self.results.hide()

        top = QWidget()
        filled(QVBoxLayout(top), bar, (self.table, 1), (self.empty, 1), margins=0)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(top)
        self.splitter.addWidget(self.results)
        self.splitter.setSizes([140, 660])
        filled(QVBoxLayout(self), self.splitter)
        self._enable()

    # -- the list --------------------------------------------------------------------

    async def refresh(self) -> None:
        keep = self.selected()
        registries = await asyncio.to_thread(self.ctx.app.registry.registries)
        self.model.reset(registries)
        self.table.resizeColumnsToContents()
        self.table.setColumnWidth(REG_NAME, max(self.table.columnWidth(REG_NAME), 160))
        self.table.setColumnWidth(REG_FILE, max(self.table.columnWidth(REG_FILE), 160))
        if keep is not None:
            self.select(keep.id)
        elif registries:
            self.table.selectRow(0)
        has_any = bool(registries)
        self.table.setVisible(has_any)
        self.empty.setVisible(not has_any)
        if not has_any:
            self.results.hide()
        self._enable()
        if has_any and not self.restored:
            self.restored = True
            await self._restore(registries)
        self.refreshed.emit()

    async def _restore(self, registries: list[Registry]) -> None:
        """At the start, the results open on the registry open last (else the first
        one searched): the operator sees them without pressing *Open results*."""
        if self.results.registry_id is not None:
            return
        try:
            last = int(str(self.ctx.qsettings.value(LAST_OPEN_KEY, "") or 0))
        except ValueError:
            last = 0
        known = {r.id: r for r in registries}
        chosen = known.get(last) or next(
            (r for r in registries if r.status is RegistryStatus.SEARCHED), None
        )
        if chosen is not None:
            self.select(chosen.id)
            await self.open_results(chosen.id)

    def selected(self) -> Registry | None:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].data(RecordRole) if rows else None

    def select(self, registry_id: int) -> bool:
        row = self.model.row_of(registry_id)
        if row is None:
            return False
        self.table.selectRow(row)
        return True

    def _enable(self) -> None:
        has = self.selected() is not None
        for button in (
            self.open_button,
            self.search_button,
            self.export_button,
            self.delete_button,
        ):
            button.setEnabled(has)

    def showEvent(self, event: object) -> None:
        """Jobs may have been deleted or processed again meanwhile: the list and the
        results are read again (rows whose document went are matched again then)."""
        super().showEvent(event)  # type: ignore[arg-type]
        spawn(self.refresh())
        if self.results.registry_id is not None:
            spawn(self.results.reload())

    # -- actions ---------------------------------------------------------------------

    async def new_registry(self) -> int | None:
        """The wizard, window-modal; its registry's results open when it finishes."""
        wizard = RegistryWizard(self.ctx, self)
        self.wizard = wizard
        try:
            await ask(wizard)
            done = wizard.run_page.done_id
        finally:
            self.wizard = None
            wizard.deleteLater()
        await self.refresh()
        if done is not None:
            self.select(done)
            await self.open_results(done)
        return done

    async def open_selected(self) -> None:
        reg = self.selected()
        if reg is not None:
            await self.open_results(reg.id)

    async def open_results(self, registry_id: int) -> None:
        self.ctx.qsettings.setValue(LAST_OPEN_KEY, registry_id)
        self.results.show()
        await self.results.open(registry_id)

    async def search_selected(self) -> None:
        """Search again: the pair count first, then the run with progress and Cancel."""
        reg = self.selected()
        if reg is None:
            return
        service = self.ctx.app.registry
        pairs = await asyncio.to_thread(service.candidate_pairs, reg.id)
        try:
            label = _("Searching “{name}”: {pairs} candidate pairs to score").format(
                name=reg.name, pairs=pairs
            )
            found = await run_with_progress(
                self,
                _("Search"),
                label,
                lambda p, c: service.search(reg.id, progress=p, cancel=c),
                describe=counted(label, _("rows")),
            )
        except Canceled:
            self.ctx.notifier.notify(_("Search canceled."), "info")
            await self.refresh()
            return
        self.ctx.notifier.notify(
            ngettext(
                "{registry}: {count} row matched, {unmatched} without a match.",
                "{registry}: {count} rows matched, {unmatched} without a match.",
                found.matched + found.manual,
            ).format(
                registry=reg.name, count=found.matched + found.manual, unmatched=found.no_match
            ),
            "success",
        )
        await self.refresh()
        await self.open_results(reg.id)

    async def export_selected(self) -> None:
        reg = self.selected()
        if reg is None:
            return
        if self.results.registry_id != reg.id:
            await self.open_results(reg.id)
        await self.results.export_dialog()

    async def delete_selected(self) -> None:
        reg = self.selected()
        if reg is None:
            return
        if not await confirm(
            self,
            _("Delete registry"),
            _(
                "Delete “{name}” with its rows, results and manual assignments? The Excel "
                "file itself is not touched."
            ).format(name=reg.name),
        ):
            return
        await asyncio.to_thread(self.ctx.app.store.delete_registry, reg.id)
        if self.results.registry_id == reg.id:
            self.results.registry_id = None
            self.results.hide()
        self.table.clearSelection()
        await self.refresh()

    def _failed(self, error: BaseException) -> None:
        if isinstance(error, DocBatchError | OSError):
            self.ctx.notifier.notify(error_text(error), "error")
