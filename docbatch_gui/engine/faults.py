"""Crash points: where a test may kill the worker with SIGKILL (``kill -9``).

The batch engine calls ``crash_point(name)`` at each moment where a crash could
make it pay twice or lose a job. With ``DOCBATCH_CRASH_AT=name`` set (tests only),
the process kills itself there, exactly as a power cut would: no cleanup runs.
"""

from __future__ import annotations

import os
import signal

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
        os.kill(os.getpid(), signal.SIGKILL)
