"""A page image shown large, fitted to the width, with page navigation."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPixmap, QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.thumbs import PageImages
from docbatch_gui.domain.models import Page

WARNING_STYLE = "color: #8a5a00; background: #fff4d6; padding: 4px;"


class PageView(QWidget):
    def __init__(self, images: PageImages, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.images = images
        self.job_id: int | None = None
        self.pages: list[int] = []
        self.position = 0
        self._image: QImage | None = None
        self._task: asyncio.Task[None] | None = None

        self.label = QLabel(self.tr("No page"))
        self.label.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidget(self.label)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.previous_button = QPushButton("◀")
        self.previous_button.setToolTip(self.tr("Previous page"))
        self.previous_button.clicked.connect(lambda: self.go(self.position - 1))
        self.next_button = QPushButton("▶")
        self.next_button.setToolTip(self.tr("Next page"))
        self.next_button.clicked.connect(lambda: self.go(self.position + 1))
        self.where = QLabel()
        #: why the page has no image, or why its orientation needs a look
        self.warning = QLabel()
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet(WARNING_STYLE)
        self.warning.hide()
        nav = QHBoxLayout()
        nav.addStretch(1)
        nav.addWidget(self.previous_button)
        nav.addWidget(self.where)
        nav.addWidget(self.next_button)
        nav.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.warning)
        layout.addWidget(self.scroll_area, 1)
        layout.addLayout(nav)
        self._update_nav()

    def show_pages(self, job_id: int, pages: list[int]) -> None:
        self.job_id = job_id
        self.pages = pages
        self.go(0)

    def go(self, position: int) -> None:
        if not self.pages or not 0 <= position < len(self.pages) or self.job_id is None:
            self._update_nav()
            return
        self.position = position
        self._update_nav()
        if self._task is not None:
            self._task.cancel()
        self._task = spawn(self._load(self.job_id, self.pages[position]))

    async def _load(self, job_id: int, page_no: int) -> None:
        self.label.setText(self.tr("Loading page {0}…").format(page_no))
        record = await self.images.page_record(job_id, page_no)
        self._show_notes(record)
        image = await self.images.page_image(job_id, page_no)
        self._image = image
        if image is None or image.isNull():
            self.label.setText(self.tr("Page {0} has no image.").format(page_no))
            return
        self._fit()

    def _show_notes(self, page: Page | None) -> None:
        """A skipped page or an uncertain orientation is said above the page; how the
        orientation was decided is the page number's tooltip."""
        self.where.setToolTip(page.orientation_note if page else "")
        if page is not None and page.render_error:
            text = self.tr(
                "Page {0} could not be rendered ({1}). Only its text layer was read: "
                "look at this page in the source file."
            ).format(page.page_no, page.render_error)
        elif page is not None and page.orientation_uncertain:
            text = self.tr("Orientation uncertain on page {0}: it was kept as scanned. {1}").format(
                page.page_no, page.orientation_note
            )
        else:
            text = ""
        self.warning.setText(text)
        self.warning.setVisible(bool(text))

    def _fit(self) -> None:
        if self._image is None or self._image.isNull():
            return
        width = max(200, self.scroll_area.viewport().width() - 24)
        scaled = self._image.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation)
        self.label.setPixmap(QPixmap.fromImage(scaled))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _update_nav(self) -> None:
        many = len(self.pages) > 1
        self.previous_button.setEnabled(many and self.position > 0)
        self.next_button.setEnabled(many and self.position < len(self.pages) - 1)
        if self.pages:
            self.where.setText(
                self.tr("Page {0} ({1} of {2})").format(
                    self.pages[self.position], self.position + 1, len(self.pages)
                )
            )
        else:
            self.where.setText("")
