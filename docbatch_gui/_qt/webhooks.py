"""The Webhooks tab: deliveries that failed or wait, and sending them again.

Each job that ends done or needing review is posted to WEBHOOK_URL; a delivery that
failed every try is kept in the outbox (``docbatch webhooks`` on the command line).
Here a person sees them with the job, the time, the tries and the receiver's last
answer, and sends the selected ones, or all, again. The list is read and the resend
runs off the GUI thread, the resend behind a progress dialog that can cancel it.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.language import error_text
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.layout import STRETCH, filled
from docbatch_gui._qt.widgets.progress import counted, run_with_progress
from docbatch_gui.app.webhooks import FAILED, Delivery, ResendOutcome, Webhooks
from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.domain.progress import Canceled
from docbatch_gui.domain.state_names import state_name
from docbatch_gui.i18n import _, ngettext, pgettext

COL_ANSWER = 6  # the last column; its cells show the whole answer as a tooltip


def local_time(stamp: str | None) -> str:
    """An outbox time (ISO, UTC) in the machine's time, to the minute."""
    if not stamp:
        return ""
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp


def answer_words(answer: str | None) -> str:
    """The last answer as stored (English); the catalogue's words when it has them
    ("the receiver cannot be reached"), the receiver's own text otherwise; begun with a
    capital, as every cell of the window is."""
    if not answer:
        return ""
    said = _(answer)
    return said[:1].upper() + said[1:]


class _OutboxNews(QObject):
    """Carries "the outbox changed" from the sender's thread to the GUI thread."""

    changed = Signal()


class WebhooksTab(QWidget):
    def __init__(self, ctx: GuiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.deliveries: list[Delivery] = []
        #: a refresh is running; another change meanwhile asks for one more after it
        self._reading = False
        self._stale = False
        self.news = _OutboxNews(self)
        self.news.changed.connect(self._outbox_changed)
        stop = Webhooks.listen(self._heard)
        self.destroyed.connect(lambda *_: stop())
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.where.setTextFormat(Qt.TextFormat.PlainText)
        self.refresh_button = QPushButton(_("Refresh"))
        self.refresh_button.clicked.connect(lambda: spawn(self.refresh(), self._failed))
        self.resend_button = QPushButton(_("Resend"))
        self.resend_button.setToolTip(_("Send the selected failed deliveries again."))
        self.resend_button.clicked.connect(lambda: spawn(self.resend_selected(), self._failed))
        self.resend_all_button = QPushButton(_("Resend all"))
        self.resend_all_button.setToolTip(_("Send every failed delivery again."))
        self.resend_all_button.clicked.connect(lambda: spawn(self.resend(None), self._failed))
        buttons = (self.resend_button, self.resend_all_button, self.refresh_button)
        bar = filled(QHBoxLayout(), *buttons, STRETCH)
        self.table = QTableWidget(0, 7)
        self.table.setHorizontalHeaderLabels(
            [_("State"), _("Job"), _("File"), _("Event"), _("Time"), _("Attempts"),
             _("Last answer")]
        )  # fmt: skip
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.itemSelectionChanged.connect(self._enable)
        self.empty = QLabel(_("No delivery failed or waits to be sent."))
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setStyleSheet("color: palette(mid); padding: 24px;")
        filled(QVBoxLayout(self), self.where, bar, (self.table, 1), (self.empty, 1))
        self._enable()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        spawn(self.refresh(), self._failed)

    def _heard(self) -> None:
        """In the sender's thread: a delivery was queued, sent or given up."""
        with contextlib.suppress(RuntimeError):  # the tab is gone: nothing to show
            self.news.changed.emit()

    def _outbox_changed(self) -> None:
        """A delivery was tried: read the list again while it is shown (a hidden tab
        reads it when shown), once for a burst of changes."""
        if not self.isVisible():
            return
        if self._reading:
            self._stale = True
            return
        spawn(self.refresh(), self._failed)

    async def refresh(self) -> None:
        """Read the outbox in a worker thread and show it."""
        webhooks = self.ctx.app.webhooks
        self._reading = True
        try:
            found = await asyncio.to_thread(webhooks.deliveries)
        finally:
            self._reading = False
        if self._stale:
            self._stale = False
            spawn(self.refresh(), self._failed)
        url = webhooks.url
        self.where.setText(
            _("Deliveries go to {url}.").format(url=url)
            if url
            else _("WEBHOOK_URL is not set: nothing is delivered. Set it in Settings.")
        )
        self.show_deliveries(found)

    def show_deliveries(self, found: list[Delivery]) -> None:
        self.deliveries = found
        table = self.table
        table.setRowCount(len(found))
        for row, item in enumerate(found):
            failed = item.state == FAILED
            cells = [
                pgettext("webhook delivery", "Failed") if failed
                else pgettext("webhook delivery", "Waiting"),
                str(item.job_id),
                item.file_name,
                state_name(item.event),
                local_time(item.failed_at if failed else item.created_at),
                str(item.attempts),
                answer_words(item.answer),
            ]  # fmt: skip
            for column, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                if column == COL_ANSWER:
                    cell.setToolTip(text)
                table.setItem(row, column, cell)
        table.setVisible(bool(found))
        self.empty.setVisible(not found)
        table.resizeColumnsToContents()
        # a table shown again after its empty state keeps the header it had hidden:
        # the last answer is stretched to the width it has now
        table.horizontalHeader().setStretchLastSection(False)
        table.horizontalHeader().setStretchLastSection(True)
        self._enable()

    def selected_failed(self) -> list[str]:
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()})
        return [self.deliveries[r].id for r in rows if self.deliveries[r].state == FAILED]

    def _enable(self) -> None:
        has_url = bool(self.ctx.app.webhooks.url)
        any_failed = any(d.state == FAILED for d in self.deliveries)
        self.resend_button.setEnabled(has_url and bool(self.selected_failed()))
        self.resend_all_button.setEnabled(has_url and any_failed)

    async def resend_selected(self) -> ResendOutcome | None:
        ids = self.selected_failed()
        return await self.resend(ids) if ids else None

    async def resend(self, ids: list[str] | None) -> ResendOutcome | None:
        """Send again with progress and Cancel; the list is read again after."""
        webhooks = self.ctx.app.webhooks
        count = len(ids) if ids is not None else sum(d.state == FAILED for d in self.deliveries)
        label = ngettext(
            "Sending {count} delivery again…", "Sending {count} deliveries again…", count
        ).format(count=count)
        try:
            outcome = await run_with_progress(
                self,
                _("Resend webhooks"),
                label,
                lambda p, c: webhooks.resend(ids, progress=p, cancel=c),
                describe=counted(label, _("deliveries")),
            )
        except Canceled:
            self.ctx.notifier.notify(_("Resend canceled."), "info")
            await self.refresh()
            return None
        said = ngettext(
            "{count} delivery sent, {failed} failed again.",
            "{count} deliveries sent, {failed} failed again.",
            outcome.delivered,
        ).format(count=outcome.delivered, failed=outcome.failed)
        if outcome.in_flight:
            said += " " + ngettext(
                "{count} was being sent already and is sent once.",
                "{count} were being sent already and are sent once.",
                outcome.in_flight,
            ).format(count=outcome.in_flight)
        self.ctx.notifier.notify(said, "success" if not outcome.failed else "warning")
        await self.refresh()
        return outcome

    def _failed(self, error: BaseException) -> None:
        if isinstance(error, DocBatchError | OSError):
            self.ctx.notifier.notify(error_text(error), "error")
