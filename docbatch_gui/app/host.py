"""The engine host: one object owns the facade, the engine thread and its state.

The GUI used to run this life cycle itself (a drain flag on the facade, polling for
running jobs, swapping the facade in several places); here it is in one place, with
no Qt, so it can be tested headless and every caller gets the same rules:

- ``drain`` stops taking new jobs and lets the running ones finish (a batch already
  with Anthropic is at a safe point), then the engine thread ends;
- ``stop`` ends at once (interrupted steps resume on the next start);
- ``restart(settings)`` drains, opens a new facade on the new settings (the queue is
  in the store, so it is kept) and starts again;
- ``pause`` and ``resume`` set the stored flag the CLI shares; ``resume`` also wakes
  an engine that a critical error (auth, billing) stopped, so it takes jobs again.

The engine runs in its own thread with its own asyncio loop: the worker writes to
the store and hashes page images between awaits, which the GUI thread would feel.
Listeners are called from whichever thread changed the state; a GUI hands their news
to its own thread.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading
from collections.abc import Callable
from enum import StrEnum

from docbatch_gui.app.facade import DocBatchApp, first_of
from docbatch_gui.app.mailing import MailService
from docbatch_gui.app.watching import WatchService
from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import RECOVERABLE_STATES, JobState
from docbatch_gui.engine.job_log import log_halt
from docbatch_gui.engine.worker import JobListener
from docbatch_gui.pipeline.isolate import kill_all
from docbatch_gui.settings.model import Settings

log = logging.getLogger(__name__)

#: how often the stored pause flag is read while the engine runs (the CLI may flip it)
FLAG_POLL_S = 2.0
#: how long ``start`` waits for the engine thread's loop to exist
START_TIMEOUT_S = 5.0


class EngineState(StrEnum):
    RUNNING = "running"
    #: the operator's pause flag: running steps finish, no new job starts
    PAUSED = "paused"
    #: a critical error stopped the queue; ``resume`` (or new settings) starts it again
    HALTED = "halted"
    #: no new job starts; the engine ends once the running ones finished
    DRAINING = "draining"
    STOPPED = "stopped"


StateListener = Callable[[EngineState], None]


class EngineHost:
    def __init__(
        self, app: DocBatchApp, *, open_app: Callable[[Settings], DocBatchApp] = DocBatchApp
    ) -> None:
        #: the facade; replaced by ``restart``, so read it here each time
        self.app = app
        self._open_app = open_app
        self._state = EngineState.STOPPED
        self._state_lock = threading.Lock()
        #: serialises start, stop and restart (a second Save waits for the first)
        self._life = threading.RLock()
        self._state_listeners: list[StateListener] = []
        self._job_listeners: list[JobListener] = []
        #: queued jobs announced while nothing was claimed (``_announce_waiting``)
        self._announced: set[int] = set()
        #: passes of the flag watcher (every FLAG_POLL_S on the engine's loop): what a
        #: test of "nothing starts while halted" waits on, not a clock
        self.flag_polls = 0
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._drain: asyncio.Event | None = None
        self._wake: asyncio.Event | None = None
        self._ready = threading.Event()
        self._drained: concurrent.futures.Future[bool] = concurrent.futures.Future()
        #: the watched folders of the settings, while the engine runs
        self.watching: WatchService | None = None
        #: the mailbox of the settings (MAIL_HOST), checked while the engine runs
        self.mailing: MailService | None = None

    @classmethod
    def for_settings(cls, settings: Settings) -> EngineHost:
        return cls(DocBatchApp(settings))

    # -- observing ----------------------------------------------------------------------

    @property
    def state(self) -> EngineState:
        return self._state

    @property
    def halted(self) -> DocBatchError | None:
        """The critical error that stopped the queue, while it is stopped by one."""
        return self.app.halted if self._state is EngineState.HALTED else None

    @property
    def running(self) -> bool:
        """The engine thread is alive (running, paused, halted or draining)."""
        return self._thread is not None and self._thread.is_alive()

    def add_state_listener(self, listener: StateListener) -> None:
        self._state_listeners.append(listener)

    def add_job_listener(self, listener: JobListener) -> None:
        """Every job change the engine makes; kept across restarts."""
        self._job_listeners.append(listener)

    def active_jobs(self) -> int:
        """Jobs a local worker is in the middle of (what closing would interrupt)."""
        return len(self.app.store.list_jobs(states=RECOVERABLE_STATES))

    def _set_state(self, state: EngineState, *, only_from: set[EngineState] | None = None) -> None:
        with self._state_lock:
            if self._state is state or (only_from is not None and self._state not in only_from):
                return
            self._state = state
        log.info("engine %s", state.value)
        for listener in list(self._state_listeners):
            try:
                listener(state)
            except Exception:  # a display problem must never stop the engine
                log.error("engine state listener failed", exc_info=True)

    def _on_job(self, job: Job) -> None:
        for listener in list(self._job_listeners):
            listener(job)  # LocalWorker.emit logs a listener's failure

    # -- life cycle ---------------------------------------------------------------------

    def start(self) -> None:
        """Start the engine thread (nothing happens if it runs)."""
        with self._life:
            if self.running:
                return
            self._ready.clear()
            self._drained = concurrent.futures.Future()
            self._thread = threading.Thread(target=self._thread_main, name="docbatch-engine")
            self._thread.daemon = True
            self._thread.start()
            if not self._ready.wait(START_TIMEOUT_S):
                log.warning("the engine thread did not start in %s s", START_TIMEOUT_S)
            self._start_watching()

    def _start_watching(self) -> None:
        if self.watching is None and self.app.settings.watched_folders:
            # the jobs it makes reach the listeners at once (a duplicate, final as it
            # is made, would reach none: no worker takes it)
            self.watching = WatchService(self.app, on_job=self._on_job)
            self.watching.start()
        if self.mailing is None and self.app.settings.mail_configured:
            self.mailing = MailService(self.app)
            self.mailing.start()

    def _stop_watching(self) -> None:
        watching, self.watching = self.watching, None
        if watching is not None:
            watching.stop()
        mailing, self.mailing = self.mailing, None
        if mailing is not None:
            mailing.stop()

    def drain(self, timeout: float | None = None) -> bool:
        """Take no new job, let the running ones finish, end the engine thread.

        Blocks; True once drained, False if ``timeout`` passed first (the engine keeps
        draining) or ``stop`` interrupted it.
        """
        try:
            return self.begin_drain().result(timeout)
        except concurrent.futures.TimeoutError:
            return False

    async def drained(self, timeout: float | None = None) -> bool:
        """``drain`` for a coroutine: awaits without blocking its loop."""
        future = asyncio.wrap_future(self.begin_drain())
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except TimeoutError:
            return False

    def begin_drain(self) -> concurrent.futures.Future[bool]:
        """Ask for a drain; the future is resolved when the engine has ended (state
        STOPPED), True if the running jobs finished, False if ``stop`` cut them off."""
        with self._life:
            if not self.running:
                done: concurrent.futures.Future[bool] = concurrent.futures.Future()
                done.set_result(True)  # nothing runs
                return done
            if not self._drained.done():
                self._set_state(EngineState.DRAINING)
                self._signal(self._drain)
            return self._drained

    def stop(self, timeout: float = 30) -> bool:
        """Stop at once: running steps are interrupted and their jobs go back to the
        queue on the next start. True when the engine thread ended in time."""
        with self._life:
            self._stop_watching()
            thread = self._thread
            if thread is None:
                self._set_state(EngineState.STOPPED)
                return True
            self._signal(self._stop)
            thread.join(timeout)
            alive = thread.is_alive()
            if alive:
                log.warning("the engine did not stop in %s s; killing its children", timeout)
            kill_all()
            self._thread = None
            self._resolve_drained(False)
            self._set_state(EngineState.STOPPED)
            return not alive

    def restart(self, settings: Settings) -> None:
        """Run the engine on new settings without interrupting anyone's work: drain,
        open a new facade on them, close the old one, start again."""
        with self._life:
            was_running = self.running
            self._stop_watching()  # new settings may list other folders
            self.drain()
            self.stop()
            old, self.app = self.app, self._open_app(settings)
            old.close()
            if was_running:
                self.start()

    def close(self) -> None:
        """Stop the engine and close the facade (the end of the program)."""
        self.stop()
        self.app.close()

    # -- the operator's flag --------------------------------------------------------------

    def pause(self) -> None:
        """No new job starts (here and in any process sharing the store)."""
        self.app.set_paused(True)
        self._set_state(EngineState.PAUSED, only_from={EngineState.RUNNING})

    def resume(self) -> None:
        """Clear the pause flag and wake the engine: after a critical error stopped the
        queue (the setting fixed, say), it takes the next job at once."""
        self.app.set_paused(False)
        self._set_state(EngineState.RUNNING, only_from={EngineState.PAUSED, EngineState.HALTED})
        self._signal(self._wake)

    def _flag_state(self) -> None:
        """RUNNING or PAUSED, as the stored flag says; other states are left alone."""
        try:
            paused = self.app.is_paused()
        except DocBatchError as exc:  # a busy or broken store: say so, try again later
            log.warning("could not read the pause flag: %s", exc)
            return
        state = EngineState.PAUSED if paused else EngineState.RUNNING
        self._set_state(state, only_from={EngineState.RUNNING, EngineState.PAUSED})

    # -- the engine thread ----------------------------------------------------------------

    def _signal(self, event: asyncio.Event | None) -> None:
        loop = self._loop
        if loop is not None and event is not None:
            with contextlib.suppress(RuntimeError):  # the loop has just ended
                loop.call_soon_threadsafe(event.set)

    def _resolve_drained(self, drained: bool) -> None:
        with contextlib.suppress(concurrent.futures.InvalidStateError):
            self._drained.set_result(drained)

    def _thread_main(self) -> None:
        drained = False
        try:
            drained = asyncio.run(self._engine_main())
        except Exception:
            log.error("the engine thread ended with an error", exc_info=True)
        finally:
            if threading.current_thread() is self._thread:  # not one given up on
                self._loop = None
                self._set_state(EngineState.STOPPED)
                self._resolve_drained(drained)

    async def _engine_main(self) -> bool:
        """The engine loop; True when it ended by a drain (not by ``stop``)."""
        self._loop = asyncio.get_running_loop()
        stop, drain, wake = self._stop, self._drain, self._wake = (
            asyncio.Event(),
            asyncio.Event(),
            asyncio.Event(),
        )
        self._set_state(EngineState.RUNNING, only_from={EngineState.STOPPED})
        self._flag_state()
        self._ready.set()
        watcher = asyncio.create_task(self._watch_flag(stop))
        try:
            while not stop.is_set() and not drain.is_set():
                self._set_state(EngineState.RUNNING, only_from={EngineState.HALTED})
                self._flag_state()
                await self.app.run(None, self._on_job, once=False, stop=stop, drain=drain)
                if stop.is_set() or drain.is_set() or self.app.halted is None:
                    continue
                # Auth or billing: queued jobs stay queued until the operator acts.
                log_halt(self.app.halted.text)
                wake.clear()
                self._set_state(EngineState.HALTED)
                await first_of(stop, wake, drain)
            return drain.is_set() and not stop.is_set()
        finally:
            watcher.cancel()

    async def _watch_flag(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await first_of(stop, timeout=FLAG_POLL_S)
            self._flag_state()
            self._announce_waiting()
            self.flag_polls += 1

    def _announce_waiting(self) -> None:
        """While nothing is claimed (paused, or stopped by a critical error), a job
        another process queued (``docbatch process``) reaches no listener: the worker
        would announce it when it takes it. So the queued jobs are announced here, each
        once, and the window shows them before Resume."""
        if self.state not in (EngineState.PAUSED, EngineState.HALTED):
            self._announced.clear()
            return
        try:
            queued = self.app.store.list_jobs(states=[JobState.QUEUED])
        except DocBatchError as exc:  # a busy store: try again at the next poll
            log.warning("could not read the queue: %s", exc)
            return
        for job in queued:
            if job.id not in self._announced:
                self._announced.add(job.id)
                self._on_job(job)
