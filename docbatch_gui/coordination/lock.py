"""One local worker per data directory.

The GUI and a CLI ``process --wait`` may run at once on the same data directory; the
one holding this lock processes jobs, the other is refused it and just watches the
store. The lock is a kernel lock (``system.locks``: ``flock`` on POSIX, ``msvcrt``'s
on Windows), which the kernel drops when its holder dies, however it dies, so a
crashed holder never blocks the next worker; a soft lock file would outlive it.
"""

from __future__ import annotations

import logging
from pathlib import Path
from types import TracebackType
from typing import Self

from filelock import Timeout

from docbatch_gui.system.locks import process_lock

log = logging.getLogger(__name__)


class HeldLock:
    """``with lock:`` for the worker lock and the team's leader lock alike: acquire
    on the way in, release on the way out (``acquire`` may not get it: check
    ``held``)."""

    def acquire(self) -> bool:
        raise NotImplementedError

    def release(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()


class WorkerLock(HeldLock):
    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / "worker.lock"
        self._lock = process_lock(self.path)
        self._refused = False

    def acquire(self) -> bool:
        """Take the lock without waiting; False while another process holds it."""
        if self._lock.is_locked:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._lock.acquire(timeout=0)
        except Timeout:
            if not self._refused:  # said once: a watcher asks again every few seconds
                self._refused = True
                log.info(
                    "%s is held by another DocBatch process on this data folder (the window, or "
                    "another docbatch command): that one processes the jobs, this one watches them"
                    " until it exits",
                    str(self.path),
                )
            return False
        self._refused = False
        return True

    def release(self) -> None:
        if self._lock.is_locked:
            self._lock.release(force=True)

    @property
    def held(self) -> bool:
        return self._lock.is_locked
