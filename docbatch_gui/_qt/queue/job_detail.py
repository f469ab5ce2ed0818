"""The selected job: its pages as thumbnails (loaded lazily) and its documents."""

from __future__ import annotations

import asyncio
import html

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import (
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.language import interface_language
from docbatch_gui._qt.widgets.thumbs import PageImages
from docbatch_gui.domain.models import Document, Job

PAGE_ICON = QSize(150, 200)
#: document fields shown in the list (the rest are in the review screen)
SUMMARY_FIELDS = ("number", "date", "amount", "counterparty")


class JobDetail(QWidget):
    #: (job id, document index): the operator wants to review this document
    review_requested = Signal(int, int)

    def __init__(self, ctx: GuiContext, images: PageImages, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.images = images
        self.job: Job | None = None
        self._load_task: asyncio.Task[None] | None = None

        self.title = QLabel(self.tr("Select a job to see its pages and documents."))
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.pages = QListWidget()
        self.pages.setViewMode(QListView.ViewMode.IconMode)
        self.pages.setIconSize(PAGE_ICON)
        self.pages.setResizeMode(QListView.ResizeMode.Adjust)
        self.pages.setMovement(QListView.Movement.Static)
        self.pages.setUniformItemSizes(True)
        self.pages.setSpacing(6)
        self.documents = QTreeWidget()
        self.documents.setRootIsDecorated(False)
        self.documents.setHeaderLabels(
            [
                self.tr("Type"),
                self.tr("Pages"),
                self.tr("Number"),
                self.tr("Date"),
                self.tr("Amount"),
                self.tr("Review"),
            ]
        )
        self.documents.itemActivated.connect(self._activated)

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.pages)
        split.addWidget(self.documents)
        split.setSizes([300, 200])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(split, 1)

    def show_job(self, job: Job | None) -> None:
        if self._load_task is not None:
            self._load_task.cancel()
        self.job = job
        self.pages.clear()
        self.documents.clear()
        if job is None:
            self.title.setText(self.tr("Select a job to see its pages and documents."))
            return
        # names are the operator's data: escaped, so "<img …>.pdf" is shown as written
        name, where = html.escape(job.file_name), html.escape(job.source_path)
        text = f"<b>{name}</b><br>{where}"
        if job.error:  # in the interface language, worded from its code
            error = html.escape(job.error_words(interface_language()) or "")
            text += f'<br><span style="color:#b3261e">{error}</span>'
        self.title.setText(text)
        self._load_task = asyncio.ensure_future(self._load(job))

    async def _load(self, job: Job) -> None:
        loop = asyncio.get_running_loop()
        pages, documents = await asyncio.gather(
            loop.run_in_executor(None, self.ctx.app.pages, job.id),
            loop.run_in_executor(None, self.ctx.app.documents_for, [job.id]),
        )
        self._fill_documents(documents)
        items = []
        for page in pages:
            item = QListWidgetItem(self.tr("Page {0}").format(page.page_no))
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
            if image is not None:
                item.setIcon(QIcon(QPixmap.fromImage(image)))

    def _fill_documents(self, documents: list[Document]) -> None:
        for doc in documents:
            pages = doc.page_label
            values = [doc.fields.get(name) or "" for name in ("number", "date", "amount")]
            review = self.tr("yes") if doc.needs_review else ""
            item = QTreeWidgetItem([self.ctx.doc_type_label(doc.doc_type), pages, *values, review])
            item.setData(0, Qt.ItemDataRole.UserRole, (doc.job_id, doc.doc_index))
            if doc.review_codes:
                item.setToolTip(5, "\n".join(self.ctx.reasons(doc)))
            self.documents.addTopLevelItem(item)
        for column in range(self.documents.columnCount()):
            self.documents.resizeColumnToContents(column)

    def _activated(self, item: QTreeWidgetItem) -> None:
        job_id, doc_index = item.data(0, Qt.ItemDataRole.UserRole)
        self.review_requested.emit(job_id, doc_index)
