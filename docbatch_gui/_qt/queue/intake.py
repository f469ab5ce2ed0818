"""Taking files into the queue from the GUI: dialogs, drops, progress, the summary.

A mixin of :class:`docbatch_gui._qt.queue.tab.QueueTab` (its context and notifier).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtWidgets import QComboBox, QLineEdit, QTableView, QWidget

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.language import interface_language
from docbatch_gui._qt.queue.jobs_model import COL_FILE, JobFilterProxy, JobTableModel
from docbatch_gui._qt.widgets.dialogs import choose_files, choose_folder
from docbatch_gui._qt.widgets.folders import remember_folder, remembered_folder
from docbatch_gui._qt.widgets.progress import run_with_progress
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.progress import Progress
from docbatch_gui.engine.intake import IntakeReport
from docbatch_gui.i18n import _, ngettext
from docbatch_gui.pipeline.formats import SUPPORTED_EXTENSIONS

#: names listed in a message before "and N more"
NAMED = 3


def named(names: Sequence[str]) -> str:
    """A few names, then how many more: a message stays one line for a big folder."""
    shown = ", ".join(names[:NAMED])
    if len(names) > NAMED:
        shown += " " + _("and {more} more").format(more=len(names) - NAMED)
    return shown


class QueueIntake(QWidget):
    ctx: GuiContext
    model: JobTableModel
    proxy: JobFilterProxy
    table: QTableView

    state_filter: QComboBox
    error_filter: QComboBox
    search: QLineEdit

    def _empty_text(self) -> str:
        """What the empty queue says: how to add files, or that the filter hides all."""
        if self.model.rowCount() == 0:
            return _("Drop files here or press Add files…")
        return _("No jobs match this filter.")

    def clear_filters(self) -> None:
        """Show every job: the filters back to "all", the search emptied."""
        self.state_filter.setCurrentIndex(0)
        self.error_filter.setCurrentIndex(0)
        self.search.clear()

    # -- adding --------------------------------------------------------------------------

    async def add_paths(self, paths: Sequence[Path | str], *, force: bool = False) -> None:
        """Take files in off the GUI thread; a progress dialog with Cancel appears
        when it takes more than a second (a big folder: every file is hashed)."""
        if not paths:
            return

        def adding(progress: Progress) -> str:
            return _("Adding {what}…").format(what=progress.what)

        report = await run_with_progress(
            self,
            _("Adding files"),
            _("Adding files…"),
            lambda sink, token: self.ctx.app.add(paths, force=force, progress=sink, cancel=token),
            describe=adding,
            cancel_text=_("Stop"),
            show_after_ms=1000,
        )
        self.ctx.bridge.publish(report.jobs)
        self.show_added(report.jobs)
        self.ctx.notifier.notify(self._intake_message(report), "info")

    def show_added(self, jobs: list[Job]) -> None:
        """Scroll to the rows just added: the operator sees at once where they went (a
        filter that hides them is cleared). The selection stays the operator's: a
        batch selected by itself would arm *Cancel* and *Delete…* for all of it."""
        if not jobs:
            return
        self.model.apply(jobs)  # now, not at the bridge's next batch
        job_ids = [job.id for job in jobs]
        rows = self._proxy_rows(job_ids)
        if not rows:
            self.clear_filters()
            rows = self._proxy_rows(job_ids)
        if rows:
            self.table.scrollTo(self.proxy.index(rows[0], COL_FILE))

    def _proxy_rows(self, job_ids: list[int]) -> list[int]:
        rows = []
        for job_id in job_ids:
            row = self.model.row_of(job_id)
            if row is not None:
                index = self.proxy.mapFromSource(self.model.index(row, 0))
                if index.isValid():
                    rows.append(index.row())
        return sorted(rows)

    def _intake_message(self, report: IntakeReport) -> str:
        duplicates = [r for r in report.results if r.is_duplicate]
        queued = len(report.results) - len(duplicates)
        message = ngettext("Queued {count} file.", "Queued {count} files.", queued).format(
            count=queued
        )
        if duplicates:
            message += " " + ngettext(
                "{count} already known: shown as a duplicate (use Process again to reprocess).",
                "{count} already known: shown as duplicates (use Process again to reprocess).",
                len(duplicates),
            ).format(count=len(duplicates))
        if report.skipped:
            message += " " + ngettext(
                "{count} file skipped, its type is not supported (PDF, TIFF, JPEG, PNG are): "
                "{names}.",
                "{count} files skipped, their type is not supported (PDF, TIFF, JPEG, PNG are): "
                "{names}.",
                len(report.skipped),
            ).format(count=len(report.skipped), names=named([p.name for p in report.skipped]))
        if report.passed_over:
            message += " " + ngettext(
                "{count} file not read: {names}.",
                "{count} files not read: {names}.",
                len(report.passed_over),
            ).format(
                count=len(report.passed_over),
                names=named(
                    [
                        f"{path.name} ({why.words(interface_language())})"
                        for path, why in report.passed_over
                    ]
                ),
            )
        if report.canceled:
            message += " " + _("Stopped by you; the rest was not added.")
        return message

    def _last_folder(self) -> str:
        return remembered_folder(self.ctx.qsettings, "queue/last_folder")

    async def add_files_dialog(self) -> None:
        patterns = " ".join(f"*{ext}" for ext in sorted(SUPPORTED_EXTENSIONS))
        files = await choose_files(
            self,
            _("Add files"),
            self._last_folder(),
            _("Documents ({patterns});;All files (*)").format(patterns=patterns),
        )
        if files:
            remember_folder(self.ctx.qsettings, "queue/last_folder", Path(files[0]).parent)
            await self.add_paths(files)

    async def add_folder_dialog(self) -> None:
        folder = await choose_folder(self, _("Add a folder"), self._last_folder())
        if folder:
            remember_folder(self.ctx.qsettings, "queue/last_folder", folder)
            await self.add_paths([folder])
