"""Taking files into the queue from the GUI: dialogs, drops, progress, the summary.

A mixin of :class:`docbatch_gui._qt.queue.tab.QueueTab` (its context and notifier).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtWidgets import QWidget

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.widgets.dialogs import choose_files, choose_folder
from docbatch_gui._qt.widgets.progress import run_with_progress
from docbatch_gui.domain.progress import Progress
from docbatch_gui.engine.intake import IntakeReport
from docbatch_gui.pipeline.formats import SUPPORTED_EXTENSIONS


class QueueIntake(QWidget):
    ctx: GuiContext

    # -- adding --------------------------------------------------------------------------

    async def add_paths(self, paths: Sequence[Path | str], *, force: bool = False) -> None:
        """Take files in off the GUI thread; a progress dialog with Cancel appears
        when it takes more than a second (a big folder: every file is hashed)."""
        if not paths:
            return

        def adding(progress: Progress) -> str:
            return self.tr("Adding {0}…").format(progress.what)

        report = await run_with_progress(
            self,
            self.tr("Adding files"),
            self.tr("Adding files…"),
            lambda sink, token: self.ctx.app.add(paths, force=force, progress=sink, cancel=token),
            describe=adding,
            cancel_text=self.tr("Stop"),
            show_after_ms=1000,
        )
        self.ctx.bridge.publish(report.jobs)
        self.ctx.notifier.notify(self._intake_message(report), "info")

    def _intake_message(self, report: IntakeReport) -> str:
        duplicates = [r for r in report.results if r.is_duplicate]
        message = self.tr("Queued {0} file(s).").format(len(report.results) - len(duplicates))
        if duplicates:
            message += " " + self.tr(
                "{0} already known: shown as duplicates (use Process again to reprocess)."
            ).format(len(duplicates))
        if report.skipped:
            message += " " + self.tr("{0} file(s) of unsupported types skipped.").format(
                len(report.skipped)
            )
        if report.passed_over:
            message += " " + self.tr(
                "{0} file(s) not read (links out of the folder, pipes, system files): see the log."
            ).format(len(report.passed_over))
        if report.canceled:
            message += " " + self.tr("Stopped by you; the rest was not added.")
        return message

    def _last_folder(self) -> str:
        return str(self.ctx.qsettings.value("queue/last_folder", str(Path.home())))

    async def add_files_dialog(self) -> None:
        patterns = " ".join(f"*{ext}" for ext in sorted(SUPPORTED_EXTENSIONS))
        files = await choose_files(
            self,
            self.tr("Add files"),
            self._last_folder(),
            self.tr("Documents ({0});;All files (*)").format(patterns),
        )
        if files:
            self.ctx.qsettings.setValue("queue/last_folder", str(Path(files[0]).parent))
            await self.add_paths(files)

    async def add_folder_dialog(self) -> None:
        folder = await choose_folder(self, self.tr("Add a folder"), self._last_folder())
        if folder:
            self.ctx.qsettings.setValue("queue/last_folder", folder)
            await self.add_paths([folder])
