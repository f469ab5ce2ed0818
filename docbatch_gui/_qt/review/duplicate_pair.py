"""The Review tab's likely-duplicate pair: when the document shown is marked
``likely_duplicate``, the document its mark names stands beside it (its first page and
its key fields next to this one's), so a person decides with both in view: *Not a
duplicate*, or *Open the other* to correct or confirm that one instead.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QImage, QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.thumbs import PageImages
from docbatch_gui.checks.duplicates import CODE, named_other
from docbatch_gui.domain.models import Document
from docbatch_gui.i18n import _

#: the fields that tell two invoices apart, in the order a person compares them
KEY_FIELDS = ("number", "date", "seller_tax_id", "amount")
#: the other document's page is scaled to fit this box (pixels)
PAGE_BOX = (420, 560)
NOTHING = "—"
#: a value the two documents do not share
DIFFERENT_STYLE = "color: #8e24aa; font-weight: bold;"


class FittedPage(QLabel):
    """A page image scaled to the space it is given, its proportions kept."""

    def __init__(self) -> None:
        super().__init__()
        self.image: QImage | None = None
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.setMinimumSize(120, 160)

    def show_image(self, image: QImage | None) -> None:
        self.image = image
        self.setText("" if image is not None else _("No page image"))
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        if self.image is None:
            super().paintEvent(event)
            return
        scaled = self.image.scaled(
            self.size(), Qt.AspectRatioMode.KeepAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        )  # fmt: skip
        painter = QPainter(self)
        painter.drawImage(
            (self.width() - scaled.width()) // 2, (self.height() - scaled.height()) // 2, scaled
        )
        painter.end()


class DuplicatePair(QWidget):
    #: (job id, document index) of the other document, to open it in Review
    open_other = Signal(int, int)
    #: whether the current document is marked, so the pair is to be shown (Review puts
    #: it in a tab under the page, beside the lines, only then)
    wanted = Signal(bool)

    def __init__(self, ctx: GuiContext, images: PageImages, parent: QWidget | None = None) -> None:
        super().__init__(parent)  # its tab names it
        self.ctx = ctx
        self.images = images
        #: the document shown beside the current one (None: gone from the store)
        self.other: Document | None = None
        self._for: int | None = None  # the current document's id
        # the other's page on the left, what tells the two apart on the right: the
        # pair stands under this document's page, as wide as it and not as tall
        sides = QHBoxLayout(self)
        self.page = FittedPage()
        sides.addWidget(self.page, 1)
        layout = QVBoxLayout()
        sides.addLayout(layout, 2)
        self.where = QLabel()
        self.where.setTextFormat(Qt.TextFormat.PlainText)  # a file name
        self.where.setWordWrap(True)
        layout.addWidget(self.where)
        # every text here wraps and the buttons stand one under the other: at 1024 px
        # a grid of whole words beside a row of buttons made Review wider than the
        # screen (Confirm cut off)
        self.grid = QGridLayout()
        self.grid.addWidget(QLabel(""), 0, 0)
        for column, title in enumerate((_("This document"), _("The other")), start=1):
            head = QLabel(title)
            head.setStyleSheet("font-weight: bold;")
            head.setWordWrap(True)
            self.grid.addWidget(head, 0, column)
        self.labels: dict[str, QLabel] = {}
        self.mine: dict[str, QLabel] = {}
        self.theirs: dict[str, QLabel] = {}
        for row, key in enumerate(KEY_FIELDS, start=1):
            self.labels[key] = QLabel()  # the profile's label, set when shown
            self.labels[key].setWordWrap(True)
            self.grid.addWidget(self.labels[key], row, 0)
            for column, values in ((1, self.mine), (2, self.theirs)):
                value = QLabel()
                value.setTextFormat(Qt.TextFormat.PlainText)  # the documents' text
                value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                value.setWordWrap(True)
                values[key] = value
                self.grid.addWidget(value, row, column)
        layout.addLayout(self.grid)
        self.buttons = QVBoxLayout()
        self.open_button = QPushButton(_("Open the other"))
        self.open_button.setToolTip(
            _("Show the other document in Review, to correct or confirm it")
        )
        self.open_button.clicked.connect(self._open)
        self.buttons.addWidget(self.open_button)
        layout.addLayout(self.buttons)
        layout.addStretch(1)

    def add_button(self, button: QPushButton) -> None:
        """Put the tab's *Not a duplicate* above *Open the other*: the answer is given
        where both documents are seen."""
        self.buttons.insertWidget(0, button)

    async def show_pair(self, doc: Document | None, field_labels: dict[str, str]) -> None:
        """Beside ``doc``, the document its mark names; not wanted when it has none."""
        named = named_other(doc)
        self.wanted.emit(named is not None)
        self._for = doc.id if doc is not None else None
        if doc is None or named is None:
            self.other = None
            return
        for key, label in self.labels.items():
            label.setText(field_labels.get(key, key))
        job_id, document_id = named
        documents = await asyncio.to_thread(self.ctx.app.documents, job_id)
        if self._for != doc.id:
            return  # the operator moved on meanwhile
        other = next((d for d in documents if d.id == document_id), None)
        self.other = other
        self._fill(doc, other, job_id)
        if other is not None:
            spawn(self._show_page(other))

    def _fill(self, doc: Document, other: Document | None, job_id: int) -> None:
        file_name = next(
            (str(c.params.get("file", "")) for c in doc.review_codes if c.code == CODE), ""
        )
        if other is None:
            self.where.setText(
                _(
                    "The document it names (job {job}, {file_name}) is no longer stored: "
                    "Not a duplicate clears the mark."
                ).format(job=job_id, file_name=file_name)
            )
        else:
            self.where.setText(
                _("Job {job} · {file_name} · document {number}, pages {pages}").format(
                    job=job_id, file_name=file_name, number=other.doc_index + 1,
                    pages=other.page_label,
                )
            )  # fmt: skip
        self.page.setVisible(other is not None)
        self.page.image = None
        self.open_button.setEnabled(other is not None)
        for key in KEY_FIELDS:
            mine = doc.fields.get(key)
            theirs = other.fields.get(key) if other is not None else None
            self.mine[key].setText(mine or NOTHING)
            self.theirs[key].setText(theirs or NOTHING)
            differs = other is not None and (mine or "") != (theirs or "")
            self.theirs[key].setStyleSheet(DIFFERENT_STYLE if differs else "")
            self.theirs[key].setToolTip(_("Differs from this document") if differs else "")

    async def _show_page(self, other: Document) -> None:
        image = await self.images.preview(other.job_id, other.page_from, *PAGE_BOX)
        if self.other is not other:
            return
        self.page.show_image(image)

    def _open(self) -> None:
        if self.other is not None:
            self.open_other.emit(self.other.job_id, self.other.doc_index)
