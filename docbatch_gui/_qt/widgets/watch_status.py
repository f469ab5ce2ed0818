"""The status bar's word on watched folders: which ones, and which cannot be reached.

The host's watcher keeps its folders and their problems in memory, so reading them
here every few seconds costs nothing on the GUI thread.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QWidget

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.language import interface_language
from docbatch_gui.i18n import _, ngettext

REFRESH_MS = 3000
PROBLEM_STYLE = "color: #c62828; padding: 0 8px;"
OK_STYLE = "color: palette(text); padding: 0 8px;"


class WatchStatus(QLabel):
    def __init__(self, ctx: GuiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("watch_status")
        self.hide()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.refresh)
        self.timer.start(REFRESH_MS)

    def refresh(self) -> None:
        watching = self.ctx.host.watching
        if watching is None or not watching.folders:
            self.hide()
            return
        names = ", ".join(folder.name or str(folder) for folder in watching.folders)
        problems = watching.problems
        if problems:
            self.setText(
                ngettext(
                    "Watching {names}; {count} folder cannot be reached",
                    "Watching {names}; {count} folders cannot be reached",
                    len(problems),
                ).format(names=names, count=len(problems))
            )
            self.setStyleSheet(PROBLEM_STYLE)
            language = interface_language()
            self.setToolTip("\n".join(p.words(language) for p in problems.values()))
        else:
            self.setText(_("Watching {names}").format(names=names))
            self.setStyleSheet(OK_STYLE)
            self.setToolTip("\n".join(str(f) for f in watching.folders))
        self.show()
