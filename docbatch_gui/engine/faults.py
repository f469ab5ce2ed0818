"""Crash points: where a test may kill the worker with SIGKILL (``kill -9``).

The batch engine calls ``crash_point(name)`` at each moment where a crash could
make it pay twice or lose a job. With ``DOCBATCH_CRASH_AT=name`` set (tests only),
the process kills itself there, exactly as a power cut would: no cleanup runs.
"""

from __future__ import annotations

import os

from docbatch_gui.system.processes import kill_self

POINTS = frozenset(
    {
        "after_intent",
        "after_create",
        "after_batch_id_saved",
        "during_polling",
        "mid_results",
        "mid_build",
    }
)


def crash_point(name: str) -> None:
    if os.environ.get("DOCBATCH_CRASH_AT") == name:
        kill_self()


def crash_once(name: str) -> None:
    """Like ``crash_point``, but only the first process to get here dies: the marker
    file ``DOCBATCH_CRASH_MARKER`` is created atomically just before the kill, so a
    task re-run after the crash goes through (tests of redelivery)."""
    marker = os.environ.get("DOCBATCH_CRASH_MARKER")
    if os.environ.get("DOCBATCH_CRASH_ONCE") != name or not marker:
        return
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return
    kill_self()
