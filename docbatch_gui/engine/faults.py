"""Crash points: where a test may kill the worker with SIGKILL (``kill -9``).

The batch engine calls ``crash_point(name)`` between the store writes of its submit
and result paths, where a crash could make it pay twice or lose a job. With
``DOCBATCH_CRASH_AT=name`` set (tests only), the process kills itself there, exactly
as a power cut would: no cleanup runs. ``DOCBATCH_CRASH_HIT=n`` kills at the n-th
time the point is reached instead of the first (randomized kill schedules).
"""

from __future__ import annotations

import os

from docbatch_gui.system.processes import kill_self

#: in the order a run passes them: the submit path, then the result path
POINTS = (
    "intent_mid_write",  # inside the intent's write: the transaction is not committed
    "after_intent",
    "after_create",
    "after_batch_id_saved",
    "mid_attach",
    "during_polling",
    "after_poll_saved",
    "mid_results",
    "after_results_done",
    "mid_build",
    "after_documents",
)
#: reached only on a store without multi-document transactions (MongoDB's claim step)
STORE_POINTS = frozenset({"intent_claimed"})

_hits: dict[str, int] = {}


def crash_point(name: str) -> None:
    if os.environ.get("DOCBATCH_CRASH_AT") != name:
        return
    _hits[name] = _hits.get(name, 0) + 1
    if _hits[name] >= int(os.environ.get("DOCBATCH_CRASH_HIT") or 1):
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
