"""The one way to make the GUI's event loop.

Two things differ from a plain ``qasync.QEventLoop``:

- ``call_soon_threadsafe`` (how every executor thread and the engine thread hand
  results to the GUI) does not emit qasync's ``Signal(object, tuple)``. With PySide6
  6.12 that emission leaks a reference per call and aborts the process after a few
  thousand calls ("bool_dealloc"; reproduced with 50 executor calls and a timeout,
  200 times). Callbacks go into a deque instead, and a plain ``QEvent`` posted to a
  GUI-thread object (``postEvent`` is thread-safe and carries no Python payload)
  wakes the loop to run them.
- Blocking facade calls get a small plain thread pool, not qasync's default of ten
  QThreads competing with the engine for an office PC's two cores; closing waits for
  it, so no thread hands a result to a loop that is gone.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextvars import Context
from typing import Any, TypeVar

import qasync
from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtWidgets import QApplication

#: store reads, thumbnails, connection tests: short and I/O bound
IO_THREADS = 4
WAKE = QEvent.Type(QEvent.registerEventType())
T = TypeVar("T")


class _Waker(QObject):
    """Lives on the GUI thread; a posted WAKE event runs the queued callbacks there."""

    def __init__(self, drain: Callable[[], None]) -> None:
        super().__init__()
        self._drain = drain

    def event(self, event: QEvent) -> bool:
        if event.type() == WAKE:
            self._drain()
            return True
        return super().event(event)


class GuiLoop(qasync.QEventLoop):
    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self._io = ThreadPoolExecutor(max_workers=IO_THREADS, thread_name_prefix="docbatch-io")
        self.set_default_executor(self._io)
        self._handoff: deque[tuple[Callable[..., Any], tuple[Any, ...], Context | None]] = deque()
        self._wake_lock = threading.Lock()
        self._wake_posted = False
        self._waker = _Waker(self._run_handoff)

    def call_soon_threadsafe(
        self, callback: Callable[..., Any], *args: Any, context: Context | None = None
    ) -> None:
        self._handoff.append((callback, args, context))
        with self._wake_lock:
            if self._wake_posted:
                return
            self._wake_posted = True
        QCoreApplication.postEvent(self._waker, QEvent(WAKE))

    def _run_handoff(self) -> None:
        with self._wake_lock:
            self._wake_posted = False
        while self._handoff and not self.is_closed():
            callback, args, context = self._handoff.popleft()
            self.call_soon(callback, *args, context=context)

    def close(self) -> None:
        if not self.is_closed():
            self._io.shutdown(wait=True, cancel_futures=True)
        super().close()


def make_loop(app: QApplication) -> GuiLoop:
    return GuiLoop(app)


def resolve(future: asyncio.Future[T], value: T) -> None:
    """Set a future's result unless it is done already (a signal may fire twice)."""
    if not future.done():
        future.set_result(value)
