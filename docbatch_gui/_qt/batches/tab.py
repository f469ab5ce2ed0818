"""The Batches tab: Message Batches with their progress and cost, this month's
figures, and in sync mode the live request counts.

It polls the facade every ``REFRESH_MS`` while it is visible, reading the store in
an executor (never on the GUI thread), and updates the rows in place. The month's
summary reads every job, so it is refreshed less often (``SUMMARY_EVERY`` polls).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from PySide6.QtCore import QModelIndex, QPoint, Qt, QTimer
from PySide6.QtGui import QAction, QGuiApplication, QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.batches.model import (
    COL_ACTUAL,
    COL_AGE,
    COL_BATCH,
    COL_CACHE,
    COL_ESTIMATE,
    COL_EXPIRES,
    COL_JOBS,
    COL_MODEL,
    COL_PROGRESS,
    COL_REQUESTS,
    COL_STATUS,
    BatchProgressRole,
    BatchTableModel,
    money,
)
from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.columns import column_actions, offer_columns_menu
from docbatch_gui._qt.widgets.delegates import ProgressDelegate
from docbatch_gui._qt.widgets.dialogs import confirm
from docbatch_gui._qt.widgets.fit import widen_to_labels
from docbatch_gui._qt.widgets.layout import filled
from docbatch_gui.app.batch_stats import BatchRow, MonthSummary
from docbatch_gui.app.budget import BudgetStatus
from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.i18n import _, ngettext
from docbatch_gui.llm.metrics import SyncSnapshot

REFRESH_MS = 2000
SUMMARY_EVERY = 5
COLUMN_WIDTHS = {
    COL_BATCH: 240,
    COL_STATUS: 120,
    COL_REQUESTS: 100,
    COL_PROGRESS: 150,
    COL_AGE: 90,
    COL_EXPIRES: 90,
    COL_JOBS: 60,
    COL_ESTIMATE: 95,
    COL_ACTUAL: 95,
    COL_MODEL: 230,
    COL_CACHE: 85,
}
#: hidden until the operator shows them from the header's menu
SECONDARY_COLUMNS = (COL_MODEL, COL_CACHE)


@dataclass(frozen=True)
class Snapshot:
    """One poll's reading, taken off the GUI thread."""

    rows: list[BatchRow]
    mode: str
    live: SyncSnapshot
    summary: MonthSummary | None
    budget: BudgetStatus | None = None


