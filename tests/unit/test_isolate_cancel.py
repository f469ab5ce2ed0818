"""A cancel that reaches a task reading a child's messages is never lost, whatever
loop step it lands on: the stop (SIGTERM, Ctrl+C) of a worker whose job is rendering.

On Python 3.11, ``asyncio.wait_for`` returns the result instead of raising when the
cancel comes after the awaited read completed but before the waiting task resumed
(CPython gh-86296, fixed in 3.12). The payload read of ``Child._messages`` used it, and
a worker stopped while pages were still buffered then rendered on to the page's
deadline (test_recovery's SIGTERM test failed under load).
"""

from __future__ import annotations

import asyncio
import json
import time
from types import SimpleNamespace

from docbatch_gui.pipeline.isolate import Child


async def _cancel_after(steps: int) -> str:
    """How a reader of two messages ends when cancelled ``steps`` loop steps after it
    starts: "cancelled", "lost" (it read on to the end), or "finished" (it was done
    before the cancel came). The first page is already in the pipe, as when the parent
    lags (a whole line is read without a loop step); the second arrives in pieces, a
    loop step apart, as a child writes it, so the cancel lands at every step of a
    read that waits: the line, then the payload. The stream ends after the two
    messages, so a reader that lost the cancel ends too, and nothing here waits for a
    time."""
    reader = asyncio.StreamReader()
    payload = b"x" * 1000
    header = {"event": "page", "page_no": 1, "payload_bytes": len(payload)}
    reader.feed_data(json.dumps(header).encode() + b"\n" + payload)
    line = json.dumps({**header, "page_no": 2}).encode() + b"\n"
    pieces = [line[:10], line[10:], payload[:500], payload[500:]]
    child = Child("unused")
    child.process = SimpleNamespace(stdout=reader, returncode=None)  # type: ignore[assignment]

    async def read_all() -> None:
        async for _message in child._messages(time.monotonic() + 3600):
            await asyncio.sleep(0)  # the caller's own await between two pages

    task = asyncio.ensure_future(read_all())
    loop = asyncio.get_running_loop()

    def feed() -> None:
        if pieces:
            reader.feed_data(pieces.pop(0))
            loop.call_soon(feed)
        else:
            reader.feed_eof()

    loop.call_soon(feed)
    came_too_late = False

    def countdown(left: int) -> None:
        nonlocal came_too_late
        if left:
            loop.call_soon(countdown, left - 1)
        else:
            came_too_late = task.done()
            task.cancel()

    loop.call_soon(countdown, steps)
    await asyncio.wait({task})
    if came_too_late:
        return "finished"
    return "cancelled" if task.cancelled() else "lost"


def test_a_cancel_while_payloads_are_read_is_never_lost() -> None:
    """Every loop step from the reader's start to its end, one run each."""
    outcomes: dict[int, str] = {}
    steps = 0
    while (outcome := asyncio.run(_cancel_after(steps))) != "finished":
        outcomes[steps] = outcome
        steps += 1
    assert len(outcomes) >= 4, outcomes  # the second page took steps: the test tested
    lost = [step for step, outcome in outcomes.items() if outcome != "cancelled"]
    assert not lost, f"a cancel {lost} loop steps in was lost ({len(outcomes)} steps tried)"
