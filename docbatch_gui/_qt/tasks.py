"""Starting coroutines from Qt slots, with their failures shown, never swallowed."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

log = logging.getLogger(__name__)

_running: set[asyncio.Task[Any]] = set()


def spawn(
    coro: Coroutine[Any, Any, Any], on_error: Callable[[BaseException], None] | None = None
) -> asyncio.Task[Any]:
    """Run ``coro`` on the GUI loop; keep a reference so it is not collected midway."""
    task = asyncio.ensure_future(coro)
    _running.add(task)

    def finished(done: asyncio.Task[Any]) -> None:
        _running.discard(done)
        if done.cancelled():
            return
        error = done.exception()
        if error is not None:
            log.error("%s", error, exc_info=error)
            if on_error is not None:
                on_error(error)

    task.add_done_callback(finished)
    return task


async def drain() -> None:
    """Wait for every spawned task (tests, and closing the window)."""
    while _running:
        await asyncio.gather(*list(_running), return_exceptions=True)
