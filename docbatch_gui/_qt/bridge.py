"""The engine host's news, carried to the GUI thread as Qt signals.

The engine runs in its own thread (``app.host.EngineHost``); its listeners are called
there. Updates are coalesced: the job listener only records the newest state of each
job, and the GUI takes them in one batch at most every ``FLUSH_MS``, so 1,000 jobs
updating their progress cost one model update.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QObject, QTimer, Signal

from docbatch_gui._qt.language import interface_language
from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.app.host import EngineHost, EngineState
from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.models import Job
from docbatch_gui.engine.job_log import ENDED_BADLY

FLUSH_MS = 100
#: jobs handed to the window in one turn of its event loop: applying a job to the
#: queue's model (and its filter) costs the GUI thread about 40 µs, so a turn of 200
#: is under 10 ms; a bigger batch goes in slices, the event loop running in between
#: (a batch of 500 in one turn was the window's worst stall, 30 ms)
FLUSH_SLICE = 200
T = TypeVar("T")


class EngineBridge(QObject):
    #: list[Job]: the newest state of every job that changed since the last batch
    jobs_changed = Signal(list)
    #: EngineState's value: running, paused, halted, draining or stopped
    engine_state = Signal(str)
    #: the text of a critical error (auth, billing) that stopped the queue
    halted = Signal(str)

    def __init__(self, host: EngineHost, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self._pending: dict[int, Job] = {}
        self._pending_lock = threading.Lock()
        #: each job's last failed attempt: the worker requeues it at once (clearing its
        #: error), so the batch the window gets rarely shows the failure itself
        self._failures: dict[int, Message] = {}
        self._gui_loop: asyncio.AbstractEventLoop | None = None
        self._flush_armed = False
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(FLUSH_MS)
        self._flush_timer.timeout.connect(self._flush)
        host.add_job_listener(self._on_job)
        host.add_state_listener(self._on_state)

    @property
    def app(self) -> DocBatchApp:
        """The host's facade of the moment (new settings open a new one)."""
        return self.host.app

    # -- life cycle -----------------------------------------------------------------------

    def start(self) -> None:
        with contextlib.suppress(RuntimeError):  # no loop: news is flushed on publish
            self._gui_loop = asyncio.get_running_loop()
        self.host.start()

    @property
    def running(self) -> bool:
        return self.host.running

    # -- calls into the engine thread ----------------------------------------------------------

    async def call(self, func: Callable[..., T], *args: Any) -> T:
        """Run a blocking facade or host call off the GUI thread and await its result."""
        return await asyncio.to_thread(func, *args)

    # -- news from the engine thread ---------------------------------------------------------

    def _on_state(self, state: EngineState) -> None:
        halted = self.host.halted
        # worded in the interface language, from its code when it has one
        text = halted.words(interface_language()) if halted is not None else ""
        self._to_gui(self._state_changed, state, text)

    def _state_changed(self, state: EngineState, message: str) -> None:
        self.engine_state.emit(state.value)
        if state is EngineState.HALTED:
            self.halted.emit(message)

    def _on_job(self, job: Job) -> None:
        with self._pending_lock:
            self._pending[job.id] = job
            if job.state in ENDED_BADLY and (failure := job.error_message) is not None:
                self._failures[job.id] = failure
            arm = not self._flush_armed
            self._flush_armed = True
        if arm:
            self._to_gui(self._arm_flush)

    def last_failure(self, job_id: int) -> Message | None:
        """Why the job's last attempt failed, if it failed while the window watched."""
        with self._pending_lock:
            return self._failures.get(job_id)

    def _to_gui(self, func: Callable[..., Any], *args: Any) -> None:
        loop = self._gui_loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(func, *args)

    def _arm_flush(self) -> None:
        if not self._flush_timer.isActive():
            self._flush_timer.start()

    def _flush(self) -> None:
        """Hand the oldest ``FLUSH_SLICE`` changed jobs to the window; the rest in the
        next turn of the event loop (a job changed again meanwhile is sent as it is
        then: the pending table keeps only its newest state)."""
        batch, more = self._take(FLUSH_SLICE)
        if more:
            QTimer.singleShot(0, self, self._flush)
        if batch:
            self.jobs_changed.emit(batch)

    def _take(self, limit: int | None) -> tuple[list[Job], bool]:
        """The oldest ``limit`` pending jobs (all with None), and whether more wait."""
        with self._pending_lock:
            ids = list(itertools.islice(self._pending, limit))
            batch = [self._pending.pop(job_id) for job_id in ids]
            more = bool(self._pending)
            self._flush_armed = more
        return batch, more

    def publish(self, jobs: list[Job]) -> None:
        """Jobs changed by the GUI itself (added, retried): shown in the same batches."""
        for job in jobs:
            self._on_job(job)
        if self._gui_loop is None:  # no event loop to slice over: all at once
            batch, _more = self._take(None)
            if batch:
                self.jobs_changed.emit(batch)
