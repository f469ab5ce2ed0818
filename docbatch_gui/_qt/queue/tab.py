"""The Queue tab: drop files, watch them run, act on them."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QModelIndex, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QStyle,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.queue.actions import QueueActions
from docbatch_gui._qt.queue.budget_bar import BudgetBar
from docbatch_gui._qt.queue.file_cell import FileCellDelegate
from docbatch_gui._qt.queue.held_bar import HeldBar
from docbatch_gui._qt.queue.intake import QueueIntake
from docbatch_gui._qt.queue.job_detail import JobDetail
from docbatch_gui._qt.queue.jobs_model import (
    COL_COST,
    COL_DOCUMENTS,
    COL_ERROR,
    COL_FILE,
    COL_PAGES,
    COL_PROGRESS,
    COL_STATE,
    COL_THUMB,
    THUMB_SIZE,
    JobFilterProxy,
    JobRole,
    JobTableModel,
    state_column_width,
    state_label,
)
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.columns import column_actions, offer_columns_menu
from docbatch_gui._qt.widgets.delegates import ProgressDelegate
from docbatch_gui._qt.widgets.empty import EmptyHint
from docbatch_gui._qt.widgets.fit import TwoLineLabel, widen_to_labels
from docbatch_gui._qt.widgets.layout import filled
from docbatch_gui._qt.widgets.thumbs import PageImages
from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import FINAL_STATES, JobState
from docbatch_gui.engine.holds import BATCH_SENT, KEYED_MODES, Holds
from docbatch_gui.i18n import _, ngettext, pgettext

#: the state filter's choices: (label, states); empty means all
ACTIVE = [s.value for s in JobState if s not in FINAL_STATES]
FAILED = [JobState.FAILED.value, JobState.TIMED_OUT.value]


class QueueTab(QueueIntake, QueueActions, QWidget):
    review_requested = Signal(int, int)
    #: the operator wants to add the Anthropic key (the window opens Settings at it)
    key_wanted = Signal()
    #: the operator wants to choose Google's credentials file (Settings at it)
    vision_wanted = Signal()
    #: the operator wants Tesseract instead of Google Vision (the window saves it)
    tesseract_wanted = Signal()

    def __init__(self, ctx: GuiContext, images: PageImages, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.images = images
        self.model = JobTableModel(self)
        self.model.last_failure = ctx.bridge.last_failure
        self.proxy = JobFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.model.thumbnail_wanted.connect(lambda job_id: spawn(self._load_thumb(job_id)))
        self.model.thumbnail_stale.connect(images.forget)

        self._build_toolbar()
        self._build_table()
        self.detail = JobDetail(ctx, images)
        self.detail.hold_of = self.model.hold
        self.detail.last_failure = ctx.bridge.last_failure
        self.detail.review_requested.connect(self.review_requested)
        self._build_actions()

        self.paused_banner = QLabel()
        self.paused_banner.setStyleSheet(
            "background: #fff4ce; color: #5c4400; padding: 6px 10px; border-radius: 4px;"
        )
        self.paused_banner.setText(
            _("The worker is paused: no new job starts. Running steps finish.")
        )
        self.paused_banner.setWordWrap(True)  # a long translation wraps, not widens
        self.paused_banner.hide()

        split = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        filled(QVBoxLayout(left), (self.table, 1), self.button_row, margins=0)
        split.addWidget(left)
        split.addWidget(self.detail)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        split.setSizes([900, 420])
        self.splitter = split

        self.budget_bar = BudgetBar(ctx)
        self.held_bar = HeldBar()
        self.held_bar.add_key.connect(self.key_wanted)
        self.held_bar.set_up_vision.connect(self.vision_wanted)
        self.held_bar.use_tesseract.connect(self.tesseract_wanted)
        self.held_bar.retry_now.connect(lambda: spawn(self.retry_held_now(), self._failed))
        self.held_bar.process_offline.connect(
            lambda: spawn(self.process_held_offline(), self._failed)
        )
        banners = (self.held_bar, self.budget_bar, self.paused_banner)
        filled(QVBoxLayout(self), self.toolbar, *banners, (split, 1))
        ctx.bridge.jobs_changed.connect(self._jobs_changed)

    # -- building ------------------------------------------------------------------------

    def _build_toolbar(self) -> None:
        self.add_files_button = QPushButton(_("Add files…"))
        self.add_files_button.clicked.connect(lambda: spawn(self.add_files_dialog()))
        self.add_folder_button = QPushButton(_("Add folder…"))
        self.add_folder_button.clicked.connect(lambda: spawn(self.add_folder_dialog()))
        self.pause_button = QToolButton()
        self.pause_button.setCheckable(True)
        self.pause_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.pause_button.toggled.connect(self._pause_toggled)
        self._show_paused(False)

        self.state_filter = QComboBox()
        self.state_filter.addItem(_("All states"), [])
        self.state_filter.addItem(_("Active"), ACTIVE)
        self.state_filter.addItem(_("Failed or timed out"), FAILED)
        for state in JobState:
            self.state_filter.addItem(state_label(state), [state.value])
        self.state_filter.currentIndexChanged.connect(
            lambda: self.proxy.set_states(self.state_filter.currentData())
        )
        self.error_filter = QComboBox()
        self.error_filter.addItem(_("Any error"), "")
        for kind, label in (
            (ErrorKind.UNSUPPORTED, _("Bad input")),
            (ErrorKind.RETRYABLE, _("Temporary")),
            (ErrorKind.TIMEOUT, _("Timeout")),
            (ErrorKind.CRITICAL, pgettext("error kind", "Critical")),
        ):
            self.error_filter.addItem(label, kind.value)
        self.error_filter.currentIndexChanged.connect(
            lambda: self.proxy.set_error_kind(self.error_filter.currentData())
        )
        # not as wide as the longest choice, but a state's name whole ("Требует
        # проверки"); the error kinds are shorter
        states = max(len(state_label(state)) for state in JobState)
        for box, letters in ((self.state_filter, max(13, states)), (self.error_filter, 11)):
            box.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            box.setMinimumContentsLength(letters)
        self.search = QLineEdit()
        self.search.setMinimumWidth(100)  # it gives way to the counts, which read whole
        self.search.setPlaceholderText(_("Search file names"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.proxy.set_text)
        self.counts = TwoLineLabel()  # two lines, then "…", on a small screen

        adding = (self.add_files_button, self.add_folder_button, self.pause_button)
        filters = (self.state_filter, self.error_filter, (self.search, 1))
        self.toolbar = filled(QHBoxLayout(), *adding, 10, *filters, self.counts)

    def _build_table(self) -> None:
        table = QTableView()
        table.setModel(self.proxy)
        table.setSortingEnabled(True)
        table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        table.setAlternatingRowColors(True)
        table.setWordWrap(False)
        table.verticalHeader().hide()
        table.verticalHeader().setDefaultSectionSize(THUMB_SIZE + 6)
        table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        table.setIconSize(table.iconSize().expandedTo(table.iconSize()))
        table.setItemDelegateForColumn(COL_PROGRESS, ProgressDelegate(parent=table))
        table.setItemDelegateForColumn(COL_FILE, FileCellDelegate(table))
        table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # "счёт_…_2024.pdf"
        header = table.horizontalHeader()
        header.setStretchLastSection(False)
        for column, width in (
            (COL_THUMB, THUMB_SIZE + 12),
            (COL_FILE, 200),
            (COL_PAGES, 50),
            (COL_STATE, state_column_width(table)),
            (COL_PROGRESS, 100),
            (COL_DOCUMENTS, 90),
            (COL_COST, 70),
            (COL_ERROR, 300),
        ):
            table.setColumnWidth(column, width)
        widen_to_labels(header)
        # The file name takes the room the other columns leave, so every column is in
        # sight on a 1024-pixel screen. The Error column starts hidden: a failed row
        # says why under its name and in the detail pane; the header's menu shows it.
        header.setSectionResizeMode(COL_FILE, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(40)
        header.setSectionHidden(COL_ERROR, True)
        offer_columns_menu(table, (COL_FILE, COL_STATE), self)
        table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        table.customContextMenuRequested.connect(self._context_menu)
        table.selectionModel().selectionChanged.connect(self._selection_changed)
        table.doubleClicked.connect(self._double_clicked)
        self.table = table
        self.empty_hint = EmptyHint(table, self._empty_text)

    def column_actions(self) -> list[QAction]:
        """What the header's context menu offers: every column but the file name and
        its state."""
        return column_actions(self.table, (COL_FILE, COL_STATE), self)

    # -- data ----------------------------------------------------------------------------

    def load(self, jobs: Sequence[Job]) -> None:
        self.model.load(jobs)
        self._update_counts()
        self.budget_bar.schedule()

    def set_holds(self, holds: Holds) -> None:
        """What this installation lacks (the key was saved or cleared)."""
        if holds == self.model.holds:
            return
        self.model.set_holds(holds)
        self._update_counts()
        self.detail.show_job(self.detail.job)
        self.budget_bar.schedule()  # a held job is not priced

    async def retry_held_now(self) -> None:
        """*Retry now*: the jobs held because Claude could not be reached are queued
        again; the engine takes them."""
        ids = self.model.unreachable_ids()
        if not ids:
            return
        lifted = await self.ctx.bridge.call(self.ctx.app.retry_now, ids)
        await self.refresh_holds()
        self.ctx.notifier.notify(
            ngettext(
                "{count} job will be sent to Claude again.",
                "{count} jobs will be sent to Claude again.",
                len(lifted),
            ).format(count=len(lifted)),
            "success",
        )

    async def refresh_holds(self) -> None:
        """The holds read again (off the GUI thread): a job Claude could not be
        reached for came back to the queue, or was retried."""
        self.set_holds(await self.ctx.bridge.call(self.ctx.app.holds))

    async def process_held_offline(self) -> None:
        """*Process offline*: the held jobs are read locally; the engine takes them."""
        ids = self.model.held_ids()
        if not ids:
            return
        moved = await self.ctx.bridge.call(self.ctx.app.process_offline, ids)
        self.model.apply(moved)
        self._update_counts()
        self.detail.show_job(self.detail.job and self.model.job(self.detail.job.id))
        self.ctx.notifier.notify(
            ngettext(
                "{count} job will be read offline.",
                "{count} jobs will be read offline.",
                len(moved),
            ).format(count=len(moved)),
            "success",
        )

    def _jobs_changed(self, jobs: list[Job]) -> None:
        jobs = [j for j in jobs if j.id not in self.pending_deletes]  # gone until *Undo*
        self.model.apply(jobs)
        self._update_counts()
        if any(j.state is JobState.QUEUED for j in jobs) or self.budget_bar.forecast_shown:
            self.budget_bar.schedule()  # the queue's forecast may have changed
        if any(j.state is JobState.QUEUED and j.attempts and j.mode in KEYED_MODES for j in jobs):
            spawn(self.refresh_holds(), self._failed)  # back from Claude: unreachable?
        elif any(j.state in BATCH_SENT for j in jobs):
            spawn(self.refresh_holds(), self._failed)  # its batch: the API unreachable?
        selected = self.selected_jobs()
        if len(selected) == 1 and any(j.id == selected[0].id for j in jobs):
            job = self.model.job(selected[0].id)
            if (
                job is not None
                and self.detail.job is not None
                and (job.state != self.detail.job.state or job.pages != self.detail.job.pages)
            ):
                self.detail.show_job(job)
        self._update_actions()

    def _update_counts(self) -> None:
        counts = self.model.count_by_state()
        total = sum(counts.values())
        done = counts.get(JobState.DONE, 0)
        review = counts.get(JobState.NEEDS_REVIEW, 0)
        failed = sum(counts.get(s, 0) for s in (JobState.FAILED, JobState.TIMED_OUT))
        self.counts.setText(
            _("{jobs} · {done} done · {review} to review · {failed} failed").format(
                jobs=ngettext("{count} job", "{count} jobs", total).format(count=total),
                done=done,
                review=review,
                failed=failed,
            )
        )
        needs = self.model.held_needs()
        self.held_bar.show_count(
            self.model.held_count(),
            needs[0] if needs else "",
            self.model.holds.unreachable_host,
            in_batches=self.model.unreachable_in_batches(),
        )

    async def _load_thumb(self, job_id: int) -> None:
        generation = self.model.thumbnail_generation(job_id)
        pixmap = await self.images.thumbnail(job_id, 1)
        if generation != self.model.thumbnail_generation(job_id):
            self.images.forget(job_id)  # loaded before the page was turned upright
            return
        if pixmap is None:  # not rendered yet: the model asks again when the state changes,
            return  # not at each repaint (that would query the store ten times a second)
        self.model.set_thumbnail(
            job_id,
            pixmap.scaled(
                THUMB_SIZE,
                THUMB_SIZE,
                Qt.AspectRatioMode.KeepAspectRatio,
                Qt.TransformationMode.SmoothTransformation,
            ),
            generation,
        )

    # -- pause ---------------------------------------------------------------------------

    def _pause_toggled(self, paused: bool) -> None:
        """Resume also restarts an engine a critical error stopped (the host wakes it)."""
        host = self.ctx.host
        spawn(self.ctx.bridge.call(host.pause if paused else host.resume), self._failed)
        self._show_paused(paused)

    def _show_paused(self, paused: bool) -> None:
        self.pause_button.setText(_("Resume") if paused else _("Pause"))
        icon = QStyle.StandardPixmap.SP_MediaPlay if paused else QStyle.StandardPixmap.SP_MediaPause
        self.pause_button.setIcon(self.style().standardIcon(icon))
        self.pause_button.setToolTip(_("Start new jobs again") if paused else _("Start no new job"))
        if hasattr(self, "paused_banner"):
            self.paused_banner.setVisible(paused)

    def sync_paused(self, paused: bool) -> None:
        """Show the engine's state (the CLI may have changed the flag, or a critical
        error stopped the queue): checked offers Resume."""
        if self.pause_button.isChecked() != paused:
            with QSignalBlocker(self.pause_button):
                self.pause_button.setChecked(paused)
        self._show_paused(paused)

    def _selection_changed(self) -> None:
        jobs = self.selected_jobs()
        self.detail.show_job(jobs[0] if len(jobs) == 1 else None)
        self._update_actions()

    def _double_clicked(self, index: QModelIndex) -> None:
        job: Job = index.data(JobRole)
        if job.state is JobState.NEEDS_REVIEW or job.state is JobState.DONE:
            self.review_requested.emit(job.id, 0)
