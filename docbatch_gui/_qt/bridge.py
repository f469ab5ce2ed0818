"""The engine runs in its own thread with its own asyncio loop; this bridge carries
its news to the GUI thread.

Why a thread and not the qasync loop itself: the worker writes to SQLite and hashes
page images between awaits. Each step is short, but a thousand of them a second on
the GUI thread would be felt as a stutter. Updates are coalesced: the listener only
records the newest state of each job, and the GUI takes them in one batch at most
every ``FLUSH_MS``, so 1,000 jobs updating their progress cost one model update.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QObject, QTimer, Signal

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.models import Job
from docbatch_gui.pipeline.isolate import kill_all

log = logging.getLogger(__name__)

FLUSH_MS = 100
T = TypeVar("T")


class EngineBridge(QObject):
    #: list[Job]: the newest state of every job that changed since the last batch
    jobs_changed = Signal(list)
    #: "running" while the engine loop runs, "stopped" once it ended
    engine_state = Signal(str)
    #: the text of a critical error (auth, billing) that stopped the queue
    halted = Signal(str)

    def __init__(self, app: DocBatchApp, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self._pending: dict[int, Job] = {}
        self._pending_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._wake: asyncio.Event | None = None
        self._ready = threading.Event()
        self._gui_loop: asyncio.AbstractEventLoop | None = None
        self._flush_armed = False
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(FLUSH_MS)
        self._flush_timer.timeout.connect(self._flush)

    # -- life cycle -----------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            return
        try:
            self._gui_loop = asyncio.get_running_loop()
        except RuntimeError:
            self._gui_loop = None
        self._thread = threading.Thread(target=self._thread_main, name="docbatch-engine")
        self._thread.daemon = True
        self._thread.start()
        self._ready.wait(5)
        self.engine_state.emit("running")

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _thread_main(self) -> None:
        try:
            asyncio.run(self._engine_main())
        except Exception:
            log.exception("the engine thread ended with an error")

    async def _engine_main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        self._wake = asyncio.Event()
        self._ready.set()
        while not self._stop.is_set():
            await self.app.run(None, self._on_job, once=False, stop=self._stop)
            if self.app.halted is not None and not self._stop.is_set():
                self._to_gui(self.halted.emit, str(self.app.halted))
                # Wait for the operator: a new key in Settings, or Resume.
                self._wake.clear()
                waiting = [asyncio.create_task(e.wait()) for e in (self._stop, self._wake)]
                await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                for task in waiting:
                    task.cancel()

    def wake(self) -> None:
        """Start again after a critical error stopped the queue."""
        if self._loop is not None and self._wake is not None:
            self._loop.call_soon_threadsafe(self._wake.set)

    def stop(self, *, timeout: float = 30) -> bool:
        """Stop at once: running steps are interrupted and their jobs go back to the
        queue on the next start. True when the engine thread ended in time."""
        if self._thread is None:
            return True
        if self._loop is not None and self._stop is not None:
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout)
        alive = self._thread.is_alive()
        if alive:
            log.warning("the engine did not stop in %s s; killing its children", timeout)
        kill_all()
        self._thread = None
        self.engine_state.emit("stopped")
        return not alive

    def active_jobs(self) -> int:
        from docbatch_gui.domain.states import RECOVERABLE_STATES

        return len(self.app.store.list_jobs(states=RECOVERABLE_STATES))

    # -- calls into the engine thread ----------------------------------------------------------

    async def call(self, func: Callable[..., T], *args: Any) -> T:
        """Run a blocking facade call off the GUI thread and await its result."""
        return await asyncio.get_running_loop().run_in_executor(None, func, *args)

    # -- news from the engine thread ---------------------------------------------------------

    def _on_job(self, job: Job) -> None:
        with self._pending_lock:
            self._pending[job.id] = job
            arm = not self._flush_armed
            self._flush_armed = True
        if arm:
            self._to_gui(self._arm_flush)

    def _to_gui(self, func: Callable[..., Any], *args: Any) -> None:
        loop = self._gui_loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(func, *args)

    def _arm_flush(self) -> None:
        if not self._flush_timer.isActive():
            self._flush_timer.start()

    def _flush(self) -> None:
        with self._pending_lock:
            batch = list(self._pending.values())
            self._pending.clear()
            self._flush_armed = False
        if batch:
            self.jobs_changed.emit(batch)

    def publish(self, jobs: list[Job]) -> None:
        """Jobs changed by the GUI itself (added, retried): shown in the same batches."""
        for job in jobs:
            self._on_job(job)
        if self._gui_loop is None:
            self._flush()
