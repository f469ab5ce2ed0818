"""The selected job's source file: opened in its program, or shown in its folder.

A mixin of :class:`docbatch_gui._qt.queue.tab.QueueTab`. The desktop may have no
program for a file type (a bare server, a TIFF on a fresh install), and a file may be
gone since it was added: both are said to the operator instead of nothing happening.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QWidget

from docbatch_gui._qt.context import GuiContext
from docbatch_gui.domain.models import Job
from docbatch_gui.i18n import _
from docbatch_gui.system.desktop import reveal


class QueueFiles(QWidget):
    ctx: GuiContext

    def selected_jobs(self) -> list[Job]:
        raise NotImplementedError

    def _open_source(self) -> None:
        jobs = self.selected_jobs()
        if not jobs:
            return
        path = Path(jobs[0].source_path)
        if not path.exists():
            self.ctx.notifier.notify(
                _("{path} is no longer there: it was moved or deleted since it was added.").format(
                    path=path
                ),
                "error",
            )
            return
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(os.fspath(path))):
            self.ctx.notifier.notify(
                _(
                    "No program on this computer opens {name}. Use Show in folder and open "
                    "it from there, or install a viewer for this type of file."
                ).format(name=path.name),
                "error",
            )

    def _reveal(self) -> None:
        jobs = self.selected_jobs()
        if not jobs:
            return
        path = Path(jobs[0].source_path)
        if reveal(path):  # Explorer or Finder, the file selected
            return
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(os.fspath(path.parent))):
            self.ctx.notifier.notify(
                _("No file manager could be started; the file is in {parent}").format(
                    parent=path.parent
                ),
                "error",
            )
