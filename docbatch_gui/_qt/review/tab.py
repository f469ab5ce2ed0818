"""Review: page images large beside the fields, edit, confirm, next.

Built for the keyboard: PgDown/PgUp move between documents, Ctrl+Enter confirms
(saving any edit first), F3 jumps to the next empty field. Every change goes through
:class:`docbatch_gui.app.review.ReviewService`, which keeps the audit trail.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import QLocale, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.language import interface_language
from docbatch_gui._qt.queue.job_detail import routing_line
from docbatch_gui._qt.review.counterparty import CounterpartyPanel
from docbatch_gui._qt.review.duplicate_pair import DuplicatePair
from docbatch_gui._qt.review.fields import add_field_rows
from docbatch_gui._qt.review.form import ReviewForm
from docbatch_gui._qt.review.lines_grid import LinesGrid, show_line_box
from docbatch_gui._qt.review.split_marks import (
    add_sheet_items,
    is_sheet,
    move_hint,
    sheets,
    split_note,
)
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.export_documents import export_documents
from docbatch_gui._qt.widgets.icons import disc_icon
from docbatch_gui._qt.widgets.layout import STRETCH, filled
from docbatch_gui._qt.widgets.page_view import PageView
from docbatch_gui._qt.widgets.thumbs import PageImages
from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.domain.models import Document, Job
from docbatch_gui.domain.states import JobState
from docbatch_gui.i18n import _, ngettext

ROLE_KEY = Qt.ItemDataRole.UserRole
#: a document item: True while it waits for a person's check
ROLE_NEEDS_REVIEW = Qt.ItemDataRole.UserRole + 1


class ReviewTab(ReviewForm, QWidget):
    #: (job id, document index) after a save or a confirm reached the store
    saved = Signal(int, int)
    confirmed = Signal(int, int)

    def __init__(self, ctx: GuiContext, images: PageImages, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.current: Document | None = None
        self.current_job: Job | None = None
        self._extra_jobs: set[int] = set()

        self.tree = QTreeWidget()
        # the list fits its pane, never scrolling sideways (the pages went out of sight
        # on a 1024-pixel screen): names elide, their tooltips hold them; the title
        # above it wraps where a column title would be cut
        self.tree.setColumnCount(2)
        self.tree.setHeaderHidden(True)
        self.tree.header().setStretchLastSection(False)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tree.setRootIsDecorated(True)
        self.tree.currentItemChanged.connect(self._current_changed)
        self.list_title = QLabel(_("Waiting for review"))
        self.list_title.setStyleSheet("font-weight: bold;")
        self.list_title.setWordWrap(True)
        self.empty = QLabel(
            _(
                "Nothing is waiting for review.\n\nJobs whose documents need a person's "
                "check appear here. To correct a finished job, double-click it in the Queue."
            )
        )
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setStyleSheet("color: palette(mid); padding: 16px;")
        self.export_button = QPushButton(_("Export documents…"))
        self.export_button.setToolTip(
            _("The selected job's documents, or all the jobs listed, to Excel, CSV or JSON")
        )
        self.export_button.clicked.connect(lambda: spawn(self.export_listed(), self._failed))
        left = QWidget()
        left_items = (self.list_title, (self.tree, 1), self.empty, self.export_button)
        filled(QVBoxLayout(left), *left_items, margins=0)
        self.page_view = PageView(images)

        self.form_box = QGroupBox(_("Document"))
        self.form = QFormLayout(self.form_box)
        self.type_combo = QComboBox()
        profile = ctx.app.profile
        language = QLocale().name().split("_")[0]
        for doc_type in profile.doc_types:
            self.type_combo.addItem(ctx.doc_type_label(doc_type.key), doc_type.key)
        self.page_from = QSpinBox()
        self.page_to = QSpinBox()
        pages_row = filled(QHBoxLayout(), self.page_from, QLabel("–"), self.page_to, STRETCH)
        self.form.addRow(_("Type"), self.type_combo)
        self.form.addRow(_("Pages"), pages_row)
        self.split_note = QLabel()  # the separator sheets at the document's ends
        self.split_note.setStyleSheet("color: palette(mid);")
        self.split_note.setWordWrap(True)
        self.split_note.setToolTip(move_hint())
        self.split_note.hide()
        self.form.addRow("", self.split_note)
        rows = add_field_rows(self.form, profile, language)
        self.field_keys, self.field_labels = rows.keys, rows.labels
        self.editors, self.markers = rows.editors, rows.markers
        for editor in self.editors.values():
            editor.focused.connect(self.page_view.choose)
            editor.textEdited.connect(lambda _text, key=editor.key: self.check_typed(key))
        self.page_view.box_clicked.connect(
            lambda key: key in self.editors and self.editors[key].setFocus()
        )
        self.lines_grid = LinesGrid(profile, language)
        self.lines_grid.row_chosen.connect(
            lambda row, page, box: show_line_box(self.page_view, row, page, box)
        )
        self.addActions(self.page_view.zoom_actions)  # Ctrl++/Ctrl+− from the form too
        self.reasons = QLabel()
        self.reasons.setTextFormat(Qt.TextFormat.PlainText)  # user data
        self.reasons.setWordWrap(True)
        self.reasons.setStyleSheet("color: #8a4b00;")
        self.counterparty_panel = CounterpartyPanel(ctx)
        self.counterparty_panel.document_forgotten.connect(self._counterparty_changed)
        self.history = QPlainTextEdit()
        self.history.setReadOnly(True)
        self.history.setMaximumHeight(110)
        self.history.setPlaceholderText(_("No changes by a person yet."))

        self.save_button = QPushButton(_("Save"))
        self.confirm_button = QPushButton(_("Confirm"))
        self.confirm_button.setDefault(True)
        self.not_duplicate_button = QPushButton(_("Not a duplicate"))
        self.not_duplicate_button.setToolTip(
            _("This is another document, not the one its reason names; never ask again")
        )
        self.not_duplicate_button.clicked.connect(lambda: spawn(self.not_duplicate(), self._failed))
        self.not_duplicate_button.hide()
        self.duplicate_pair = DuplicatePair(ctx, images)  # the document its mark names
        self.duplicate_pair.open_other.connect(
            lambda job_id, index: spawn(self.open_job(job_id, index), self._failed)
        )
        self.previous_button = QPushButton(_("Previous"))
        self.next_button = QPushButton(_("Next"))
        self._actions()
        moves = (self.previous_button, self.next_button, self.save_button, self.confirm_button)
        buttons = filled(QHBoxLayout(), *moves)
        self.duplicate_pair.add_button(self.not_duplicate_button)  # beside the other one

        # The form scrolls (a tall Known counterparty panel, many fields); the buttons
        # stay under it, always in sight, whatever the window's height.
        form_page = QWidget()
        history = QLabel(_("History"))
        form_items = (self.form_box, self.reasons, self.counterparty_panel, history, self.history)
        filled(QVBoxLayout(form_page), *form_items, STRETCH, margins=0)
        self.form_scroll = QScrollArea()
        self.form_scroll.setObjectName("review_form_scroll")
        self.form_scroll.setWidgetResizable(True)
        self.form_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.form_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.form_scroll.setWidget(form_page)
        right = QWidget()
        hint = QLabel(
            _("PgDown/PgUp: next/previous document · Ctrl+Enter: confirm · F3: next empty field")
        )
        hint.setStyleSheet("color: palette(mid);")
        hint.setWordWrap(True)
        filled(QVBoxLayout(right), (self.form_scroll, 1), buttons, hint)

        # the page above its lines; a likely duplicate's other document in a tab beside
        # the lines, chosen while it is shown (beside the page, it made Review wider
        # than a 1024 px screen in Russian: 1,146 px)
        self.below_page = QTabWidget()
        self.below_page.setTabBarAutoHide(True)  # the lines alone: no tab bar
        self.below_page.setDocumentMode(True)
        self.below_page.addTab(self.lines_grid, _("Lines"))
        self.duplicate_pair.wanted.connect(self._want_pair)
        middle = QSplitter(Qt.Orientation.Vertical)
        middle.addWidget(self.page_view)
        middle.addWidget(self.below_page)
        middle.setSizes([420, 220])
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(middle)
        split.addWidget(right)
        # the page and its lines get the most: at 1024 px the lines' sums need ~480 px
        split.setSizes([210, 610, 400])
        self.splitter = split  # the window saves and restores it (QSettings)
        layout = QVBoxLayout(self)
        layout.addWidget(split)
        self._set_enabled(False)
        ctx.bridge.jobs_changed.connect(self._jobs_changed)

    def _want_pair(self, wanted: bool) -> None:
        """The pair's tab while the document shown is a likely duplicate, chosen."""
        index = self.below_page.indexOf(self.duplicate_pair)
        if wanted and index < 0:
            index = self.below_page.addTab(self.duplicate_pair, _("Likely the same document"))
        elif not wanted and index >= 0:
            self.below_page.removeTab(index)
        self.below_page.setCurrentIndex(index if wanted else 0)

    def _actions(self) -> None:
        def bind(button: QPushButton, keys: list[str], handler: object) -> None:
            action = QAction(self)
            action.setShortcuts([QKeySequence(k) for k in keys])
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.triggered.connect(handler)
            self.addAction(action)
            button.clicked.connect(handler)
            button.setToolTip(" / ".join(keys))

        bind(self.save_button, ["Ctrl+S"], lambda: spawn(self.save(), self._failed))
        bind(
            self.confirm_button,
            ["Ctrl+Return", "Ctrl+Enter"],
            lambda: spawn(self.confirm(), self._failed),
        )
        bind(self.next_button, ["PgDown", "Ctrl+Down"], lambda: self.move_by(1))
        bind(self.previous_button, ["PgUp", "Ctrl+Up"], lambda: self.move_by(-1))
        empty = QAction(self)
        empty.setShortcut(QKeySequence("F3"))
        empty.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        empty.triggered.connect(self.next_empty_field)
        self.addAction(empty)

    # -- the list --------------------------------------------------------------------------

    async def refresh(self) -> None:
        """Reload the jobs waiting for review (and any job opened on purpose)."""
        review = self.ctx.app.review
        jobs: list[Job] = await asyncio.to_thread(review.waiting)
        extra = [
            j
            for j in await asyncio.to_thread(self.ctx.app.jobs, list(self._extra_jobs))
            if j.state is not JobState.NEEDS_REVIEW
        ]
        documents = await asyncio.to_thread(
            self.ctx.app.documents_for, [j.id for j in [*jobs, *extra]]
        )
        keep = self._key(self.tree.currentItem())
        self.tree.blockSignals(True)
        self.tree.clear()
        by_job: dict[int, list[Document]] = {}
        for doc in documents:
            by_job.setdefault(doc.job_id, []).append(doc)
        for job in [*jobs, *extra]:
            top = QTreeWidgetItem([job.file_name, str(job.pages or "")])
            top.setData(0, ROLE_KEY, (job.id, None))
            routing = routing_line(job)  # which model answered, both costs
            words = job.error_words(interface_language())
            top.setToolTip(0, words or "\n".join(filter(None, [job.source_path, routing])))
            top.setToolTip(1, pages_tip(str(job.pages or "")))
            for doc in by_job.get(job.id, []):
                top.addChild(self._doc_item(doc))
            add_sheet_items(top, job, [d.page_from for d in by_job.get(job.id, [])])
            self.tree.addTopLevelItem(top)
            top.setExpanded(True)
        self.list_title.setText(_("Waiting for review ({waiting})").format(waiting=len(jobs)))
        self.tree.blockSignals(False)
        self.empty.setVisible(not jobs and not extra)
        if keep is None or not self.select(*keep):
            self.select_first()

    def select_first(self) -> bool:
        """Review opens on a document, not on "No page": the first one needing a
        person's check, else the first listed."""
        items = self._doc_items()
        first = next(
            (i for i in items if i.data(0, ROLE_NEEDS_REVIEW)), items[0] if items else None
        )
        if first is None:
            return False
        self.tree.setCurrentItem(first)
        return True

    def _relabel(self, doc: Document) -> None:
        fresh = self._doc_item(doc)
        for item in self._doc_items():
            if item.data(0, ROLE_KEY) == (doc.job_id, doc.doc_index):
                for column in range(fresh.columnCount()):
                    item.setText(column, fresh.text(column))
                item.setIcon(0, fresh.icon(0))
                item.setToolTip(0, fresh.toolTip(0))

    async def _warn_uncovered(self, doc: Document) -> None:
        """A narrowed range leaves pages in no document: said at once, by number."""
        left = await asyncio.to_thread(self.ctx.app.review.uncovered_pages, doc.job_id)
        if left:
            self.ctx.notifier.notify(
                _(
                    "Pages {page_ranges} now belong to no document: they are left out of "
                    "exports and registry matches. Widen a document's pages to take them in."
                ).format(page_ranges=page_ranges(left)),
                "warning",
            )

    def _doc_item(self, doc: Document) -> QTreeWidgetItem:
        pages = doc.page_label
        type_label = self.type_combo.itemText(max(0, self.type_combo.findData(doc.doc_type)))
        label = f"{doc.doc_index + 1}. {type_label}"
        number = doc.fields.get("number")
        item = QTreeWidgetItem([f"{label} {number}" if number else label, pages])
        item.setData(0, ROLE_KEY, (doc.job_id, doc.doc_index))
        item.setToolTip(0, item.text(0))  # whole, where the pane elides it
        item.setToolTip(1, pages_tip(pages))
        item.setData(0, ROLE_NEEDS_REVIEW, bool(doc.needs_review and not doc.confirmed_by))
        # every document has a mark, as the legend of the fields' dots: checked by a
        # person, doubted by a check (its reasons in the tooltip), or nothing doubted
        if doc.confirmed_by:
            item.setIcon(0, disc_icon("#188038", "✓"))
            said = _("Confirmed by {who}").format(who=doc.confirmed_by)
            item.setToolTip(0, "\n".join([item.text(0), said]))
        elif doc.needs_review:
            item.setIcon(0, disc_icon("#e37400", "!"))
            item.setToolTip(0, "\n".join([item.text(0), *self.ctx.reasons(doc)]))
        else:
            item.setIcon(0, disc_icon("#8a8f98", "✓"))
            said = _("No check found a problem; not confirmed yet")
            item.setToolTip(0, "\n".join([item.text(0), said]))
        return item

    async def export_listed(self) -> Path | None:
        """The selected job's documents, else every job the list shows."""
        listed = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        ids = [item.data(0, ROLE_KEY)[0] for item in listed if item is not None]
        chosen = self._key(self.tree.currentItem())
        if chosen is not None:
            ids = [chosen[0]]
            scope = _("The documents of the selected job")
        else:
            scope = ngettext(
                "The documents of the {count} job listed",
                "The documents of the {count} jobs listed",
                len(ids),
            ).format(count=len(ids))
        return await export_documents(self, self.ctx, ids, scope)

    def _key(self, item: QTreeWidgetItem | None) -> tuple[int, int] | None:
        if item is None:
            return None
        job_id, doc_index = item.data(0, ROLE_KEY)
        return None if doc_index is None else (job_id, doc_index)

    def _doc_items(self) -> list[QTreeWidgetItem]:
        items: list[QTreeWidgetItem] = []
        for top in self._job_items():
            children = (top.child(j) for j in range(top.childCount()))
            items.extend(c for c in children if c is not None and not is_sheet(c))
        return items

    def _job_items(self) -> list[QTreeWidgetItem]:
        found = (self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount()))
        return [item for item in found if item is not None]

    def select(self, job_id: int, doc_index: int) -> bool:
        for item in self._doc_items():
            if item.data(0, ROLE_KEY) == (job_id, doc_index):
                self.tree.setCurrentItem(item)
                return True
        return False

    async def open_job(self, job_id: int, doc_index: int = 0) -> None:
        """Show a job's documents even if it is not waiting (a done job can be corrected)."""
        self._extra_jobs.add(job_id)
        await self.refresh()
        self.select(job_id, doc_index)

    def move_by(self, step: int) -> None:
        items = self._doc_items()
        if not items:
            return
        current = self.tree.currentItem()
        position = items.index(current) if current in items else -1
        target = max(0, min(len(items) - 1, position + step))
        self.tree.setCurrentItem(items[target])

    def _jobs_changed(self, jobs: list[Job]) -> None:
        shown = {item.data(0, ROLE_KEY)[0] for item in self._job_items()}
        if (
            any(j.state is JobState.NEEDS_REVIEW and j.id not in shown for j in jobs)
            and self.isVisible()
        ):
            spawn(self.refresh())

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        spawn(self.refresh())

    # -- the form --------------------------------------------------------------------------

    def _current_changed(self, item: QTreeWidgetItem | None) -> None:
        key = self._key(item)
        if key is None:
            self._show(None)
            self.lines_grid.show_document(None)
            self.counterparty_panel.show_counterparty(None)
            spawn(self.duplicate_pair.show_pair(None, self.field_labels))
            return
        spawn(self._load(*key), self._failed)

    async def _load(self, job_id: int, doc_index: int) -> None:
        doc = await asyncio.to_thread(self.ctx.app.review.document, job_id, doc_index)
        job = (await asyncio.to_thread(self.ctx.app.jobs, [job_id]))[0]
        if self._key(self.tree.currentItem()) != (job_id, doc_index):
            return  # the operator moved on while this one loaded: the newer load wins
        self.current_job = job
        self.split_note.setText(split_note(job, doc))
        self.split_note.setVisible(bool(self.split_note.text()))
        self._show(doc)
        self.lines_grid.show_document(doc)
        await self.duplicate_pair.show_pair(doc, self.field_labels)
        await self._show_counterparty(doc)

    def _counterparty_changed(self, _document_id: int) -> None:
        """What the memory holds changed (a confirmation forgotten): shown again."""
        if self.current is not None:
            spawn(self._show_counterparty(self.current), self._failed)

    async def _show_counterparty(self, doc: Document) -> None:
        """What the seller's confirmed documents showed, if it is known."""
        known = await asyncio.to_thread(self.ctx.app.review.counterparty_of, doc)
        if self.current is not None and self.current.id == doc.id:
            self.counterparty_panel.show_counterparty(known, doc.id)

    async def save(self) -> Document | None:
        doc = self.current
        if doc is None:
            return None
        changes = self.edits()
        lines = self.lines_grid.lines()
        saved = await asyncio.to_thread(
            lambda: self.ctx.app.review.edit(
                doc.job_id, doc.doc_index, who=self.ctx.operator, lines=lines, **changes
            ),
        )
        self._show(saved)
        self.lines_grid.show_document(saved)
        self._relabel(saved)  # the list shows the new pages and number at once
        if "pages" in changes and changes["pages"] != (doc.page_from, doc.page_to):
            await self._warn_uncovered(saved)
            if sheets(self.current_job):  # a split may have moved: the list shows it
                await self.refresh()
        await self.duplicate_pair.show_pair(saved, self.field_labels)  # the edited values
        await self._show_counterparty(saved)  # a corrected INN may name another seller
        self.saved.emit(saved.job_id, saved.doc_index)
        return saved

    async def not_duplicate(self) -> None:
        """The operator says the document is not the likely duplicate it is marked as."""
        doc = self.current
        if doc is None:
            return
        cleared = await asyncio.to_thread(
            lambda: self.ctx.app.review.not_a_duplicate(
                doc.job_id, doc.doc_index, who=self.ctx.operator
            ),
        )
        self._show(cleared)
        await self.duplicate_pair.show_pair(cleared, self.field_labels)
        self.saved.emit(cleared.job_id, cleared.doc_index)

    async def confirm(self) -> None:
        doc = await self.save()
        if doc is None:
            return
        confirmed, job = await asyncio.to_thread(
            lambda: self.ctx.app.review.confirm(doc.job_id, doc.doc_index, who=self.ctx.operator),
        )
        self.ctx.bridge.publish([job])
        if job.state is JobState.DONE and confirmed.job_id not in self._extra_jobs:
            self.ctx.notifier.notify(
                _("{file_name}: all documents confirmed, done.").format(file_name=job.file_name),
                "success",
            )
        await self.refresh()
        self.confirmed.emit(confirmed.job_id, confirmed.doc_index)
        self.select(confirmed.job_id, confirmed.doc_index)
        self.move_by(1)

    def _failed(self, error: BaseException) -> None:
        if isinstance(error, DocBatchError):
            self.ctx.notifier.notify(str(error), "error")


def page_ranges(pages: list[int]) -> str:
    """31, 32, 33, 40 as "31–33, 40"."""
    runs: list[list[int]] = []
    for page in sorted(pages):
        if runs and page == runs[-1][1] + 1:
            runs[-1][1] = page
        else:
            runs.append([page, page])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


def pages_tip(pages: str) -> str:
    """The list's second column says pages without a title: its tooltip names them."""
    return _("Pages: {pages}").format(pages=pages) if pages else ""
