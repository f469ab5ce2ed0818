"""Bounds on result building: how many jobs build at once, and how much source data.

When a Claude batch ends, each finished job's documents are built from its source
file. Doing all of them at once would exhaust memory (a 400 MB scan is opened, split
and re-rendered), so a build holds three limits for its whole duration:

1. a worker slot: at most ``result_workers`` builds at once;
2. a byte budget: the source files being built total at most ``max_concurrent_mb``;
   a file larger than the whole budget runs alone when nothing else is in progress,
   so it is never deadlocked;
3. a slot of its size class: big files go one at a time, small ones four at a time
   (``SIZE_CLASSES``), because memory use grows faster than the file count.

Admission is FIFO-fair: once a waiter is blocked on a shared limit (workers or
bytes), everyone behind it waits too, so a stream of small files cannot starve a big
one. A waiter blocked only on its own size class may be overtaken by other classes;
that class frees up on its own, so it cannot starve either. Grants are handed over
directly to the waiter's future, so nothing can slip in between a release and the
wake-up, and there is no polling.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

MB = 1024 * 1024


@dataclass(frozen=True)
class SizeClass:
    """Files of at least ``min_bytes`` (and below the previous class) share ``capacity``."""

    name: str
    min_bytes: int
    capacity: int


# Checked in order, the first match wins: over 50 MB, 20–50 MB, under 20 MB.
SIZE_CLASSES: tuple[SizeClass, ...] = (
    SizeClass("large", 50 * MB + 1, 1),
    SizeClass("medium", 20 * MB, 2),
    SizeClass("small", 0, 4),
)


def size_class(size_bytes: int) -> SizeClass:
    """The class whose slots a file of ``size_bytes`` takes."""
    return next(c for c in SIZE_CLASSES if size_bytes >= c.min_bytes)


@dataclass(eq=False)
class _Waiter:
    size: int
    cls: SizeClass
    future: asyncio.Future[None]


class ResultLimiter:
    """Admits result builds under the worker, byte-budget and size-class limits."""

    def __init__(self, result_workers: int, max_concurrent_mb: int) -> None:
        if result_workers < 1 or max_concurrent_mb < 1:
            raise ValueError("result_workers and max_concurrent_mb must be at least 1")
        self.result_workers = result_workers
        self.budget_bytes = max_concurrent_mb * MB
        self.in_progress = 0
        self.in_progress_bytes = 0
        self.peak_in_progress = 0
        self.peak_bytes = 0
        self.in_class: dict[str, int] = {c.name: 0 for c in SIZE_CLASSES}
        self._queue: list[_Waiter] = []

    @property
    def waiting(self) -> int:
        return sum(1 for w in self._queue if not w.future.done())

    def snapshot(self) -> dict[str, int]:
        """Current and peak usage, for tests and the GUI's status line."""
        return {
            "in_progress": self.in_progress,
            "in_progress_bytes": self.in_progress_bytes,
            "waiting": self.waiting,
            "peak_in_progress": self.peak_in_progress,
            "peak_bytes": self.peak_bytes,
            **{f"in_progress_{name}": n for name, n in self.in_class.items()},
        }

    @contextlib.asynccontextmanager
    async def admit(self, size_bytes: int) -> AsyncIterator[None]:
        """Wait for all three limits, hold them for the body, then give them back.

        Cancellation while waiting or while holding returns whatever was taken.
        """
        if size_bytes < 0:
            raise ValueError("size_bytes must not be negative")
        waiter = _Waiter(
            size_bytes, size_class(size_bytes), asyncio.get_running_loop().create_future()
        )
        self._queue.append(waiter)
        self._dispatch()
        try:
            await waiter.future
        except BaseException:
            if waiter.future.done() and not waiter.future.cancelled():
                self._release(waiter)  # granted, but cancelled before it could resume
            else:
                self._queue.remove(waiter)
                self._dispatch()  # it may have been the one holding the others back
            raise
        try:
            yield
        finally:
            self._release(waiter)

    def _fits_shared(self, waiter: _Waiter) -> bool:
        if self.in_progress == 0:
            return True  # anything, even a file over the whole budget, may run alone
        return (
            self.in_progress < self.result_workers
            and self.in_progress_bytes + waiter.size <= self.budget_bytes
        )

    def _dispatch(self) -> None:
        """Grant waiters in arrival order until one is blocked on a shared limit."""
        remaining: list[_Waiter] = []
        blocked = False
        for waiter in self._queue:
            if waiter.future.done() or blocked:  # cancelled; its own task removes it
                remaining.append(waiter)
            elif not self._fits_shared(waiter):
                blocked = True  # FIFO: later arrivals must not overtake it
                remaining.append(waiter)
            elif self.in_class[waiter.cls.name] >= waiter.cls.capacity:
                remaining.append(waiter)  # its class frees up on its own; others may pass
            else:
                self._take(waiter)
                waiter.future.set_result(None)
        self._queue = remaining

    def _take(self, waiter: _Waiter) -> None:
        self.in_progress += 1
        self.in_progress_bytes += waiter.size
        self.in_class[waiter.cls.name] += 1
        self.peak_in_progress = max(self.peak_in_progress, self.in_progress)
        self.peak_bytes = max(self.peak_bytes, self.in_progress_bytes)

    def _release(self, waiter: _Waiter) -> None:
        self.in_progress -= 1
        self.in_progress_bytes -= waiter.size
        self.in_class[waiter.cls.name] -= 1
        self._dispatch()
