"""The prepare step as the parent sees it: a child renders, pages stream back.

Persisting is the caller's business (``on_page``); this module only turns the child's
protocol into calls and typed errors.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from docbatch_gui.domain.errors import (
    DocBatchError,
    ErrorKind,
    JobTimeout,
    RetryableError,
    UnsupportedInput,
)
from docbatch_gui.pipeline.isolate import ChildCrashed, ChildPool, DeadlineExceeded
from docbatch_gui.pipeline.render import PrepareTask, RenderedPage

CHILD_MODULE = "docbatch_gui.pipeline.child"

_KINDS: dict[str, type[DocBatchError]] = {
    ErrorKind.UNSUPPORTED.value: UnsupportedInput,
    ErrorKind.RETRYABLE.value: RetryableError,
}


class PrepareTimeout(JobTimeout):
    """Timed out; carries what the state contract records (seed 004)."""

    def __init__(
        self, message: str, *, pages_done: int, pages_total: int | None, confirmed: bool
    ) -> None:
        super().__init__(message)
        self.pages_done = pages_done
        self.pages_total = pages_total
        self.termination_confirmed = confirmed


@dataclass
class PrepareResult:
    pages_total: int
    pages_done: int
    child_peak_rss_mb: float | None = None


def prepare_pool(size: int) -> ChildPool:
    """The pool of render children a worker keeps for the prepare step."""
    return ChildPool(CHILD_MODULE, size)


async def run_prepare(
    task: PrepareTask,
    deadline: float,
    pool: ChildPool,
    *,
    on_count: Callable[[int], Awaitable[None]],
    on_page: Callable[[RenderedPage], Awaitable[None]],
    timeout_hint: str = "",
) -> PrepareResult:
    total: int | None = None
    done = 0
    peak: float | None = None
    async with pool.lease() as child:
        try:
            async for message in child.run(task.to_dict(), deadline):
                event = message.pop("event")
                if event == "count":
                    total = int(message["pages"])
                    await on_count(total)
                elif event == "page":
                    payload = message.pop("payload", b"")
                    split = message.pop("image_bytes")
                    message.pop("thumb_bytes")
                    await on_page(
                        RenderedPage(**message, image=payload[:split], thumb=payload[split:])
                    )
                    done += 1
                elif event == "done":
                    peak = message.get("peak_rss_mb")
                elif event == "error":
                    error_class = _KINDS.get(message["kind"], UnsupportedInput)
                    raise error_class(message["message"], file=task.file_name)
        except DeadlineExceeded as exc:
            where = f"page {done + 1} of {total}" if total else "opening the file"
            raise PrepareTimeout(
                f"{task.file_name}: preparation took longer than {timeout_hint or 'its deadline'}"
                f" and was stopped while rendering {where}. Split the file, or raise "
                "JOB_TIMEOUT, then retry.",
                pages_done=done,
                pages_total=total,
                confirmed=exc.termination_confirmed,
            ) from None
        except ChildCrashed as exc:
            raise UnsupportedInput(
                f"{task.file_name}: the renderer stopped unexpectedly ({str(exc)[:200]}). "
                "The file may be damaged: re-save it as PDF and add it again.",
                file=task.file_name,
            ) from None
    return PrepareResult(total or done, done, peak)
