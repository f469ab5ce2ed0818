"""Live sync-mode counters that the sync client updates from the engine thread and
the GUI reads from its own, hence the lock."""

from __future__ import annotations

import threading
from dataclasses import dataclass


@dataclass(frozen=True)
class SyncSnapshot:
    in_flight: int
    peak_in_flight: int
    max_concurrency: int
    succeeded: int
    failed: int
    retried: int


class SyncMetrics:
    """Live sync-mode counters: the engine thread writes, the GUI thread reads.

    Counts are since the application started (one object per facade), so the
    figures survive the per-run clients the worker creates.
    """

    def __init__(self, max_concurrency: int = 0) -> None:
        self._lock = threading.Lock()
        self.max_concurrency = max_concurrency
        self._in_flight = 0
        self._peak = 0
        self._succeeded = 0
        self._failed = 0
        self._retried = 0

    def sending(self) -> None:
        with self._lock:
            self._in_flight += 1
            self._peak = max(self._peak, self._in_flight)

    def answered(self) -> None:
        with self._lock:
            self._in_flight -= 1

    def outcome(self, ok: bool, attempts: int = 1) -> None:
        """One request settled after ``attempts`` tries (the extra ones are retries)."""
        with self._lock:
            if ok:
                self._succeeded += 1
            else:
                self._failed += 1
            self._retried += max(0, attempts - 1)

    def snapshot(self) -> SyncSnapshot:
        with self._lock:
            return SyncSnapshot(
                self._in_flight,
                self._peak,
                self.max_concurrency,
                self._succeeded,
                self._failed,
                self._retried,
            )
