"""What the operator does to selected jobs: cancel, retry, process again, open, delete.

A mixin of :class:`docbatch_gui._qt.queue.tab.QueueTab` (its context, table and
model). Every move that loses something asks first, once for the whole selection,
with buttons that say what they do.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from enum import Enum
from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QMenu, QMessageBox, QPushButton, QTableView

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.language import error_text
from docbatch_gui._qt.queue.files import QueueFiles
from docbatch_gui._qt.queue.jobs_model import JobRole, JobTableModel
from docbatch_gui._qt.queue.pending_deletes import PendingDeletes
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.dialogs import ask, confirm
from docbatch_gui._qt.widgets.export_documents import export_documents
from docbatch_gui.domain.errors import DocBatchError, ErrorKind
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import FINAL_STATES, JobState
from docbatch_gui.engine.documents import CorrectionsAtRisk
from docbatch_gui.i18n import _, ngettext, pgettext


class DeleteChoice(Enum):
    WITH_DOCUMENTS = "with_documents"
    KEEP_DOCUMENTS = "keep_documents"


class QueueActions(QueueFiles):
    ctx: GuiContext
    table: QTableView
    model: JobTableModel

    def _build_actions(self) -> None:
        self.pending_deletes = PendingDeletes(
            self._delete_now, self._restore_rows, lambda coro: spawn(coro, self._failed), self
        )

        def action(
            text: str, handler: Callable[[], object], shortcut: str | None = None
        ) -> QAction:
            act = QAction(text, self)
            act.triggered.connect(handler)
            if shortcut:
                act.setShortcut(QKeySequence(shortcut))
                act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                self.table.addAction(act)
            return act

        self.cancel_action = action(
            pgettext("command", "Cancel"), lambda: self._each(self.ctx.app.cancel)
        )
        self.retry_action = action(_("Retry"), lambda: self._each(self.ctx.app.retry), "Ctrl+R")
        self.reprocess_action = action(
            _("Process again"), lambda: self._each(self.ctx.app.reprocess)
        )
        self.open_action = action(_("Open source file"), self._open_source, "Return")
        self.reveal_action = action(_("Show in folder"), self._reveal)
        self.delete_action = action(_("Delete…"), self._delete, "Delete")
        self.export_action = action(
            _("Export documents…"), lambda: spawn(self.export_shown(), self._failed)
        )
        self.export_action.setToolTip(
            _("The selected jobs' documents, or those of every job the filter shows")
        )
        row = QHBoxLayout()
        for act in (
            self.cancel_action,
            self.retry_action,
            self.reprocess_action,
            self.open_action,
            self.reveal_action,
            self.delete_action,
        ):
            button = QPushButton(act.text())
            button.clicked.connect(act.trigger)
            act.changed.connect(lambda b=button, a=act: b.setEnabled(a.isEnabled()))
            row.addWidget(button)
        row.addStretch(1)
        self.button_row = row
        self._update_actions()

    async def export_shown(self) -> Path | None:
        """The selected jobs' documents, else those of every job the filter lets through."""
        jobs = self.selected_jobs()
        if jobs:
            scope = ngettext(
                "The documents of the {count} selected job",
                "The documents of the {count} selected jobs",
                len(jobs),
            ).format(count=len(jobs))
        else:
            view = self.table.model()
            jobs = [view.index(r, 0).data(JobRole) for r in range(view.rowCount())]
            scope = ngettext(
                "The documents of the {count} job shown",
                "The documents of the {count} jobs shown",
                len(jobs),
            ).format(count=len(jobs))
        return await export_documents(self, self.ctx, [j.id for j in jobs], scope)

    def selected_jobs(self) -> list[Job]:
        rows = self.table.selectionModel().selectedRows()
        return [row.data(JobRole) for row in rows]

    def _update_actions(self) -> None:
        jobs = self.selected_jobs()
        final = bool(jobs) and all(j.state in FINAL_STATES for j in jobs)
        self.cancel_action.setEnabled(bool(jobs) and not final)
        retryable = [
            j for j in jobs if j.state in FINAL_STATES and j.state is not JobState.DUPLICATE
        ]
        # a file the job says retrying will not help (bad input): fix or replace it first
        hopeless = [j for j in retryable if j.error_kind is ErrorKind.UNSUPPORTED]
        self.retry_action.setEnabled(
            bool(jobs) and len(retryable) == len(jobs) and len(hopeless) < len(jobs)
        )
        self.retry_action.setToolTip(
            _("Retrying will not help: fix or replace the file, then Process again")
            if jobs and len(hopeless) == len(jobs)
            else _("Retry (Ctrl+R)")
        )
        self.reprocess_action.setEnabled(final)
        self.open_action.setEnabled(len(jobs) == 1)
        self.reveal_action.setEnabled(len(jobs) == 1)
        self.delete_action.setEnabled(
            bool(jobs) and all(j.state in FINAL_STATES or j.state is JobState.QUEUED for j in jobs)
        )

    def _failed(self, error: BaseException) -> None:
        self.ctx.notifier.notify(error_text(error), "error")

    def _each(self, operation: Callable[..., Job]) -> None:
        jobs = self.selected_jobs()

        async def run() -> None:
            changed = []
            for job in jobs:
                try:
                    changed.append(await self.ctx.bridge.call(operation, job.id))
                except CorrectionsAtRisk as exc:
                    if await self._go_on_over_corrections(job, exc):
                        forced = functools.partial(operation, force=True)
                        changed.append(await self.ctx.bridge.call(forced, job.id))
                except DocBatchError as exc:
                    self._failed(exc)
            self.ctx.bridge.publish(changed)

        spawn(run(), self._failed)

    async def _go_on_over_corrections(self, job: Job, risk: CorrectionsAtRisk) -> bool:
        """A person's corrections are at stake: ask before processing the file again."""
        return await confirm(
            self,
            _("Process again?"),
            _("{error}\n\nProcess {file_name} again?").format(
                error=error_text(risk), file_name=job.file_name
            ),
            QMessageBox.StandardButton.Cancel,
        )

    async def ask_delete(self, jobs: Sequence[Job]) -> DeleteChoice | None:
        """One question for the whole selection, naming the file (or the count); the
        documents may stay for Review and the registry. None: the operator said no."""
        if len(jobs) == 1:
            question = _("Delete {file_name} from the queue?").format(file_name=jobs[0].file_name)
        else:
            question = ngettext(
                "Delete {count} file from the queue?",
                "Delete {count} files from the queue?",
                len(jobs),
            ).format(count=len(jobs))
        documents = sum(job.documents for job in jobs)
        box = QMessageBox(
            QMessageBox.Icon.Question, pgettext("dialog title", "Delete"), question, parent=self
        )
        box.setTextFormat(Qt.TextFormat.PlainText)  # the text quotes file names
        both = keep = None
        if documents:
            found = _("Documents found in them: {documents}.").format(documents=documents)
            box.setInformativeText(
                found
                + " "
                + _(
                    "Keep them for Review and registry matching, or delete them too: registry "
                    "rows matched to a deleted document are matched again."
                )
            )
            both = box.addButton(
                _("Delete job and documents"), QMessageBox.ButtonRole.DestructiveRole
            )
            keep = box.addButton(_("Delete job, keep documents"), QMessageBox.ButtonRole.AcceptRole)
        else:
            both = box.addButton(_("Delete job"), QMessageBox.ButtonRole.DestructiveRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        box.setEscapeButton(cancel)
        await ask(box)
        clicked = box.clickedButton()
        box.deleteLater()
        if clicked is not None and clicked is both:
            return DeleteChoice.WITH_DOCUMENTS
        if clicked is not None and clicked is keep:
            return DeleteChoice.KEEP_DOCUMENTS
        return None

    def _delete(self) -> None:
        spawn(self.delete_selected(), self._failed)

    async def delete_selected(self) -> None:
        """Ask once; the rows leave at once, the store deletes them after the undo
        time, and the notice offers *Undo* until then (Delete button, Del key)."""
        jobs = self.selected_jobs()
        if not jobs or not self.delete_action.isEnabled():
            return
        choice = await self.ask_delete(jobs)
        if choice is None:
            return
        keep = choice is DeleteChoice.KEEP_DOCUMENTS
        ids = self.pending_deletes.add(jobs, keep)
        self.model.remove(ids)
        self._update_counts()
        count = len(ids)
        if keep:
            done = ngettext(
                "{count} job deleted; its documents were kept.",
                "{count} jobs deleted; their documents were kept.",
                count,
            )
        else:
            done = ngettext(
                "{count} job deleted with its documents.",
                "{count} jobs deleted with their documents.",
                count,
            )
        self.ctx.notifier.notify(
            done.format(count=count),
            action=(_("Undo"), lambda: self.undo_delete(ids)),
            duration_ms=self.pending_deletes.undo_ms,
        )

    def undo_delete(self, job_ids: list[int]) -> None:
        """*Undo*: the jobs not deleted yet come back to the queue as they were."""
        back = self.pending_deletes.undo(job_ids)
        if back:
            self.ctx.notifier.notify(
                ngettext(
                    "{count} job is back in the queue.",
                    "{count} jobs are back in the queue.",
                    len(back),
                ).format(count=len(back)),
                "success",
            )

    def _restore_rows(self, jobs: list[Job]) -> None:
        self.model.apply(jobs)
        self._update_counts()

    async def _delete_now(self, due: list[tuple[Job, bool]]) -> None:
        """The undo time is over: the store deletes the jobs. One it refuses (the
        engine started it meanwhile) is shown again, with the reason."""
        for job, keep in due:
            try:
                delete = functools.partial(self.ctx.app.delete, keep_documents=keep)
                await self.ctx.bridge.call(delete, job.id)
            except DocBatchError as exc:
                self._failed(exc)
                fresh = await self.ctx.bridge.call(self.ctx.app.jobs, [job.id])
                self._restore_rows(fresh)

    def _update_counts(self) -> None:
        raise NotImplementedError  # the tab's counts line

    def _context_menu(self, pos: QPoint) -> None:
        if not self.selected_jobs():
            return
        menu = QMenu(self)
        menu.addAction(self.open_action)
        menu.addAction(self.reveal_action)
        menu.addSeparator()
        menu.addAction(self.cancel_action)
        menu.addAction(self.retry_action)
        menu.addAction(self.reprocess_action)
        menu.addAction(self.export_action)
        menu.addSeparator()
        menu.addAction(self.delete_action)
        menu.popup(self.table.viewport().mapToGlobal(pos))
