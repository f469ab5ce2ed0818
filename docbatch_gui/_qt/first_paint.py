"""Run something once the window has been painted for the first time.

``--exit-after-show`` (what ``bench/gui_responsiveness.py`` times) reports the moment
and the CPU spent up to it: the first paint is what the operator waits for.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget


class _ExposeWatch(QObject):
    """Watches the native window: its first expose is painted synchronously, so the
    callback is queued to run once that returned."""

    def __init__(self, callback: Callable[[], object], parent: QObject) -> None:
        super().__init__(parent)
        self._callback = callback
        self._fired = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Expose and not self._fired:
            self._fired = True
            QTimer.singleShot(0, self._callback)
        return False


def on_first_paint(window: QWidget, callback: Callable[[], object]) -> None:
    """Call ``callback`` on the GUI thread right after ``window``'s first paint.
    Call before ``window.show()``."""
    window.winId()  # create the native window now, so it can be watched
    handle = window.windowHandle()
    assert handle is not None
    handle.installEventFilter(_ExposeWatch(callback, window))
