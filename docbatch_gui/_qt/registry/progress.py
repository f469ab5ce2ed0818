"""Long registry operations off the GUI thread, with progress and Cancel.

The core's long calls take ``progress(done, total)`` and a ``threading.Event``; here
they run in the loop's executor, progress is marshalled back with
``call_soon_threadsafe`` (Qt widgets must only be touched on the GUI thread), and the
dialog's Cancel sets the event, which the core checks between chunks. The dialog
appears only when the work takes longer than half a second, so quick actions do not
flash a window.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QProgressDialog, QWidget

from docbatch_gui.registry.progress import ProgressFn

T = TypeVar("T")

SHOW_AFTER_MS = 500


def thread_progress(callback: Callable[[int, int | None], None]) -> ProgressFn:
    """A ``progress`` for the core that calls ``callback`` on the GUI loop."""
    loop = asyncio.get_running_loop()

    def progress(done: int, total: int | None) -> None:
        loop.call_soon_threadsafe(callback, done, total)

    return progress


def set_bar(bar: object, done: int, total: int | None) -> None:
    """A QProgressBar/QProgressDialog: busy while the total is unknown."""
    if total:
        bar.setMaximum(total)  # type: ignore[attr-defined]
        bar.setValue(min(done, total))  # type: ignore[attr-defined]
    else:
        bar.setMaximum(0)  # type: ignore[attr-defined]


async def run_with_progress(
    parent: QWidget,
    title: str,
    label: str,
    work: Callable[[ProgressFn, threading.Event], T],
    *,
    unit: str = "",
) -> T:
    """Run ``work(progress, cancel)`` in a worker thread behind a progress dialog.

    Raises whatever the work raised (``Cancelled`` when the operator pressed Cancel).
    """
    cancel = threading.Event()
    dialog = QProgressDialog(label, QCoreApplication.translate("Registry", "Cancel"), 0, 0, parent)
    dialog.setWindowTitle(title)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setAutoClose(False)
    dialog.setAutoReset(False)
    dialog.setMinimumDuration(SHOW_AFTER_MS)
    dialog.canceled.connect(cancel.set)

    def update(done: int, total: int | None) -> None:
        if cancel.is_set():
            return
        set_bar(dialog, done, total)
        if unit:
            shown = f"{done} / {total}" if total else str(done)
            dialog.setLabelText(f"{label}\n{shown} {unit}")

    try:
        return await asyncio.get_running_loop().run_in_executor(
            None, work, thread_progress(update), cancel
        )
    finally:
        dialog.canceled.disconnect(cancel.set)
        dialog.close()
        dialog.deleteLater()
