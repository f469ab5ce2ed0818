"""The POSIX side of ``docbatch_gui.system`` (Linux; macOS where it has the call).

A child starts a session of its own, so its process group holds it and everything
it spawns, and ``killpg`` ends them all. On Linux the kernel kills a child when its
parent dies (``PR_SET_PDEATHSIG``), and ``RLIMIT_AS`` caps its address space.
Imports nothing heavy at module level: the calamine child must start in a fraction
of a second.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import resource
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import psutil

assert sys.platform != "win32"  # mypy --platform win32 skips this module

_PR_SET_PDEATHSIG = 1
PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600
#: F_SETPIPE_SZ, Linux's fcntl to resize a pipe
_PIPE_SIZE_SUPPORTED = sys.platform.startswith("linux")


def linux() -> bool:
    return sys.platform.startswith("linux")


# -- the parent's side -------------------------------------------------------------


def group_options() -> dict[str, Any]:
    """Keyword arguments of ``subprocess.Popen`` / ``create_subprocess_exec`` that start
    the child in a session (so a process group) of its own."""
    return {"start_new_session": True}


def adopt(pid: int) -> None:
    """Nothing to do: the child's group id is its pid."""


def forget(pid: int) -> None:
    """Nothing to release: a process group is no handle."""


def kill_tree(pid: int) -> None:
    """SIGKILL the whole group led by ``pid``; a group already gone is no error."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def tree_members(pid: int) -> list[int]:
    """Live processes of the group led by ``pid``: a killed child stays a zombie until
    it is reaped, and a zombie no longer runs, so it does not count."""
    gone = (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD)
    members = []
    for other in psutil.pids():
        try:
            if os.getpgid(other) == pid and psutil.Process(other).status() not in gone:
                members.append(other)
        except (ProcessLookupError, psutil.Error):  # ended meanwhile
            continue
    return members


def killed_by_system(returncode: int | None) -> bool:
    """A SIGKILL nobody here sent is most often the kernel's out-of-memory killer."""
    return returncode == -signal.SIGKILL


def kill_self() -> NoReturn:
    """End this process at once, as a power cut would: no cleanup runs."""
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable: SIGKILL cannot be caught")


# -- the child's side --------------------------------------------------------------


def die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent dies; elsewhere the parent's
    ``atexit`` still kills its children on a normal exit."""
    if not linux():
        return

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def can_cap_memory() -> bool:
    return linux()


def cap_memory(extra: int) -> int | None:
    """Limit the address space to what the process has now plus ``extra`` bytes; the
    limit set, or None where it cannot be (not Linux, or ``extra`` is 0)."""
    if not linux() or extra <= 0:
        return None

    with open("/proc/self/statm") as statm:
        size = int(statm.read().split()[0]) * resource.getpagesize()
    limit = size + extra
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ValueError, OSError):  # a lower hard limit set from outside stays
        return None
    return limit


def subprocess_options() -> dict[str, Any]:
    """What a child adds to the processes it starts itself (Tesseract) so that they die
    with it: on Linux, the same death signal."""
    return {"preexec_fn": die_with_parent} if linux() else {}


def widen_pipe(fd: int, size: int) -> None:
    """Ask for a pipe of ``size`` bytes (Linux; elsewhere the default stays)."""
    if not _PIPE_SIZE_SUPPORTED:
        return

    with contextlib.suppress(OSError, AttributeError):
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, size)


def peak_rss_mb() -> float:
    """This process's peak resident memory in MB (``ru_maxrss``: KB on Linux, bytes on
    macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (2**20 if sys.platform == "darwin" else 1024), 1)


def lowest_thread_priority() -> None:
    """The calling thread at the lowest priority (Linux: a thread has a priority)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)


# -- privacy -----------------------------------------------------------------------


def make_private(path: Path) -> None:
    """Owner-only permissions: ``0700`` for a folder, ``0600`` for a file."""
    os.chmod(path, PRIVATE_DIR if path.is_dir() else PRIVATE_FILE)


def _umask() -> int:
    current = os.umask(0o022)  # read by setting it back at once
    os.umask(current)
    return current


_SHARED_FILE = 0o666 & ~_umask()


def make_shared(path: Path) -> None:
    """The mode an ordinary new file gets (``0666`` less the umask): a file made by
    ``mkstemp`` (``0600``) that the operator shares, such as an export."""
    os.chmod(path, _SHARED_FILE)


def exposure(path: Path) -> str | None:
    """What lets other users in, as the octal mode; None when only the owner can."""
    mode = stat.S_IMODE(path.lstat().st_mode)
    return f"{mode:o}" if mode & 0o077 else None


def privacy_fix(folder: Path) -> str:
    """The command that makes ``folder`` private again."""
    return f"chmod -R go-rwx {folder}"


@contextlib.contextmanager
def stop_on_signals(loop: Any, stop: Callable[[], object]) -> Iterator[None]:
    """SIGINT and SIGTERM call ``stop`` on ``loop`` (the loop's own signal handlers)."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop)
    try:
        yield
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
