"""Garbage collection only on the GUI thread.

Python's cyclic collector runs in whichever thread happens to allocate when a
threshold is crossed: the engine thread, an executor thread. If a cycle holding a Qt
widget (a dialog and the lambda connected to its own signal) is collected there,
PySide deletes the widget from that thread; its timers cannot be unregistered from
another thread and later fire on freed memory (a segfault in
``QApplication::notify``, seen in the GUI tests). So automatic collection is
switched off and a GUI-thread timer collects instead.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

#: young generations often (cheap); a full collection every FULL_EVERY ticks
INTERVAL_MS = 1000
FULL_EVERY = 30


class GuiThreadCollector(QObject):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ticks = 0
        self._timer = QTimer(self)
        self._timer.setInterval(INTERVAL_MS)
        self._timer.timeout.connect(self.collect)

    def start(self) -> None:
        gc.disable()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        self.collect(full=True)
        gc.enable()

    def collect(self, full: bool = False) -> None:
        self._ticks += 1
        gc.collect(2 if full or self._ticks % FULL_EVERY == 0 else 1)
