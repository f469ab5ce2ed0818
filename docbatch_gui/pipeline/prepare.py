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
from docbatch_gui.pipeline.isolate import ChildCrashed, DeadlineExceeded, run_child
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


async def run_prepare(
    task: PrepareTask,
    deadline: float,
    *,
    on_count: Callable[[int], Awaitable[None]],
    on_page: Callable[[RenderedPage], Awaitable[None]],
    timeout_hint: str = "",
) -> PrepareResult:
    total: int | None = None
    done = 0
    async with run_child(CHILD_MODULE, task.to_dict(), deadline) as child:
        try:
            async for message in child.messages():
                event = message.pop("event")
                if event == "count":
                    total = int(message["pages"])
                    await on_count(total)
                elif event == "page":
                    await on_page(RenderedPage(**message))
                    done += 1
                elif event == "error":
                    error_class = _KINDS.get(message["kind"], UnsupportedInput)
                    raise error_class(message["message"], file=task.file_name)
                elif event == "done":
                    await child.finish()
                    return PrepareResult(total or done, done)
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
        code = await child.finish()
        detail = child.stderr_text().splitlines()[-1:] or [f"exit code {code}"]
        raise UnsupportedInput(
            f"{task.file_name}: the renderer stopped unexpectedly ({detail[0][:200]}). "
            "The file may be damaged: re-save it as PDF and add it again.",
            file=task.file_name,
        ) from ChildCrashed(code)
