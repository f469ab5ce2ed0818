"""A debounced background computation where only the latest request counts: the
wizard's preview and the rules page's estimate."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from docbatch_gui._qt.language import error_text
from docbatch_gui._qt.tasks import spawn
from docbatch_gui.domain.errors import DocBatchError

log = logging.getLogger(__name__)

#: quiet time after the last change before a preview or an estimate runs
DEBOUNCE_MS = 300


class LatestRunner(QObject):
    """Debounced background computation where only the latest request counts.

    ``make()`` runs on the GUI thread (it reads widgets and may raise a config error)
    and returns the callable for the worker thread. One computation runs at a time; a
    request arriving meanwhile runs once the current one is done, and the stale answer
    is dropped, so typing in a spin box never queues a pile of full-sheet reads.
    """

    ready = Signal(object)
    failed = Signal(str)

    def __init__(self, make: Callable[[], Callable[[], Any]], parent: QObject | None = None):
        super().__init__(parent)
        self._make = make
        self._requested = 0
        self._running = False
        self._stopped = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._fire)
        self._scheduled = False

    @property
    def busy(self) -> bool:
        return self._running or self._scheduled or self._timer.isActive()

    def _fire(self) -> None:
        self._scheduled = True
        spawn(self._run())

    def stop(self) -> None:
        """Forget pending requests (the wizard is closing)."""
        self._timer.stop()
        self._stopped = True
        self._requested += 1  # a computation in flight is now stale: not shown

    def request(self, now: bool = False) -> None:
        self._stopped = False
        self._requested += 1
        self._timer.start(0 if now else DEBOUNCE_MS)

    async def _run(self) -> None:
        self._scheduled = False
        if self._running:
            return  # the running loop below picks the new request up
        self._running = True
        try:
            while True:
                wanted = self._requested
                try:
                    job = self._make()
                    result = await asyncio.to_thread(job)
                except (DocBatchError, ValueError, OSError) as exc:
                    if wanted == self._requested:
                        self.failed.emit(error_text(exc))
                else:
                    if wanted == self._requested:
                        self.ready.emit(result)
                if wanted == self._requested or self._stopped:
                    break
        finally:
            self._running = False
