"""The selected job: its pages as thumbnails (loaded lazily) and its documents."""

from __future__ import annotations

import asyncio
import html
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QSizePolicy,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.language import interface_language
from docbatch_gui._qt.queue.jobs_model import error_line, state_label
from docbatch_gui._qt.queue.retry_words import retry_note
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.icons import disc_icon
from docbatch_gui._qt.widgets.layout import filled
from docbatch_gui._qt.widgets.thumbs import PageImages
from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.models import Document, Job
from docbatch_gui.engine.holds import JobHold
from docbatch_gui.i18n import _, pgettext

PAGE_ICON = QSize(150, 200)
#: the least height of the pages list and the documents table (a header and a row)
MIN_PART_HEIGHT = 48
ERROR_STYLE = (
    "background: #fdecea; color: #8c1d18; border: 1px solid #f3b8b2;"
    " border-radius: 4px; padding: 6px 8px;"
)


class JobDetail(QWidget):
    #: (job id, document index): the operator wants to review this document
    review_requested = Signal(int, int)

    def __init__(self, ctx: GuiContext, images: PageImages, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.images = images
        self.job: Job | None = None
        #: why a queued job is held (the queue's model knows what is missing)
        self.hold_of: Callable[[Job], JobHold | None] = lambda job: None
        #: why a job's last attempt failed (the bridge keeps it while it is retried)
        self.last_failure: Callable[[int], Message | None] = lambda job_id: None
        self._load_task: asyncio.Task[None] | None = None

        self.title = QLabel(_("Select a job to see its pages and documents."))
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        #: why the job failed, timed out or was canceled, in words, with what to do
        self.error = QLabel()
        self.error.setObjectName("job_error")
        self.error.setWordWrap(True)
        self.error.setTextFormat(Qt.TextFormat.PlainText)  # quotes file names
        self.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error.setStyleSheet(ERROR_STYLE)
        # never shorter than its text: the pages and documents below give way instead
        self.error.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.error.hide()
        #: which model read the file, whether it went to the escalation model, and
        #: what each cost (routing by difficulty)
        self.routing = QLabel()
        self.routing.setObjectName("job_routing")
        self.routing.setWordWrap(True)
        self.routing.setTextFormat(Qt.TextFormat.PlainText)
        self.routing.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.routing.hide()
        self.pages = QListWidget()
        self.pages.setViewMode(QListView.ViewMode.IconMode)
        self.pages.setIconSize(PAGE_ICON)
        self.pages.setResizeMode(QListView.ResizeMode.Adjust)
        self.pages.setMovement(QListView.Movement.Static)
        self.pages.setUniformItemSizes(True)
        self.pages.setSpacing(6)
        self.documents = QTreeWidget()
        self.documents.setRootIsDecorated(False)
        # a document that needs review is marked by an icon on its type (the reasons in
        # its tooltip): a column of "yes" did not fit a 1024-pixel screen
        self.documents.setHeaderLabels(
            [_("Type"), pgettext("short column title", "Pages"), _("Number"), _("Date"),
             _("Amount")]
        )  # fmt: skip
        self.documents.itemActivated.connect(self._activated)
        # within the pane, never scrolling sideways (a 1024-pixel screen leaves it ~300
        # pixels): the type takes what the numbers leave and elides, its tooltip whole
        header = self.documents.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.documents.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.pages)
        split.addWidget(self.documents)
        split.setSizes([300, 200])
        for part in (self.pages, self.documents):  # a small screen: they scroll
            part.setMinimumHeight(MIN_PART_HEIGHT)
        #: pages and documents; hidden for a file that has none (a damaged file's
        #: error then has the whole pane)
        self.contents = split
        parts = (self.title, self.error, self.routing, (split, 1))
        filled(QVBoxLayout(self), *parts, margins=0).addStretch(0)

    def show_job(self, job: Job | None) -> None:
        if self._load_task is not None:
            self._load_task.cancel()
        self.job = job
        self.pages.clear()
        self.documents.clear()
        self._show_error(job)
        self.contents.setVisible(job is None or not self.error.isVisible() or bool(job.pages))
        text = routing_line(job) if job is not None else ""
        self.routing.setText(text)
        self.routing.setVisible(bool(text))
        if job is None:
            self.title.setText(_("Select a job to see its pages and documents."))
            return
        # names are the operator's data: escaped, so "<img …>.pdf" is shown as written
        name, where = html.escape(job.file_name), html.escape(job.source_path)
        text = f"<b>{name}</b><br>{where}"
        folder = self._watched_folder(job)
        if folder is not None:
            text += "<br>" + html.escape(
                _("from the watched folder {folder}").format(folder=folder)
            )
        if job.error and not self.error.isVisibleTo(self):
            # in the interface language, worded from its code; a failed job's error is
            # in the box below with its kind and advice, and said once
            error = html.escape(job.error_words(interface_language()) or "")
            text += f'<br><span style="color:#b3261e">{error}</span>'
        self.title.setText(text)
        # spawned: closing the window waits for it (drain) instead of leaving it to
        # wake on a deleted list
        self._load_task = spawn(self._load(job))

    def _watched_folder(self, job: Job) -> str | None:
        """The watched folder the file was taken from, if it was."""
        watching = self.ctx.host.watching
        folders = watching.folders if watching is not None else []
        folders = folders or self.ctx.app.settings.watched_folders
        source = Path(job.source_path)
        return next((str(f) for f in folders if source.is_relative_to(f)), None)

    def _show_error(self, job: Job | None) -> None:
        hold = self.hold_of(job) if job is not None else None
        if hold is not None:
            # the reason names its own way on (a key, Retry now, Vision): a fixed "Add a
            # key" line told a job held for an unreachable Claude to add the key it has
            self.error.setText(_("Held: {reason}").format(reason=hold.reason(interface_language())))
            self.error.show()
            return
        retry = retry_note(job, self.last_failure(job.id)) if job is not None else None
        if retry is not None:  # an attempt failed and the worker tries again
            self.error.setText(retry)
            self.error.show()
            return
        reason = error_line(job) if job is not None else None
        self.error.setVisible(bool(reason))
        if job is None or not reason:
            self.error.clear()
            return
        kind = self._kind_labels().get(job.error_kind) if job.error_kind else None
        what = state_label(job.state) + (f" ({kind})" if kind else "")
        advice = self._advice().get(job.error_kind) if job.error_kind else None
        text = f"{what}: {job.error_words(interface_language())}"
        self.error.setText(text + (f"\n{advice}" if advice else ""))

    def _kind_labels(self) -> dict[ErrorKind, str]:
        return {
            ErrorKind.UNSUPPORTED: _("bad input"),
            ErrorKind.RETRYABLE: _("temporary"),
            ErrorKind.TIMEOUT: _("timeout"),
            ErrorKind.CRITICAL: _("critical"),
        }

    def _advice(self) -> dict[ErrorKind, str]:
        return {
            ErrorKind.UNSUPPORTED: _("Retrying will not help: fix or replace the file."),
            ErrorKind.RETRYABLE: _("Retry it (Ctrl+R); it may pass next time."),
            ErrorKind.TIMEOUT: _(
                "Retry it, or raise the time limits in Settings for files this large."
            ),
            ErrorKind.CRITICAL: _("Fix the setting named above, then press Resume."),
        }

    async def _load(self, job: Job) -> None:
        pages, documents = await asyncio.gather(
            asyncio.to_thread(self.ctx.app.pages, job.id),
            asyncio.to_thread(self.ctx.app.documents_for, [job.id]),
        )
        self._fill_documents(documents)
        items = []
        for page in pages:
            item = QListWidgetItem(_("Page {page_no}").format(page_no=page.page_no))
            item.setData(Qt.ItemDataRole.UserRole, page.page_no)
            item.setSizeHint(QSize(PAGE_ICON.width() + 16, PAGE_ICON.height() + 28))
            self.pages.addItem(item)
            items.append(item)
        # Lazily, in page order; a new selection cancels the rest.
        for item in items:
            page_no = item.data(Qt.ItemDataRole.UserRole)
            image = await self.images.preview(
                job.id, page_no, PAGE_ICON.width(), PAGE_ICON.height()
            )
            if not isValid(item):
                return  # the list was cleared meanwhile (another job, or the pane closed)
            if image is not None:
                item.setIcon(QIcon(QPixmap.fromImage(image)))

    def _fill_documents(self, documents: list[Document]) -> None:
        for doc in documents:
            pages = doc.page_label
            values = [doc.fields.get(name) or "" for name in ("number", "date", "amount")]
            item = QTreeWidgetItem([self.ctx.doc_type_label(doc.doc_type), pages, *values])
            item.setData(0, Qt.ItemDataRole.UserRole, (doc.job_id, doc.doc_index))
            item.setToolTip(0, item.text(0))
            if doc.needs_review:
                item.setIcon(0, disc_icon("#e37400", "!"))
                reasons = self.ctx.reasons(doc) if doc.review_codes else []
                item.setToolTip(
                    0, "\n".join([item.text(0), pgettext("job state", "Needs review"), *reasons])
                )
            self.documents.addTopLevelItem(item)

    def _activated(self, item: QTreeWidgetItem) -> None:
        job_id, doc_index = item.data(0, Qt.ItemDataRole.UserRole)
        self.review_requested.emit(job_id, doc_index)


def _usd(cost: float | None) -> str:
    return "—" if cost is None else f"${cost:.4f}"


def routing_line(job: Job) -> str:
    """Which model answered and what each answer cost, in words (routing by
    difficulty); empty before any Claude request, or for an offline job. The queue's
    detail pane and the Review tab's job tooltip show it."""
    if job.first_model is None:
        return ""
    first = _("Read by {first_model}: {usd}").format(
        first_model=job.first_model, usd=_usd(job.cost_first_usd)
    )
    if not job.escalated:
        return first
    labels = {
        "missing_field": _("a key field missing"),
        "unsure": _("unsure"),
        "check_failed": _("a field check failed"),
        "contradiction": _("contradicts the page"),
    }
    reasons = ", ".join(labels.get(r, r) for r in job.escalation_reasons)
    escalated = _("sent to {model} ({reasons}): {usd}").format(
        model=job.escalation_model or "?", reasons=reasons or "?", usd=_usd(job.cost_escalation_usd)
    )
    kept = (
        _("answer kept: {answered_by}").format(answered_by=job.answered_by)
        if job.answered_by
        else ""
    )
    return "; ".join(p for p in (first, escalated, kept) if p)
