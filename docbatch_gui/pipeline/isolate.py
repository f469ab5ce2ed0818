"""Run a step in a child process with a deadline, and kill its whole process group.

A timeout has three parts. Stop waiting; stop the work (the whole process
tree, not just the direct child, and confirm it is gone); mark the partial output
undeliverable. This module does the first two and reports whether the kill was
confirmed; the engine does the third.

Each child starts in a group of its own (``system.processes``: a session on POSIX,
a Job Object on Windows), which holds it and everything it spawns. Children also die
with the parent (``system.bounds``), and ``kill_all`` runs at exit: no process is left
behind.

A child is long-lived: it takes one task at a time as a JSON line on stdin and
answers with messages ending in a terminal event (``done`` or ``error``). A message
is a JSON line with ``payload_bytes``, followed by that many raw bytes. Starting
Python and importing PyMuPDF costs about half a second, more than rendering a
100-page file, so children are reused between tasks and only a killed one is
replaced.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from docbatch_gui.domain.messages import Message
from docbatch_gui.frozen import child_command
from docbatch_gui.system import processes

log = logging.getLogger(__name__)

_LIVE_GROUPS: set[int] = set()
STDERR_TAIL = 4096
LINE_LIMIT = 64 * 1024 * 1024  # a page's text layer can be large
EXIT_GRACE = 1.0  # seconds to drain lines after the child exited
POLL = 0.25
CLOSE_GRACE = 5.0  # seconds a child may take to exit after its stdin closes


def error_of(event: dict[str, Any]) -> Message:
    """The message of a child's ``error`` event: its ``code`` and ``params`` when it
    sent them, else its English ``message`` as it is."""
    if event.get("code"):
        return Message(str(event["code"]), dict(event.get("params") or {}))
    return Message.plain(str(event.get("message", "")))


def note_of(body: object) -> Message | None:
    """A note a child sent as ``{"code", "params"}`` (``child._note``), or None."""
    return Message.from_dict(body) if isinstance(body, dict) else None


class DeadlineExceeded(Exception):
    """The child ran past its deadline; it has been killed."""

    def __init__(self, termination_confirmed: bool) -> None:
        super().__init__("deadline exceeded")
        self.termination_confirmed = termination_confirmed


class ChildStalled(DeadlineExceeded):
    """The child went quiet for longer than its task's stall limit (one page took too
    long) before the overall deadline; it has been killed."""


class ChildCrashed(Exception):
    """The child ended without finishing its protocol (crash, OOM kill, signal)."""


def _how_it_ended(returncode: int | None, last_line: str) -> str:
    """The crash in words: a SIGKILL nobody here sent is most often the kernel's
    out-of-memory killer, and the operator should read that, not "exit code -9"."""
    if processes.killed_by_system(returncode):
        said = "killed by the system (SIGKILL), most likely for lack of memory"
        return f"{said}: {last_line}" if last_line else said
    return last_line or f"exit code {returncode}"


def group_alive(pgid: int) -> bool:
    """Whether a process of the child's group still runs (a zombie does not)."""
    return processes.tree_alive(pgid)


def kill_group(pgid: int, *, confirm_within: float = 5.0) -> bool:
    """Kill the whole group and wait until no member is left; True if confirmed."""
    processes.kill_tree(pgid)
    end = time.monotonic() + confirm_within
    while time.monotonic() < end:
        if not group_alive(pgid):
            _LIVE_GROUPS.discard(pgid)
            processes.forget(pgid)
            return True
        time.sleep(0.01)
    log.error("process group %s survived SIGKILL for %.1fs", pgid, confirm_within)
    return False


def kill_all() -> None:
    """Kill every child group still running; called at exit and on shutdown."""
    for pgid in list(_LIVE_GROUPS):
        kill_group(pgid, confirm_within=2.0)


atexit.register(kill_all)


def live_groups() -> frozenset[int]:
    return frozenset(_LIVE_GROUPS)


TERMINAL_EVENTS = frozenset({"done", "error"})

