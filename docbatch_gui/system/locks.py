"""A kernel file lock, dropped by the kernel when its holder dies however it dies.

``filelock.FileLock`` takes ``flock`` on POSIX and ``msvcrt.locking`` on Windows; a
lock file that merely exists would outlive a crashed holder and block the next one.
"""

from __future__ import annotations

from pathlib import Path

from filelock import BaseFileLock, FileLock, Timeout

__all__ = ["LockTaken", "process_lock"]

#: raised by ``acquire(timeout=...)`` when another holder keeps the lock that long
LockTaken = Timeout


def process_lock(path: Path) -> BaseFileLock:
    """The lock on ``path`` (created private), shared by the threads of this process:
    the GUI takes it in a worker thread and frees it on close."""
    return FileLock(path, mode=0o600, thread_local=False)
