"""The GUI loop survives a long session: many callbacks, many thread hand-offs.

PySide6 6.12.0 lost a reference to ``None`` on every call of an overridden
``timerEvent``, which qasync runs for each callback, so a GUI that had run some
thousands of them aborted ("none_dealloc"). This test fails on such a binding.
"""

from __future__ import annotations

import asyncio
import sys

import pytest

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])


async def test_callbacks_and_thread_handoffs_keep_reference_counts() -> None:
    loop = asyncio.get_running_loop()
    before = sys.getrefcount(None)
    for _ in range(200):
        await asyncio.gather(*(loop.run_in_executor(None, int, "7") for _ in range(20)))
        await asyncio.sleep(0)
    # 4,000 thread hand-offs and more timer callbacks: a leak of one per callback
    # shows as thousands; normal churn is a few dozen
    assert abs(sys.getrefcount(None) - before) < 1000
