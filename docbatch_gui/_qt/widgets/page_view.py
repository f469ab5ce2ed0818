"""A page image shown large, with page navigation, zoom and the values' boxes.

The picture itself is a :class:`PageCanvas`; this widget adds what is around it: which
page of the document, why a page has no image, the zoom buttons, and which page a
chosen field's box is on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QLabel, QStackedWidget, QToolButton, QVBoxLayout, QWidget

from docbatch_gui._qt.language import interface_language
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.layout import STRETCH, filled
from docbatch_gui._qt.widgets.page_canvas import PageCanvas, ValueBox
from docbatch_gui._qt.widgets.thumbs import PageImages
from docbatch_gui.domain.models import Page
from docbatch_gui.i18n import _, pgettext

WARNING_STYLE = "color: #8a5a00; background: #fff4d6; padding: 4px;"


class PageView(QWidget):
    #: the field whose box the operator clicked on the page
    box_clicked = Signal(str)

    def __init__(self, images: PageImages, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.images = images
        self.job_id: int | None = None
        self.pages: list[int] = []
        self.position = 0
        #: the boxes of the document shown, by field, on any of its pages
        self.boxes: dict[str, ValueBox] = {}
        #: (job id, page) of the picture on the canvas, once loaded
        self.shown: tuple[int, int] | None = None
        self._task: asyncio.Task[None] | None = None

        self.canvas = PageCanvas()
        self.canvas.box_clicked.connect(self.box_clicked)
        self.canvas.zoom_changed.connect(self._zoom_shown)
        #: said instead of the page while it loads or when it has no image
        self.label = QLabel(_("No page"))
        self.label.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.label.setWordWrap(True)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.label)
        self.stack.addWidget(self.canvas)
        # tool buttons, as narrow as their arrow: push buttons took 80 px each and, with
        # the zoom buttons, widened the page view past a 1024 px window
        self.previous_button = QToolButton()
        self.previous_button.setText("◀")
        self.previous_button.setToolTip(_("Previous page"))
        self.previous_button.clicked.connect(lambda: self.go(self.position - 1))
        self.next_button = QToolButton()
        self.next_button.setText("▶")
        self.next_button.setToolTip(_("Next page"))
        self.next_button.clicked.connect(lambda: self.go(self.position + 1))
        self.where = QLabel()
        self.where.setMinimumWidth(1)  # "Page 2 (1 of 3)" gives way before the page does
        #: why the page has no image, or why its orientation needs a look
        self.warning = QLabel()
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet(WARNING_STYLE)
        self.warning.hide()
        self.zoom_label = QLabel()
        self.zoom_label.setMinimumWidth(40)
        self.zoom_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.zoom_actions = self._zoom_actions()
        # flat buttons, each as wide as its text: a tool bar folded "Page", "Width" and
        # "+" behind its » in a narrow window, where an operator never looked for them
        nav = filled(QHBoxLayout(), self.previous_button, self.where, self.next_button, STRETCH)
        nav.setSpacing(2)
        self.zoom_buttons: list[QToolButton] = []
        for number, action in enumerate(self.zoom_actions):
            if number == 1:
                nav.addWidget(self.zoom_label)
            button = QToolButton()
            button.setDefaultAction(action)
            button.setAutoRaise(True)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            self.zoom_buttons.append(button)
            nav.addWidget(button)
        filled(QVBoxLayout(self), self.warning, (self.stack, 1), nav, margins=0)
        self._update_nav()
        self._zoom_shown(self.canvas.zoom)

    def _zoom_actions(self) -> list[QAction]:
        """Zoom out, in, fit width, fit page: buttons here, keys wherever the owner adds
        these actions (the Review tab adds them to itself, so they work from the form)."""
        made: list[QAction] = []
        for text, tip, keys, said, slot in (
            ("−", _("Zoom out"), ["Ctrl+-"], "−, Ctrl+−", self.canvas.zoom_out),
            ("+", _("Zoom in"), ["Ctrl++", "Ctrl+="], "+, Ctrl++", self.canvas.zoom_in),
            (_("Width"), _("Fit the width"), ["Ctrl+2"], "Ctrl+2", self.canvas.fit_width),
            (
                pgettext("zoom", "Page"),
                _("Fit the whole page"),
                ["Ctrl+0"],
                "Ctrl+0",
                self.canvas.fit_page,
            ),
        ):
            action = QAction(text, self)
            action.setShortcuts([QKeySequence(k) for k in keys])
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.setToolTip(f"{tip} ({said})")
            action.triggered.connect(slot)
            self.addAction(action)
            made.append(action)
        return made

    def _zoom_shown(self, zoom: float) -> None:
        self.zoom_label.setText(f"{round(zoom * 100)}%")

    def show_pages(self, job_id: int, pages: list[int], boxes: Iterable[ValueBox] = ()) -> None:
        """Show a document's pages and its values' boxes. The same document shown again
        (after a save) stays on its page; a chosen field's box decides the page."""
        same = (job_id, pages) == (self.job_id, self.pages)
        self.job_id = job_id
        self.pages = pages
        self.boxes = {box.field: box for box in boxes if box.page in pages}
        position = self.position if same and self.position < len(pages) else 0
        chosen = self.boxes.get(self.canvas.chosen or "")
        if chosen is not None:
            position = pages.index(chosen.page)
        self.go(position)

    def choose(self, field: str | None) -> None:
        """Fill a field's box and bring it into view, turning to its page if needed."""
        box = self.boxes.get(field or "")
        if box is not None and self.pages and box.page != self.pages[self.position]:
            self.canvas.chosen = field  # drawn when that page has loaded
            self.go(self.pages.index(box.page))
            return
        self.canvas.choose(field)

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
        self.label.setText(_("Loading page {page_no}…").format(page_no=page_no))
        if not self.canvas.has_image():
            self.stack.setCurrentWidget(self.label)
        record = await self.images.page_record(job_id, page_no)
        self._show_notes(record)
        image = await self.images.page_image(job_id, page_no)
        if image is None or image.isNull():
            self.shown = None
            self.canvas.set_image(None)
            self.label.setText(_("Page {page_no} has no image.").format(page_no=page_no))
            self.stack.setCurrentWidget(self.label)
            return
        self.canvas.set_image(image, keep_scroll=self.shown == (job_id, page_no))
        self.shown = (job_id, page_no)
        self.stack.setCurrentWidget(self.canvas)
        self.canvas.set_boxes([b for b in self.boxes.values() if b.page == page_no])
        self.canvas.choose(self.canvas.chosen)

    def _show_notes(self, page: Page | None) -> None:
        """A skipped page or an uncertain orientation is said above the page; how the
        orientation was decided is the page number's tooltip. Both notes are messages
        when the core worded them (an old page's are English text): in the interface
        language."""
        language = interface_language()
        note = page.orientation_note.words(language) if page and page.orientation_note else ""
        self.where.setToolTip(note)
        if page is not None and page.render_error:
            text = _(
                "Page {page_no} could not be rendered ({reason}). Only its text layer was read: "
                "look at this page in the source file."
            ).format(page_no=page.page_no, reason=page.render_error.words(language))
        elif page is not None and page.orientation_uncertain:
            text = _(
                "Orientation uncertain on page {page_no}: it was kept as scanned. {note}"
            ).format(page_no=page.page_no, note=note)
        else:
            text = ""
        self.warning.setText(text)
        self.warning.setVisible(bool(text))

    def _update_nav(self) -> None:
        many = len(self.pages) > 1
        self.previous_button.setEnabled(many and self.position > 0)
        self.next_button.setEnabled(many and self.position < len(self.pages) - 1)
        # short: beside the zoom buttons a Russian "Страница 2 (1 из 1)" was cut
        if many:
            self.where.setText(
                _("p. {page} ({position}/{total})").format(
                    page=self.pages[self.position],
                    position=self.position + 1,
                    total=len(self.pages),
                )
            )
        elif self.pages:
            self.where.setText(_("Page {page_no}").format(page_no=self.pages[0]))
        else:
            self.where.setText("")
