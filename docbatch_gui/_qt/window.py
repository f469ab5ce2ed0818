"""The main window: tabs over the facade, drops anywhere, a careful close."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QByteArray, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressDialog,
)

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.lazy_tabs import LazyTabs
from docbatch_gui._qt.loop import resolve
from docbatch_gui._qt.queue.jobs_model import state_label
from docbatch_gui._qt.queue.tab import QueueTab
from docbatch_gui._qt.queue.yadisk_dialog import YadiskImport
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.dialogs import ask
from docbatch_gui._qt.widgets.fit import fit_to_screen
from docbatch_gui._qt.widgets.folders import remember_folder
from docbatch_gui._qt.widgets.log_events import JobEvents
from docbatch_gui._qt.widgets.log_panel import LogPanel
from docbatch_gui._qt.widgets.thumbs import PageImages
from docbatch_gui._qt.widgets.watch_status import WatchStatus
from docbatch_gui.app.host import EngineState
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import RECOVERABLE_STATES, JobState
from docbatch_gui.i18n import _, ngettext, pgettext
from docbatch_gui.settings.model import Settings

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from docbatch_gui._qt.batches.tab import BatchesTab
    from docbatch_gui._qt.registry.tab import RegistryTab
    from docbatch_gui._qt.review.tab import ReviewTab
    from docbatch_gui._qt.settings.tab import SettingsTab
    from docbatch_gui._qt.webhooks import WebhooksTab

log = logging.getLogger(__name__)


class MainWindow(QMainWindow):
    #: emitted once the queue is loaded and the engine started
    started = Signal()
    #: emitted when shutdown finished and the window may go
    closed = Signal()

    def __init__(self, ctx: GuiContext) -> None:
        super().__init__()
        # Closing the window must not quit the application (and stop the qasync loop)
        # before the shutdown coroutine has finished: main() ends the loop itself.
        app_instance().setQuitOnLastWindowClosed(False)
        self.ctx = ctx
        ctx.notifier.window = self
        self.setWindowTitle("DocBatch")
        self.setAcceptDrops(True)
        fit_to_screen(self, 1280, 800)
        self.images = PageImages(ctx.host)

        #: the mode in effect (no key: offline), for the Settings tab once it is built
        self._offline: bool | None = None
        # a tab scrolls rather than outgrow a small screen; every tab but the Queue is
        # built the first time it is shown (or reached for), after the first show
        self.tabs = LazyTabs()
        self.tabs.setDocumentMode(True)
        self.queue_tab = QueueTab(ctx, self.images)
        self.tabs.addTab(self.queue_tab, _("Queue"))
        self._lazy = {
            "review": self.tabs.add_lazy_tab(self._build_review, _("Review"), "ReviewTab"),
            "batches": self.tabs.add_lazy_tab(self._build_batches, _("Batches"), "BatchesTab"),
            "registry": self.tabs.add_lazy_tab(self._build_registry, _("Registry"), "RegistryTab"),
            "webhooks": self.tabs.add_lazy_tab(self._build_webhooks, _("Webhooks"), "WebhooksTab"),
            "settings": self.tabs.add_lazy_tab(self._build_settings, _("Settings"), "SettingsTab"),
        }
        self.tabs.on_built = self._tab_built
        self.setCentralWidget(self.tabs)
        self.queue_tab.review_requested.connect(self.show_review)
        self.queue_tab.key_wanted.connect(self.show_key_setting)
        self.queue_tab.vision_wanted.connect(self.show_vision_setting)
        self.queue_tab.tesseract_wanted.connect(self.use_tesseract)
        self.queue_tab.budget_bar.settings_saved.connect(self._budget_raised)

        self.log_panel = LogPanel()
        self.log_events = JobEvents(ctx.bridge, self.log_panel)
        self.log_dock = QDockWidget(_("Log"), self)
        self.log_dock.setObjectName("log_dock")
        self.log_dock.setWidget(self.log_panel)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.log_dock)
        self.log_dock.hide()
        self._build_menus()
        #: said plainly, always: without a key every document is read offline
        self.offline_label = QLabel(
            _("Offline: no Claude key — documents are read by the offline extractor")
        )
        self.offline_label.setObjectName("offline_label")
        self.offline_label.setStyleSheet("color: #5c4400; padding: 0 8px;")
        self.offline_label.setToolTip(
            _("Set the Anthropic API key in Settings (Claude) to read documents with Claude.")
        )
        self.offline_label.hide()
        self.statusBar().addPermanentWidget(self.offline_label)
        self.watch_status = WatchStatus(self.ctx)
        self.statusBar().addPermanentWidget(self.watch_status)
        self.statusBar().showMessage(_("Starting…"))

        #: set by main.build_window; removed on shutdown so that no record is ever
        #: sent to a panel that is gone
        self.log_handler: logging.Handler | None = None
        self._busy_before = 0
        self.shutting_down = False
        self._closing = False
        self._close_allowed = False
        ctx.bridge.jobs_changed.connect(self._jobs_changed)
        ctx.bridge.engine_state.connect(self._engine_state)
        ctx.bridge.halted.connect(self._halted)
        self._restore()

    # -- the tabs built on first show ---------------------------------------------------

    def _build_review(self) -> QWidget:
        # deferred: the Review tab's modules, 8 ms of CPU before the first show (building it 34 ms)
        from docbatch_gui._qt.review.tab import ReviewTab

        return ReviewTab(self.ctx, self.images)

    def _build_batches(self) -> QWidget:
        # deferred: the Batches tab's module, 2 ms before the first show (building it 4 ms)
        from docbatch_gui._qt.batches.tab import BatchesTab

        return BatchesTab(self.ctx)

    def _build_registry(self) -> QWidget:
        # deferred: the Registry tab's modules, 11 ms before the first show (building it 9 ms)
        from docbatch_gui._qt.registry.tab import RegistryTab

        return RegistryTab(self.ctx, self.images)

    def _build_webhooks(self) -> QWidget:
        # deferred: the Webhooks tab's module, 1 ms before the first show (building it 2 ms)
        from docbatch_gui._qt.webhooks import WebhooksTab

        return WebhooksTab(self.ctx)

    def _build_settings(self) -> QWidget:
        # deferred: the Settings tab's modules, 10 ms before the first show
        from docbatch_gui._qt.settings.tab import SettingsTab

        tab = SettingsTab(self.ctx)
        tab.saved.connect(lambda settings: spawn(self.apply_settings(settings)))
        if self._offline is not None:
            tab.set_offline(self._offline)
        return tab

    def _tab_built(self, index: int, page: QWidget) -> None:
        """A tab was just built and put in its place: its saved layout comes back (in
        place, so a splitter takes its sizes at the width it is shown at)."""
        name = next(n for n, i in self._lazy.items() if i == index)
        self._restore_layouts(self._layouts_of(name, page))

    def _tab(self, name: str) -> QWidget:
        page = self.tabs.page(self._lazy[name])
        assert page is not None
        return page

    @property
    def review_tab(self) -> ReviewTab:
        return cast("ReviewTab", self._tab("review"))

    @property
    def batches_tab(self) -> BatchesTab:
        return cast("BatchesTab", self._tab("batches"))

    @property
    def registry_tab(self) -> RegistryTab:
        return cast("RegistryTab", self._tab("registry"))

    @property
    def webhooks_tab(self) -> WebhooksTab:
        return cast("WebhooksTab", self._tab("webhooks"))

    @property
    def settings_tab(self) -> SettingsTab:
        return cast("SettingsTab", self._tab("settings"))

    def is_built(self, name: str) -> bool:
        return self.tabs.is_built(self._lazy[name])

    # -- menus ---------------------------------------------------------------------------

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(_("&File"))
        add_files = QAction(_("Add files…"), self)
        add_files.setShortcut(QKeySequence.StandardKey.Open)
        add_files.triggered.connect(lambda: spawn(self.queue_tab.add_files_dialog()))
        add_folder = QAction(_("Add folder…"), self)
        add_folder.triggered.connect(lambda: spawn(self.queue_tab.add_folder_dialog()))
        self.yadisk = YadiskImport(self.ctx, self)
        self.yadisk_action = QAction(_("Import from Yandex.Disk…"), self)
        self.yadisk_action.triggered.connect(self._import_yadisk)
        quit_action = QAction(_("Quit"), self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addActions([add_files, add_folder, self.yadisk_action])
        file_menu.addSeparator()
        file_menu.addAction(self.queue_tab.export_action)
        file_menu.addSeparator()
        file_menu.addAction(quit_action)
        view_menu = self.menuBar().addMenu(_("&View"))
        toggle_log = self.log_dock.toggleViewAction()
        toggle_log.setText(_("Log"))
        toggle_log.setShortcut(QKeySequence("Ctrl+L"))
        view_menu.addAction(toggle_log)
        needs_review = QAction(pgettext("menu", "Needs review"), self)
        needs_review.setShortcut(QKeySequence("Ctrl+E"))
        needs_review.triggered.connect(lambda: self.tabs.setCurrentWidget(self.review_tab))
        view_menu.addAction(needs_review)

    def _import_yadisk(self) -> None:
        self.tabs.setCurrentWidget(self.queue_tab)
        spawn(self.yadisk.run())

    # -- start -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Load the queue and start the engine; the window is already visible."""
        jobs: list[Job] = await asyncio.to_thread(self.ctx.app.jobs)
        self.queue_tab.load(jobs)
        self.queue_tab.sync_paused(await self.ctx.bridge.call(self.ctx.app.is_paused))
        await self.show_offline()
        self.ctx.bridge.start()  # from here the host reports the flag's changes
        self._busy_before = self.queue_tab.model.busy()
        self.watch_status.refresh()
        self.statusBar().showMessage(_("Ready"), 3000)
        self.started.emit()

    def _budget_raised(self, settings: Settings) -> None:
        """A cap raised from the Queue tab: the Settings tab shows it, the engine takes
        it over."""
        self.settings_tab.current = settings
        self.settings_tab.revert()
        spawn(self.apply_settings(settings))

    async def apply_settings(self, settings: Settings) -> None:
        """Run the engine on new settings without interrupting anyone's work.

        The host takes no new job from here on, lets the running ones finish, opens a
        new facade on the new settings and starts again; another data directory or
        backend is then loaded into the queue.
        """
        host, bridge = self.ctx.host, self.ctx.bridge
        old = host.app.settings
        if await bridge.call(host.active_jobs):
            self.ctx.notifier.notify(
                _("Settings saved: they apply when the running jobs finished.")
            )
        await bridge.call(host.restart, settings)
        if settings.data_dir != old.data_dir or settings.mongodb_uri != old.mongodb_uri:
            self.images.clear()
            self.queue_tab.load(await bridge.call(host.app.jobs))
        await self.show_offline()
        self.ctx.notifier.notify(_("Settings applied."), "success")

    async def show_offline(self) -> None:
        """The key is read off the GUI thread (the keyring may be slow to answer)."""
        app = self.ctx.host.app
        key = await asyncio.to_thread(lambda: app.anthropic_key)
        self.offline_label.setVisible(key is None)
        self._offline = key is None  # the mode in effect, under the setting
        if self.is_built("settings"):
            self.settings_tab.set_offline(self._offline)
        self.queue_tab.set_holds(app.holds())  # the key read: no keyring call here

    def show_vision_setting(self) -> None:
        """*Set up Vision…*: the Settings tab, at the Google credentials file."""
        self.tabs.setCurrentWidget(self.settings_tab)
        self.settings_tab.ensure_built()
        self.settings_tab.focus_field("google_application_credentials")

    def use_tesseract(self) -> None:
        """*Use Tesseract*: OCR_ENGINE set to Tesseract and saved, as the operator would
        in Settings; the engine takes it over and the held jobs start."""
        self.settings_tab.choose("ocr_engine", "tesseract")
        spawn(self.settings_tab.save(), self.settings_tab._save_failed)

    def show_key_setting(self) -> None:
        """*Add a key…*: the Settings tab, with the key's editor focused."""
        self.tabs.setCurrentWidget(self.settings_tab)
        self.settings_tab.ensure_built()
        self.settings_tab.focus_field("anthropic_api_key")

    def _engine_state(self, state: str) -> None:
        """The pause button follows the engine: paused (here or by ``docbatch pause``),
        or stopped by a critical error, it offers Resume."""
        if state in (EngineState.PAUSED, EngineState.HALTED):
            self.queue_tab.sync_paused(True)
        elif state == EngineState.RUNNING:
            self.queue_tab.sync_paused(False)

    def _jobs_changed(self, jobs: list[Job]) -> None:
        busy = self.queue_tab.model.busy()
        if busy == 0 and self._busy_before > 0:
            counts = self.queue_tab.model.count_by_state()
            self.ctx.notifier.notify(
                _("Run finished: {done} done, {review} to review, {failed} failed.").format(
                    done=counts.get(JobState.DONE, 0),
                    review=counts.get(JobState.NEEDS_REVIEW, 0),
                    failed=counts.get(JobState.FAILED, 0) + counts.get(JobState.TIMED_OUT, 0),
                ),
                "success",
            )
        self._busy_before = busy

    def _halted(self, message: str) -> None:
        self.ctx.notifier.notify(
            _("The queue stopped: {message}").format(message=message)
            + " "
            + _("Fix the setting, then press Resume."),
            "error",
        )

    def show_review(self, job_id: int, doc_index: int) -> None:
        self.tabs.setCurrentWidget(self.review_tab)
        spawn(self.review_tab.open_job(job_id, doc_index))

    # -- drag and drop ---------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            # where the files came from is where the next dialog opens (an export)
            first = paths[0]
            remember_folder(
                self.ctx.qsettings, "queue/last_folder", first if first.is_dir() else first.parent
            )
            self.tabs.setCurrentWidget(self.queue_tab)
            spawn(self.queue_tab.add_paths(paths), self.queue_tab._failed)

    # -- persistence ---------------------------------------------------------------------

    def _layouts_of(self, name: str, tab: Any) -> dict[str, Any]:
        """The headers and splitters of one tab whose layout the operator may change,
        by the QSettings key each is kept under."""
        if name == "queue":
            # "queue/header" kept the columns of before the file name stretched
            return {
                "queue/columns": tab.table.horizontalHeader(),
                "queue/splitter": tab.splitter,
            }
        if name == "review":
            return {"review/splitter": tab.splitter}
        if name == "batches":
            # "batches/header" kept the columns of before the batch id stretched
            return {"batches/columns": tab.table.horizontalHeader()}
        if name == "registry":
            return {
                "registry/header": tab.table.horizontalHeader(),
                "registry/splitter": tab.splitter,
                "registry/results_header": tab.results.table.horizontalHeader(),
            }
        return {}

    def _layouts(self) -> dict[str, Any]:
        """The layouts of the tabs built so far (a tab never built keeps the layout
        saved before, untouched)."""
        layouts = self._layouts_of("queue", self.queue_tab)
        for name in self._lazy:
            if self.is_built(name):
                layouts |= self._layouts_of(name, self._tab(name))
        return layouts

    def _restore(self) -> None:
        qs = self.ctx.qsettings
        geometry = qs.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = qs.value("window/state")
        if isinstance(state, QByteArray):
            self.restoreState(state)
        self._restore_layouts(self._layouts())

    def _restore_layouts(self, layouts: dict[str, Any]) -> None:
        for key, widget in layouts.items():
            saved = self.ctx.qsettings.value(key)
            if isinstance(saved, QByteArray):
                widget.restoreState(saved)

    def save_state(self) -> None:
        qs = self.ctx.qsettings
        qs.setValue("window/geometry", self.saveGeometry())
        qs.setValue("window/state", self.saveState())
        for key, widget in self._layouts().items():
            qs.setValue(key, widget.saveState())
        qs.sync()

    # -- closing ---------------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._close_allowed:
            event.accept()
            return
        event.ignore()
        if not self._closing:
            self._closing = True
            spawn(self._close_flow())

    async def _close_flow(self) -> None:
        try:
            running = await self.ctx.bridge.call(self.ctx.host.active_jobs)
            wait = False
            if running and self.ctx.host.running:
                answer = await self._ask_close(running)
                log.info(
                    "quitting with %d running job(s): the operator chose %s", running,
                    {"wait": "to wait for them", "quit": "to quit now (they resume at the "
                     "next start)"}.get(answer or "", "to stay"),
                )  # fmt: skip
                if answer is None:
                    return
                wait = answer == "wait"
            if wait:
                await self._drain_or_leave()
            await self.shutdown()
            self._close_allowed = True
            self.close()
        finally:
            self._closing = False

    async def _ask_close(self, running: int) -> str | None:
        """ "wait" or "quit", or None to stay: buttons named for what they do, since a
        Yes/No to a question with two choices in it is a guess."""
        box = QMessageBox(
            QMessageBox.Icon.Question,
            _("Close DocBatch"),
            ngettext(
                "{count} job is being processed. Wait for its running steps to finish, or "
                "leave it for the next start? Nothing is lost either way.",
                "{count} jobs are being processed. Wait for their running steps to finish, or "
                "leave them for the next start? Nothing is lost either way.",
                running,
            ).format(count=running),
            QMessageBox.StandardButton.NoButton,
            self,
        )
        box.setTextFormat(Qt.TextFormat.PlainText)
        wait = box.addButton(_("Wait for running jobs"), QMessageBox.ButtonRole.AcceptRole)
        wait.setObjectName("wait_button")
        leave = box.addButton(_("Quit now"), QMessageBox.ButtonRole.DestructiveRole)
        leave.setObjectName("quit_button")
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(leave)
        await ask(box)
        clicked = box.clickedButton()
        return "wait" if clicked is wait else "quit" if clicked is leave else None

    async def _drain_or_leave(self) -> None:
        """Let running jobs finish, with a progress dialog whose button leaves them
        (they resume on the next start); either way the window then closes."""
        waited = self.running_jobs()
        dialog = QProgressDialog(
            self.waiting_text(waited), _("Leave them"), 0, max(1, len(waited)), self
        )
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(0)

        def follow(_jobs: list[Job]) -> None:
            """Which of the waited-for jobs still run, named; the bar counts the rest."""
            still = self.running_jobs()
            dialog.setValue(len(waited) - len([j for j in still if j.id in {w.id for w in waited}]))
            if still:
                dialog.setLabelText(self.waiting_text(still))

        self.ctx.bridge.jobs_changed.connect(follow)
        left = asyncio.get_running_loop().create_future()
        dialog.canceled.connect(lambda: resolve(left, None))
        drained = asyncio.ensure_future(self.ctx.host.drained())
        dialog.open()
        dialog.setValue(0)
        try:
            await asyncio.wait([left, drained], return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.ctx.bridge.jobs_changed.disconnect(follow)
            drained.cancel()
            dialog.close()

    def running_jobs(self) -> list[Job]:
        """The jobs a local worker is in the middle of, as the queue shows them."""
        return [j for j in self.queue_tab.model.jobs() if j.state in RECOVERABLE_STATES]

    def waiting_text(self, jobs: list[Job]) -> str:
        """What closing waits for, by name: "scan.pdf (OCR, 40%)", three at most."""
        named = [
            _("{file_name} ({state}, {progress:.0%})").format(
                file_name=j.file_name, state=state_label(j.state), progress=j.progress
            )
            for j in jobs[:3]
        ]
        more = len(jobs) - len(named)
        names = "\n".join(named) + ("\n" + _("and {more} more").format(more=more) if more else "")
        return _("Waiting for the running steps of these jobs to finish:\n{names}").format(
            names=names or _("(none)")
        )

    async def shutdown(self) -> None:
        """Stop the engine (interrupted steps resume on the next start) and save state."""
        self.shutting_down = True
        self.save_state()
        await self.queue_tab.pending_deletes.flush()  # deletions still undoable are done now
        await asyncio.to_thread(self.ctx.host.stop)
        if self.log_handler is not None:
            remove = getattr(self.log_handler, "remove", None)
            if remove is not None:
                remove()  # also gives the root logger its level back
            logging.getLogger().removeHandler(self.log_handler)
            self.log_handler = None
        self.closed.emit()


def app_instance() -> QApplication:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    return app
