"""Wizard page 6: import and search, with progress and Cancel, then a summary.

Both steps run in a worker thread; Cancel cancels the ``CancelToken`` the core
checks between chunks, so the run stops within one chunk and the registry is left
with status ``error`` and the reason, never half-written without a word. When the
registry already has search results the core refuses (``NeedsForce``) and the page
offers *Force reimport* instead of deciding for the operator.
"""

from __future__ import annotations

import asyncio
import html
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWizardPage,
)

from docbatch_gui._qt.language import error_text
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.layout import STRETCH, filled
from docbatch_gui._qt.widgets.progress import set_bar, thread_sink
from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.domain.progress import Canceled, CancelToken, Progress
from docbatch_gui.i18n import _, ngettext, pgettext
from docbatch_gui.registry.search import SearchSummary
from docbatch_gui.registry.service import ImportSummary, NeedsForce

if TYPE_CHECKING:
    from docbatch_gui._qt.registry.wizard import RegistryWizard


class RunPage(QWizardPage):
    def __init__(self, wizard: RegistryWizard) -> None:
        super().__init__(wizard)  # owned by the wizard from the start
        self.owner = wizard
        self.setTitle(_("Import and search"))
        self.setSubTitle(
            _(
                "The rows are imported, then matched to the documents. "
                "Both can be canceled; what was imported stays visible."
            )
        )
        self.plan = QLabel()
        self.plan.setWordWrap(True)
        self.start_button = QPushButton(_("Import and search"))
        self.start_button.setDefault(True)
        self.start_button.clicked.connect(lambda: spawn(self.run(), self._failed))
        self.force_button = QPushButton(_("Force reimport"))
        self.force_button.setToolTip(
            _("Replace the rows and the automatic search results; manual assignments stay audited.")
        )
        self.force_button.clicked.connect(lambda: spawn(self.run(force=True), self._failed))
        self.force_button.hide()
        self.cancel_button = QPushButton(pgettext("command", "Cancel"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel_run)
        self.stage = QLabel()
        self.bar = QProgressBar()
        self.bar.setRange(0, 1)
        self.bar.setValue(0)
        # Shown from the first run on: before it, an empty bar at "0%" read as a run
        # that had stalled.
        self.bar.hide()
        self.outcome = QLabel()
        self.outcome.setWordWrap(True)
        self.outcome.setTextFormat(Qt.TextFormat.RichText)
        buttons = (self.start_button, self.force_button, self.cancel_button, STRETCH)
        row = filled(QHBoxLayout(), *buttons)
        filled(QVBoxLayout(self), self.plan, row, self.stage, self.bar, (self.outcome, 1))
        self.cancel: CancelToken | None = None
        self.running = False
        self.done_id: int | None = None
        self.imported: ImportSummary | None = None
        self.searched: SearchSummary | None = None
        #: the file and settings of the last run that finished: the same run again
        #: would do nothing new, so *Import and search* waits for a change
        self.ran: tuple[object, ...] | None = None
        #: set when a run ends, whatever the outcome (tests await it)
        self.finished: asyncio.Future[str] | None = None

    def initializePage(self) -> None:
        self.refresh_start()
        w = self.owner
        preview = w.preview
        pairs = w.rules_page.pair_count
        self.plan.setText(
            ngettext(
                "File: <b>{file}</b>, sheet “{sheet}”: {count} row to import, {filtered} "
                "filtered. Candidate pairs to score: {pairs}.",
                "File: <b>{file}</b>, sheet “{sheet}”: {count} rows to import, {filtered} "
                "filtered. Candidate pairs to score: {pairs}.",
                preview.kept if preview else 0,
            ).format(
                file=w.file.name if w.file else "",
                sheet=preview.sheet if preview else "",
                count=preview.kept if preview else 0,
                filtered=preview.filtered if preview else 0,
                pairs="…" if pairs is None else pairs,
            )
        )

    def _settings(self) -> tuple[object, ...] | None:
        try:
            return (self.owner.file, self.owner.draft())
        except ValueError:  # a mistake in a field: the run says so when started
            return None

    def refresh_start(self) -> None:
        """*Import and search* is off while a run goes, and after one finished until
        the file or a setting changes."""
        done = self.ran is not None and self._settings() == self.ran
        self.start_button.setEnabled(not self.running and not done)

    def isComplete(self) -> bool:
        return self.done_id is not None and not self.running

    def cancel_run(self) -> None:
        if self.cancel is not None:
            self.cancel.cancel()
            self.stage.setText(_("Canceling after the current chunk…"))
            self.cancel_button.setEnabled(False)

    def _busy(self, running: bool) -> None:
        self.running = running
        self.refresh_start()
        self.force_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        for which in (self.owner.WizardButton.BackButton, self.owner.WizardButton.CustomButton1):
            button = self.owner.button(which)
            if button is not None:
                button.setEnabled(not running)
        self.completeChanged.emit()

    def _imported(self, progress: Progress) -> None:
        set_bar(self.bar, progress)
        self.stage.setText(
            ngettext("Importing: {count} row", "Importing: {count} rows", progress.done).format(
                count=progress.done
            )
        )

    def _searched(self, progress: Progress) -> None:
        set_bar(self.bar, progress)
        self.stage.setText(
            _("Searching: row {row} of {total}").format(
                row=progress.done, total=progress.total or "?"
            )
        )

    async def run(self, force: bool = False) -> None:
        """Import then search; every outcome ends in a readable line on the page."""
        w = self.owner
        if self.running or w.file is None:
            return
        self.finished = asyncio.get_running_loop().create_future()
        service = w.ctx.app.registry
        self.cancel = cancel = CancelToken()
        self.outcome.setText("")
        self.force_button.hide()
        self._busy(True)
        outcome = "error"
        settings = self._settings()
        try:
            config = w.config()
            self.stage.setText(_("Importing…"))
            self.bar.setRange(0, 0)
            self.bar.show()
            self.imported = imported = await asyncio.to_thread(
                service.import_registry,
                w.file,
                config,
                name=w.file_page.name.text().strip() or None,
                registry_id=w.registry_id,
                force=force,
                progress=thread_sink(self._imported),
                cancel=cancel,
            )
            w.registry_id = imported.registry_id
            self.stage.setText(_("Counting candidate pairs…"))
            pairs = await asyncio.to_thread(service.candidate_pairs, w.registry_id)
            self.stage.setText(
                ngettext(
                    "Searching: {count} candidate pair", "Searching: {count} candidate pairs", pairs
                ).format(count=pairs)
            )
            self.searched = found = await asyncio.to_thread(
                service.search, w.registry_id, progress=thread_sink(self._searched), cancel=cancel
            )
        except NeedsForce as exc:
            outcome = "needs_force"
            self.outcome.setText(html.escape(error_text(exc)))
            self.force_button.show()
        except Canceled:
            outcome = "canceled"
            self.outcome.setText(
                _(
                    "Canceled. The registry keeps status “error” with "
                    "the reason; run again to finish it."
                )
            )
        except DocBatchError as exc:
            text = html.escape(error_text(exc))
            self.outcome.setText(f"<span style='color:#b3261e'>{text}</span>")
        else:
            outcome = "done"
            self.ran = settings
            self.done_id = w.registry_id
            self.outcome.setText(self.summary(imported, found))
            w.registry_done.emit(w.registry_id)
        finally:
            self.bar.setRange(0, 1)
            self.bar.setValue(1 if outcome == "done" else 0)
            self.stage.setText(
                {
                    "done": _("Finished."),
                    "canceled": _("Canceled."),
                    "needs_force": _("Not imported."),
                }.get(outcome, _("Failed."))
            )
            self.cancel = None
            self._busy(False)
            if not self.finished.done():
                self.finished.set_result(outcome)
            if w.close_when_idle:
                w.reject()

    def summary(self, imported: ImportSummary, found: SearchSummary) -> str:
        return _(
            "<p><b>{kept}</b> rows imported, {filtered} filtered.</p>"
            "<p><b>{matched}</b> rows matched, <b>{no_match}</b> without a match, "
            "{with_warnings} with warnings, "
            "{manual} assigned by hand; {candidate_pairs} candidate pairs scored.</p>"
            "<p>Press Finish to open the results.</p>"
        ).format(
            kept=imported.kept,
            filtered=imported.filtered,
            matched=found.matched,
            no_match=found.no_match,
            with_warnings=found.with_warnings,
            manual=found.manual,
            candidate_pairs=found.candidate_pairs,
        )

    def _failed(self, error: BaseException) -> None:
        self.outcome.setText(f"<span style='color:#b3261e'>{error}</span>")
