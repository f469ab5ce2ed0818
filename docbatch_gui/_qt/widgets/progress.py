"""Long operations off the GUI thread, with a progress bar and Cancel.

The core's long calls (intake, Yandex.Disk downloads, registry import, search and
export) take a ``ProgressSink`` and a ``CancelToken`` (``domain.progress``). Here they
run in the loop's executor; progress comes back to the GUI thread through
``call_soon_threadsafe`` (worker threads must never touch a widget), and Cancel
cancels the token, which the core checks between two units of work. The dialog
appears only when the work takes a while, so quick actions do not flash a window.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QProgressBar, QProgressDialog, QWidget

from docbatch_gui.domain.progress import CancelToken, Progress, ProgressSink
from docbatch_gui.i18n import _

__all__ = [
    "SHOW_AFTER_MS",
    "ProgressDialog",
    "counted",
    "run_with_progress",
    "set_bar",
    "thread_sink",
]

T = TypeVar("T")

SHOW_AFTER_MS = 500

#: the dialog's text for one step of progress
Describe = Callable[[Progress], str]


def thread_sink(show: Callable[[Progress], None]) -> ProgressSink:
    """A sink for the core, callable from any thread, that calls ``show`` on the GUI
    loop. Must be made on the GUI thread (it captures the running loop)."""
    loop = asyncio.get_running_loop()

    def sink(progress: Progress) -> None:
        loop.call_soon_threadsafe(show, progress)

    return sink


def set_bar(bar: QProgressBar | QProgressDialog, progress: Progress) -> None:
    """Fill a bar; a busy bar while the total is unknown."""
    if progress.total:
        bar.setMaximum(progress.total)
        bar.setValue(min(progress.done, progress.total))
    else:
        bar.setMaximum(0)


def counted(label: str, unit: str) -> Describe:
    """``label`` with the count under it: "Writing x.xlsx…\\n300 / 1200 rows"."""

    def describe(progress: Progress) -> str:
        shown = f"{progress.done} / {progress.total}" if progress.total else str(progress.done)
        return f"{label}\n{shown} {unit}"

    return describe


class ProgressDialog(QProgressDialog):
    """A window-modal progress dialog whose Cancel button cancels ``token``.

    ``run(work)`` calls ``work(sink, token)`` in a worker thread and closes the dialog
    when it ends, whatever the outcome; it raises what the work raised (``Canceled``
    when the core stopped at the operator's request).
    """

    def __init__(
        self,
        parent: QWidget,
        title: str,
        label: str,
        *,
        describe: Describe | None = None,
        cancel_text: str | None = None,
        show_after_ms: int = SHOW_AFTER_MS,
    ) -> None:
        cancel_text = cancel_text or _("Cancel")
        super().__init__(label, cancel_text, 0, 0, parent)
        self.setWindowTitle(title)
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.setAutoClose(False)
        self.setAutoReset(False)
        self.setMinimumDuration(show_after_ms)
        self.token = CancelToken()
        self.describe = describe
        self._ended = False
        self.canceled.connect(self.token.cancel)

    def show_progress(self, progress: Progress) -> None:
        """On the GUI thread. Late updates (queued before the work ended, or after
        Cancel) are dropped: the dialog may already be gone."""
        if self._ended or self.token.canceled:
            return
        set_bar(self, progress)
        if self.describe is not None:
            self.setLabelText(self.describe(progress))

    async def run(self, work: Callable[[ProgressSink, CancelToken], T]) -> T:
        if self.minimumDuration() == 0:
            self.open()
        try:
            return await asyncio.to_thread(work, thread_sink(self.show_progress), self.token)
        finally:
            self._ended = True
            self.canceled.disconnect(self.token.cancel)
            self.close()
            self.deleteLater()


async def run_with_progress(
    parent: QWidget,
    title: str,
    label: str,
    work: Callable[[ProgressSink, CancelToken], T],
    *,
    describe: Describe | None = None,
    cancel_text: str | None = None,
    show_after_ms: int = SHOW_AFTER_MS,
) -> T:
    dialog = ProgressDialog(
        parent, title, label, describe=describe, cancel_text=cancel_text,
        show_after_ms=show_after_ms,
    )  # fmt: skip
    return await dialog.run(work)
