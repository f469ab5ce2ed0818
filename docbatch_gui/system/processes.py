"""The parent's side of a child process: its own group, and killing all of it.

``pipeline.isolate`` starts each child with ``group_options()``, calls ``adopt`` on
its pid, and on a deadline calls ``kill_tree`` and waits until ``tree_alive`` says
nothing is left. On POSIX the tree is the child's process group (a session of its
own); on Windows it is a Job Object that also dies with this process.
"""

from __future__ import annotations

import sys

import psutil

if sys.platform == "win32":
    from docbatch_gui.system import _windows as _impl
else:
    from docbatch_gui.system import _posix as _impl

__all__ = [
    "adopt",
    "forget",
    "group_options",
    "kill_self",
    "kill_tree",
    "killed_by_system",
    "process_alive",
    "tree_alive",
]


#: keyword arguments for ``subprocess.Popen`` or ``asyncio.create_subprocess_exec``
#: that start the child in a group of its own
group_options = _impl.group_options
#: right after the start of child ``pid``: bind its tree to this process (Windows: its
#: Job Object; POSIX: nothing, the group id is the pid)
adopt = _impl.adopt
#: the tree of child ``pid`` is gone: release what ``adopt`` holds for it
forget = _impl.forget
#: kill child ``pid`` and everything it started, at once and without asking; does not
#: wait (``tree_alive`` confirms)
kill_tree = _impl.kill_tree
#: whether a child's exit status says the system killed it (Linux's out-of-memory
#: killer sends SIGKILL), so that the operator reads that, not an exit code
killed_by_system = _impl.killed_by_system
#: end this process at once, as a power cut would: no cleanup, no ``atexit`` (the
#: crash points of tests)
kill_self = _impl.kill_self


def tree_alive(pid: int) -> bool:
    """Whether any process of the tree of child ``pid`` still runs."""
    return bool(_impl.tree_members(pid))


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` runs on this machine. Not ``os.kill(pid, 0)``: on
    Windows that call is ``TerminateProcess`` and ends the process it asks about."""
    return psutil.pid_exists(pid)