#: seconds a child may stay quiet between messages: fixed, asked anew after each
#: message, or no limit
StallLimit = float | Callable[[], float | None] | None


class Child:
    """One long-lived child process in its own process group; with ``memory_mb``, its
    address space is capped at its start plus that much (``child_bounds``)."""

    def __init__(self, module: str, memory_mb: int = 0) -> None:
        self.module = module
        self.memory_mb = memory_mb
        self.process: asyncio.subprocess.Process | None = None
        self.tasks_run = 0
        self.termination_confirmed: bool | None = None
        self._stderr_tail = bytearray()
        self._stderr_task: asyncio.Task[None] | None = None
        self._busy = False

    async def start(self) -> Child:
        self.process = await asyncio.create_subprocess_exec(
            *child_command(self.module),  # works from source and in the frozen bundle
            *([str(self.memory_mb)] if self.memory_mb else []),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            limit=LINE_LIMIT,
            **processes.group_options(),
        )
        processes.adopt(self.process.pid)
        _LIVE_GROUPS.add(self.process.pid)
        self._stderr_task = asyncio.create_task(self._drain_stderr())
        return self

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None

    @property
    def reusable(self) -> bool:
        """Alive and between tasks: safe to hand the next task."""
        return self.alive and not self._busy

    async def _drain_stderr(self) -> None:
        assert self.process and self.process.stderr
        while chunk := await self.process.stderr.read(65536):
            self._stderr_tail += chunk
            del self._stderr_tail[:-STDERR_TAIL]

    def stderr_text(self) -> str:
        return self._stderr_tail.decode("utf-8", "replace").strip()

    async def run(
        self, payload: dict[str, Any], deadline: float, *, stall_limit: StallLimit = None
    ) -> AsyncIterator[dict[str, Any]]:
        """Send one task; yield its messages up to and including the terminal one.

        Past ``deadline`` (a ``time.monotonic()`` value) the child's whole group is
        killed and DeadlineExceeded is raised. With ``stall_limit``, the same happens
        (as ChildStalled) when, after the first message, no message follows the
        previous one within that many seconds: one page of a stream that never
        finishes. A callable ``stall_limit`` is asked after each message (the next
        page's time may depend on the time left and the pages to go). If the child
        ends mid-task, ChildCrashed.
        If the caller stops iterating early, the child is mid-task and must be killed
        (``Child.kill``) rather than reused; ``reusable`` says so.
        """
        assert self.process and self.process.stdin and self.process.stdout
        self._busy = True
        self._stderr_tail.clear()
        self.tasks_run += 1
        try:
            self.process.stdin.write(json.dumps(payload).encode() + b"\n")
            await self.process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise ChildCrashed(f"the child had already exited ({exc})") from None
        async for message in self._messages(deadline, stall_limit):
            terminal = message.get("event") in TERMINAL_EVENTS
            if terminal:
                self._busy = False
            yield message
            if terminal:
                return
        tail = self.stderr_text().splitlines()
        with contextlib.suppress(TimeoutError):  # the stream can end before the exit is seen
            await asyncio.wait_for(self.process.wait(), EXIT_GRACE)
        raise ChildCrashed(_how_it_ended(self.process.returncode, tail[-1] if tail else ""))

    async def _messages(
        self, deadline: float, stall_limit: StallLimit = None
    ) -> AsyncIterator[dict[str, Any]]:
        """Lines until EOF or the child's exit; DeadlineExceeded past the deadline.

        EOF alone is not enough: a grandchild that outlives the child keeps the pipe
        open. So the child's exit also ends the stream, after a short grace period for
        lines still in flight. (``Process.wait()`` waits for the pipes too, so the exit
        is read from ``returncode``.)
        """
        assert self.process and self.process.stdout
        stdout = self.process.stdout
        exited_at: float | None = None
        limit = deadline  # the stall limit starts with the first message
        while True:
            now = time.monotonic()
            if now >= limit:
                raise await self._overdue(limit < deadline)
            if self.process.returncode is not None and exited_at is None:
                exited_at = now
            if exited_at is not None and now - exited_at > EXIT_GRACE:
                return
            # The read is awaited here, not in a task of its own: a line already in the
            # buffer costs no loop step. A timed-out read consumes nothing (the stream
            # takes a line only once it is whole), so the next turn reads it again.
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for drops a cancel
            # that comes as the read completes (gh-86296), and the job then rendered on
            # after a stop to the page's deadline
            try:
                async with asyncio.timeout(min(limit - now, POLL)):
                    line = await stdout.readline()
            except TimeoutError:
                continue
            if not line:
                return
            message = json.loads(line)
            size = message.pop("payload_bytes", 0)
            if size:
                try:
                    async with asyncio.timeout(max(limit - time.monotonic(), 0.001)):
                        message["payload"] = await stdout.readexactly(size)
                except TimeoutError:
                    raise await self._overdue(limit < deadline) from None
                except asyncio.IncompleteReadError:
                    return
            yield message
            seconds = stall_limit() if callable(stall_limit) else stall_limit
            if seconds is not None:  # the caller's own time is not the page's
                limit = min(deadline, time.monotonic() + seconds)

    async def _overdue(self, stalled: bool) -> DeadlineExceeded:
        """Kill the group; the exception that says which limit ran out."""
        confirmed = await self.kill()
        return ChildStalled(confirmed) if stalled else DeadlineExceeded(confirmed)

    async def kill(self) -> bool:
        """Kill the whole group and confirm; True when no member is left."""
        if self.process is None:
            return True
        confirmed = await asyncio.to_thread(kill_group, self.process.pid)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.process.wait(), timeout=5)
        await self._stop_drain()
        self.termination_confirmed = confirmed
        return confirmed

    async def close(self) -> None:
        """Ask the child to exit (EOF on stdin); kill its group if it lingers."""
        if self.process is None:
            return
        if self.process.stdin and not self.process.stdin.is_closing():
            self.process.stdin.close()
        end = time.monotonic() + CLOSE_GRACE
        while self.process.returncode is None and time.monotonic() < end:
            await asyncio.sleep(0.02)
        await self.kill()  # also removes anything the child left in its group

    async def _stop_drain(self) -> None:
        if self._stderr_task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._stderr_task, timeout=1)


