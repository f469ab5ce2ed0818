"""Run a step in a child process with a deadline, and kill its whole process group.

Seed 004: a timeout has three parts. Stop waiting; stop the work (the whole process
tree, not just the direct child, and confirm it is gone); mark the partial output
undeliverable. This module does the first two and reports whether the kill was
confirmed; the engine does the third.

Each child starts its own session (``start_new_session``), so its process group
holds it and everything it spawns. Children also ask the kernel to kill them when
the parent dies, and ``kill_all`` runs at exit: no process is left behind.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import logging
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

_LIVE_GROUPS: set[int] = set()
STDERR_TAIL = 4096
LINE_LIMIT = 64 * 1024 * 1024  # a page's text layer can be large
EXIT_GRACE = 1.0  # seconds to drain lines after the child exited
POLL = 0.25
FINISH_GRACE = 10.0  # seconds a child may take to exit after its last message


class DeadlineExceeded(Exception):
    """The child ran past its deadline; it has been killed."""

    def __init__(self, termination_confirmed: bool) -> None:
        super().__init__("deadline exceeded")
        self.termination_confirmed = termination_confirmed


class ChildCrashed(Exception):
    """The child ended without finishing its protocol (crash, OOM kill, signal)."""


def _group_members(pgid: int) -> list[int]:
    """Live (non-zombie) processes in a group, from /proc; Linux only."""
    members = []
    proc = Path("/proc")
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # the command name may hold spaces or parentheses: split after the last ')'
        fields = stat[stat.rfind(")") + 2 :].split()
        state, group = fields[0], int(fields[2])
        if group == pgid and state not in ("Z", "X"):
            members.append(int(entry.name))
    return members


def group_alive(pgid: int) -> bool:
    if Path("/proc/self/stat").exists():
        return bool(_group_members(pgid))
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def kill_group(pgid: int, *, confirm_within: float = 5.0) -> bool:
    """SIGKILL the whole group and wait until no member is left; True if confirmed."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
    end = time.monotonic() + confirm_within
    while time.monotonic() < end:
        if not group_alive(pgid):
            _LIVE_GROUPS.discard(pgid)
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


@dataclass
class ChildRun:
    """A running child speaking the JSON-lines protocol, with a monotonic deadline."""

    module: str
    payload: dict[str, Any]
    deadline: float  # time.monotonic() value
    process: asyncio.subprocess.Process | None = None
    stderr_tail: bytearray = field(default_factory=bytearray)
    termination_confirmed: bool | None = None
    _stderr_task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            self.module,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
            limit=LINE_LIMIT,
        )
        _LIVE_GROUPS.add(self.process.pid)
        self._stderr_task = asyncio.create_task(self._drain_stderr())
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(self.payload).encode())
        await self.process.stdin.drain()
        self.process.stdin.close()

    async def _drain_stderr(self) -> None:
        assert self.process and self.process.stderr
        while chunk := await self.process.stderr.read(65536):
            self.stderr_tail += chunk
            del self.stderr_tail[:-STDERR_TAIL]

    async def messages(self) -> AsyncIterator[dict[str, Any]]:
        """Yield protocol messages until EOF; raise DeadlineExceeded past the deadline.

        EOF alone is not enough: a grandchild that outlives the child keeps the pipe
        open. So the child's exit also ends the stream, after a short grace period for
        lines still in flight. (``Process.wait()`` waits for the pipes too, so the exit
        is read from ``returncode``.)
        """
        assert self.process and self.process.stdout
        stdout = self.process.stdout
        read: asyncio.Future[bytes] | None = None
        exited_at: float | None = None
        try:
            while True:
                now = time.monotonic()
                if now >= self.deadline:
                    raise DeadlineExceeded(await self.kill())
                if self.process.returncode is not None and exited_at is None:
                    exited_at = now
                if exited_at is not None and now - exited_at > EXIT_GRACE:
                    return
                read = read or asyncio.ensure_future(stdout.readline())
                done, _ = await asyncio.wait({read}, timeout=min(self.deadline - now, POLL))
                if not done:
                    continue
                line, read = read.result(), None
                if not line:
                    return
                yield json.loads(line)
        finally:
            if read is not None:
                read.cancel()

    async def finish(self) -> int:
        """Wait for a child that closed its stream; kill it if it lingers."""
        assert self.process
        end = time.monotonic() + FINISH_GRACE
        while self.process.returncode is None and time.monotonic() < end:
            await asyncio.sleep(0.02)
        if self.process.returncode is None:
            await self.kill()
            return -signal.SIGKILL
        await self._close()  # also kills anything the child left in its group
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.process.wait(), timeout=5)
        return self.process.returncode

    async def kill(self) -> bool:
        assert self.process
        pgid = self.process.pid
        confirmed = await asyncio.to_thread(kill_group, pgid)
        with contextlib.suppress(ProcessLookupError):
            await asyncio.wait_for(self.process.wait(), timeout=5)
        await self._close()
        self.termination_confirmed = confirmed
        return confirmed

    async def _close(self) -> None:
        if self.process is not None:
            if not group_alive(self.process.pid):
                _LIVE_GROUPS.discard(self.process.pid)
            else:
                # The direct child ended but something it spawned lives on: kill it.
                await asyncio.to_thread(kill_group, self.process.pid)
        if self._stderr_task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._stderr_task, timeout=1)

    def stderr_text(self) -> str:
        return self.stderr_tail.decode("utf-8", "replace").strip()


@contextlib.asynccontextmanager
async def run_child(
    module: str, payload: dict[str, Any], deadline: float
) -> AsyncIterator[ChildRun]:
    """Start a child; whatever happens in the body (error, cancel), the group dies."""
    run = ChildRun(module, payload, deadline)
    await run.start()
    try:
        yield run
    finally:
        assert run.process is not None
        if run.process.returncode is None or group_alive(run.process.pid):
            await run.kill()
