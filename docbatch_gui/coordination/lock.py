"""One local worker per data directory.

The GUI and a CLI ``process --wait`` may run at once on the same data directory; the
one holding this lock processes jobs, the other just watches the store. The kernel
drops the lock when its holder dies, however it dies.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType


class WorkerLock:
    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / "worker.lock"
        self._fd: int | None = None

    def acquire(self) -> bool:
        if self._fd is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def __enter__(self) -> WorkerLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