class ChildPool:
    """Up to ``size`` warm children; a task leases one and gives it back if reusable.

    A child is recycled after ``max_tasks`` tasks, which bounds whatever a library
    leaks over a long day.
    """

    def __init__(self, module: str, size: int, *, max_tasks: int = 200, memory_mb: int = 0) -> None:
        self.module = module
        self.size = size
        self.memory_mb = memory_mb
        self.max_tasks = max_tasks
        self._idle: list[Child] = []
        self._slots = asyncio.Semaphore(size)
        self._all: set[Child] = set()

    async def warm_up(self, count: int | None = None) -> None:
        """Start children ahead of the first task, so imports overlap other work."""
        missing = min(self.size, count or self.size) - len(self._idle)
        children = await asyncio.gather(*(self._spawn() for _ in range(max(0, missing))))
        self._idle.extend(children)

    async def _spawn(self) -> Child:
        child = await Child(self.module, self.memory_mb).start()
        self._all.add(child)
        return child

    @contextlib.asynccontextmanager
    async def lease(self) -> AsyncIterator[Child]:
        async with self._slots:
            child = None
            while self._idle and child is None:
                candidate = self._idle.pop()
                child = candidate if candidate.reusable else None
            child = child or await self._spawn()
            try:
                yield child
            finally:
                if child.reusable and child.tasks_run < self.max_tasks:
                    self._idle.append(child)
                else:
                    self._all.discard(child)
                    await (child.close() if child.reusable else child.kill())

    async def close(self) -> None:
        children, self._idle = list(self._all), []
        self._all.clear()
        await asyncio.gather(*(c.close() for c in children), return_exceptions=True)

    async def __aenter__(self) -> ChildPool:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
