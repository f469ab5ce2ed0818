"""Who is running a long task, so that another process can tell a live one from a
dead one at once.

A registry import or search marks its registry with an owner ``host:pid:started``.
On the same host, a process that no longer exists (or a reused pid with another
start time) is dead for sure. On another host only a heartbeat can tell: the task
refreshes the registry's ``updated_at`` as it goes, and a heartbeat older than
``HEARTBEAT_STALE`` means the owner is gone.
"""

from __future__ import annotations

import os
import socket
from datetime import UTC, datetime, timedelta
from functools import cache

import psutil

#: a task refreshes its heartbeat at least this often while it runs
HEARTBEAT_EVERY = timedelta(seconds=5)
#: a heartbeat older than this belongs to a process that is gone
HEARTBEAT_STALE = timedelta(minutes=2)


@cache
def this_owner() -> str:
    """``host:pid:started`` of this process."""
    started = int(psutil.Process(os.getpid()).create_time())
    return f"{socket.gethostname()}:{os.getpid()}:{started}"


def owner_alive(owner: str | None, heartbeat: datetime | None) -> bool:
    """Whether the owner may still be working; an unknown owner goes by the heartbeat."""
    if owner:
        host, pid_text, started_text = _parts(owner)
        if host == socket.gethostname() and pid_text.isdigit():
            return _same_process(int(pid_text), started_text)
    if heartbeat is None:
        return False
    return datetime.now(UTC) - heartbeat < HEARTBEAT_STALE


def _parts(owner: str) -> tuple[str, str, str]:
    host, _, tail = owner.rpartition(":")
    host, _, pid = host.rpartition(":")
    return host, pid, tail


def _same_process(pid: int, started: str) -> bool:
    try:
        process = psutil.Process(pid)
        return not started.isdigit() or int(process.create_time()) == int(started)
    except (psutil.NoSuchProcess, psutil.AccessDenied, ValueError):
        return False