class BatchesTab(QWidget):
    def __init__(self, ctx: GuiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.model = BatchTableModel(self)
        self._polls = 0
        self._refreshing: asyncio.Task[None] | None = None

        self.summary = QLabel(_("This month: reading…"))
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setObjectName("batches_summary")
        self.live = self._build_live_panel()
        self.stack = QStackedWidget()
        self.empty = QLabel(self._empty_text())
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setTextFormat(Qt.TextFormat.RichText)
        self.empty.setStyleSheet("color: palette(mid); padding: 40px;")
        self.table = self._build_table()
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.table)

        self.cancel_button = QPushButton(_("Cancel batch…"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.setToolTip(
            _("Cancel every unfinished job of the selected batch, then the batch")
        )
        self.cancel_button.clicked.connect(lambda: spawn(self.cancel_selected(), self._failed))
        self.refresh_button = QPushButton(_("Refresh"))
        self.refresh_button.clicked.connect(lambda: spawn(self.refresh(full=True)))
        self.cancel_action = QAction(_("Cancel batch…"), self)
        self.cancel_action.triggered.connect(self.cancel_button.click)
        self.copy_action = QAction(_("Copy batch ID"), self)
        self.copy_action.triggered.connect(self._copy_id)

        self.budget_line = QLabel(_("Budget: reading…"))
        self.budget_line.setTextFormat(Qt.TextFormat.RichText)
        self.budget_line.setObjectName("batches_budget")
        top = filled(QHBoxLayout(), (self.summary, 1), self.refresh_button, self.cancel_button)
        filled(QVBoxLayout(self), top, self.budget_line, self.live, (self.stack, 1))

        self._timer = QTimer(self)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self._poll)

    # -- building -------------------------------------------------------------------------

    def _build_table(self) -> QTableView:
        table = QTableView()
        table.setModel(self.model)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setAlternatingRowColors(True)
        table.setShowGrid(False)
        table.setWordWrap(False)
        table.verticalHeader().hide()
        table.verticalHeader().setDefaultSectionSize(30)
        table.setItemDelegateForColumn(
            COL_PROGRESS, ProgressDelegate(BatchProgressRole, parent=table)
        )
        header = table.horizontalHeader()
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column, width in COLUMN_WIDTHS.items():
            header.resizeSection(column, width)
        widen_to_labels(header)
        # Every column in sight on a 1024-pixel screen: the batch id takes what the
        # others leave (elided in the middle, whole in its tooltip); the model and
        # effort ("claude-haiku-5-5 · усилие низкое, размышления выкл.") and the cache
        # hits start hidden, and the header's menu shows them.
        header.setStretchLastSection(False)
        header.setSectionResizeMode(COL_BATCH, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(40)
        table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        for column in SECONDARY_COLUMNS:
            header.setSectionHidden(column, True)
        offer_columns_menu(table, (COL_BATCH, COL_STATUS), self)
        table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        table.customContextMenuRequested.connect(self._context_menu)
        table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.model.dataChanged.connect(self._selection_changed)
        return table

    def _build_live_panel(self) -> QFrame:
        panel = QFrame()
        panel.setObjectName("sync_live")
        panel.setFrameShape(QFrame.Shape.StyledPanel)
        panel.setStyleSheet(
            "QFrame#sync_live { background: palette(alternate-base); border-radius: 6px; }"
        )
        row = QHBoxLayout(panel)
        title = QLabel(_("<b>Sync mode</b> — live"))
        self.in_flight = QLabel()
        self.succeeded = QLabel()
        self.failed = QLabel()
        self.retried = QLabel()
        row.addWidget(title)
        for label in (self.in_flight, self.succeeded, self.failed, self.retried):
            label.setTextFormat(Qt.TextFormat.RichText)
            row.addSpacing(18)
            row.addWidget(label)
        row.addStretch(1)
        panel.hide()
        return panel

    def _empty_text(self) -> str:
        return "<p style='font-size: 13pt'><b>{}</b></p><p>{}</p><p>{}</p>".format(
            _("No batches yet"),
            _(
                "In batch mode, pages go to Claude through the Message Batches API: "
                "results arrive within 24 hours (usually much sooner) at half the price "
                "of sync mode."
            ),
            _(
                "Choose <i>batch</i> as the processing mode in Settings; the batches "
                "sent will appear here with their progress and cost."
            ),
        )

    # -- refreshing ------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._timer.start()
        self._poll(full=True)

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self._timer.stop()

    def _poll(self, full: bool = False) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # shown before the qasync loop runs: the timer comes back
            return
        spawn(self.refresh(full=full))

    def _read(self, full: bool) -> Snapshot:
        """In an executor: everything the tab shows, in one go."""
        app = self.ctx.app
        return Snapshot(
            rows=app.batch_rows(),
            mode=app.resolve_mode(None),
            live=app.sync_snapshot(),
            summary=app.month_summary() if full else None,
            budget=app.budget() if full else None,
        )

    async def refresh(self, *, full: bool = False) -> None:
        """Read the facade off the GUI thread and update the view; polls that come
        while one is still reading wait for it rather than stack up."""
        if self._refreshing is not None and not self._refreshing.done():
            await asyncio.shield(self._refreshing)
            if not full:
                return
        full = full or self._polls % SUMMARY_EVERY == 0
        self._polls += 1
        self._refreshing = asyncio.ensure_future(self._refresh(full))
        await asyncio.shield(self._refreshing)

    async def _refresh(self, full: bool) -> None:
        snapshot = await asyncio.to_thread(self._read, full)
        self.apply(snapshot)

    def apply(self, snapshot: Snapshot) -> None:
        self.model.update(snapshot.rows)
        self.stack.setCurrentWidget(self.table if snapshot.rows else self.empty)
        if snapshot.summary is not None:
            self._show_summary(snapshot.summary)
        if snapshot.budget is not None:
            self._show_budget(snapshot.budget)
        self.live.setVisible(snapshot.mode == "sync")
        if snapshot.mode == "sync":
            self._show_live(snapshot.live)
        self._selection_changed()

    def _show_summary(self, summary: MonthSummary) -> None:
        text = ngettext(
            "This month: <b>{count}</b> page · cost <b>{cost}</b> · saved <b>{saved}</b> "
            "against sync",
            "This month: <b>{count}</b> pages · cost <b>{cost}</b> · saved <b>{saved}</b> "
            "against sync",
            summary.pages,
        )
        self.summary.setText(
            text.format(
                count=f"{summary.pages:,}",
                cost=money(summary.cost_usd),
                saved=money(summary.savings_usd),
            )
        )
        self.summary.setToolTip(
            _(
                "Jobs finished since {since}. Savings: what the same usage would have cost "
                "at sync prices ({sync_cost}), minus what it cost."
            ).format(
                since=summary.month_start.astimezone().strftime("%Y-%m-%d"),
                sync_cost=money(summary.sync_cost_usd),
            )
        )

    def _show_budget(self, budget: BudgetStatus) -> None:
        def cap(value: float | None) -> str:
            return _("no cap") if value is None else money(value)

        text = _(
            "Budget {month}: spent <b>{spent}</b> · per month <b>{month_cap}</b> · "
            "left <b>{left}</b> · per run <b>{run_cap}</b>"
        ).format(
            month=budget.month,
            spent=money(budget.spent_usd),
            month_cap=cap(budget.month_cap_usd),
            left="—" if budget.left_usd is None else money(budget.left_usd),
            run_cap=cap(budget.run_cap_usd),
        )
        if budget.hold is not None:
            text += " · <b style='color:#b06000'>{}</b>".format(
                _("a run is held by the budget (see the Queue tab)")
            )
        self.budget_line.setText(text)
        self.budget_line.setToolTip(
            _(
                "Spent: the actual costs recorded this calendar month. The caps are set "
                "in Settings (0: no cap); a run whose forecast would cross one waits "
                "before anything is sent."
            )
        )

    def _show_live(self, live: SyncSnapshot) -> None:
        self.in_flight.setText(
            _("In flight <b>{in_flight}</b> / {max_concurrency}").format(
                in_flight=live.in_flight, max_concurrency=live.max_concurrency
            )
        )
        self.in_flight.setToolTip(
            _("Peak this session: {peak_in_flight}").format(peak_in_flight=live.peak_in_flight)
        )
        self.succeeded.setText(
            _("Succeeded <b style='color:#188038'>{succeeded}</b>").format(succeeded=live.succeeded)
        )
        self.failed.setText(
            _("Failed <b style='color:#d93025'>{failed}</b>").format(failed=live.failed)
        )
        self.retried.setText(_("Retried <b>{retried}</b>").format(retried=live.retried))

    # -- actions -----------------------------------------------------------------------------

    def selected(self) -> BatchRow | None:
        rows = self.table.selectionModel().selectedRows()
        return self.model.batch(rows[0].row()) if rows else None

    def select(self, local_id: int) -> None:
        row = self.model.row_of(local_id)
        if row is not None:
            self.table.selectRow(row)

    def _selection_changed(self, *_: object) -> None:
        row = self.selected()
        can = row is not None and row.cancelable
        self.cancel_button.setEnabled(can)
        self.cancel_action.setEnabled(can)
        self.copy_action.setEnabled(row is not None and row.batch_id is not None)

    def column_actions(self) -> list[QAction]:
        """What the header's context menu offers: every column but the id and status."""
        return column_actions(self.table, (COL_BATCH, COL_STATUS), self)

    def _context_menu(self, position: QPoint) -> None:
        index: QModelIndex = self.table.indexAt(position)
        if not index.isValid():
            return
        self.table.selectRow(index.row())
        menu = QMenu(self)
        menu.addAction(self.cancel_action)
        menu.addAction(self.copy_action)
        menu.popup(self.table.viewport().mapToGlobal(position))

    def _copy_id(self) -> None:
        row = self.selected()
        if row is not None and row.batch_id:
            QGuiApplication.clipboard().setText(row.batch_id)

    async def cancel_selected(self) -> None:
        row = self.selected()
        if row is None or not row.cancelable:
            return
        if not await confirm(
            self,
            _("Cancel batch"),
            ngettext(
                "Cancel batch {batch}? Its {count} unfinished job is canceled; requests "
                "already answered are not refunded, the rest are not billed. Jobs shared "
                "with another batch are canceled there too.",
                "Cancel batch {batch}? Its {count} unfinished jobs are canceled; requests "
                "already answered are not refunded, the rest are not billed. Jobs shared "
                "with another batch are canceled there too.",
                row.jobs,
            ).format(batch=row.label, count=row.jobs),
        ):
            return
        canceled = await self.ctx.bridge.call(self.ctx.app.cancel_batch, row.local_id)
        self.ctx.bridge.publish(canceled)
        self.ctx.notifier.notify(
            ngettext(
                "Batch {batch}: {count} job canceled; the batch is canceled on the next poll.",
                "Batch {batch}: {count} jobs canceled; the batch is canceled on the next poll.",
                len(canceled),
            ).format(batch=row.label, count=len(canceled)),
            "info",
        )
        await self.refresh(full=True)

    def _failed(self, error: BaseException) -> None:
        if isinstance(error, DocBatchError):
            text = getattr(error, "message", None) or str(error)
        else:
            text = _("Unexpected error: {error}").format(error=error)
        self.ctx.notifier.notify(_("Could not cancel the batch: {text}").format(text=text), "error")
