"""The prepare step as the parent sees it: a child renders, pages stream back.

Persisting is the caller's business (``on_page``); this module only turns the child's
protocol into calls and typed errors.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

from docbatch_gui.domain.errors import (
    DocBatchError,
    ErrorKind,
    JobTimeout,
    OutOfMemory,
    RetryableError,
    UnsupportedInput,
)
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.pipeline.isolate import (
    ChildCrashed,
    ChildPool,
    ChildStalled,
    DeadlineExceeded,
    error_of,
    note_of,
)
from docbatch_gui.pipeline.page_deadline import PageDeadline, page_deadline
from docbatch_gui.pipeline.render import PrepareTask, RenderedPage
from docbatch_gui.pipeline.textutil import page_ranges

CHILD_MODULE = "docbatch_gui.pipeline.child"
#: the least time a skipped page's text read gets (within the job's deadline): it
#: starts a fresh child, which alone takes seconds on a busy machine
TEXT_READ_SECONDS = 15.0

#: the error a child's ``error`` event stands for, by its ``kind``
CHILD_ERRORS: dict[str, type[DocBatchError]] = {
    ErrorKind.UNSUPPORTED.value: UnsupportedInput,
    ErrorKind.RETRYABLE.value: RetryableError,
    "out_of_memory": OutOfMemory,  # an allocation refused under CHILD_MEMORY_MB
}


class ChildDied(UnsupportedInput):
    """This file's own render or OCR child died while the worker lived (a crash, an
    out-of-memory kill). The worker counts it against the file (``Job.crashes``) and
    retries a bounded number of times: a busy machine may have been the cause."""


class PrepareTimeout(JobTimeout):
    """Timed out; carries what the job records: pages done of the total, and whether
    the kill of the child's process group was confirmed."""

    def __init__(
        self, message: Message | str, *, pages_done: int, pages_total: int | None, confirmed: bool
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
    #: pages given up after PAGE_TIMEOUT (delivered to ``on_page`` without an image)
    pages_skipped: list[int] = field(default_factory=list)


def prepare_pool(size: int, memory_mb: int = 0) -> ChildPool:
    """The pool of render, OCR and extraction children a worker keeps; each may add
    ``memory_mb`` to its start (``CHILD_MEMORY_MB``; 0: no cap)."""
    return ChildPool(CHILD_MODULE, size, memory_mb=memory_mb)


async def run_prepare(
    task: PrepareTask,
    deadline: float,
    pool: ChildPool,
    *,
    on_count: Callable[[int], Awaitable[None]],
    on_page: Callable[[RenderedPage], Awaitable[None]],
    timeout_hint: Message | None = None,
    page_timeout: float | None = None,
) -> PrepareResult:
    """Render ``task``'s pages in a child, streaming each to ``on_page``.

    With ``page_timeout``, a page the renderer does not finish in time is given up:
    its child is killed, the page goes to ``on_page`` without an image (with its text
    layer, read in a fresh child, and ``error`` saying why), and a new child carries
    on from the next page. A page's time is the smaller of ``page_timeout`` and what
    ``deadline`` leaves for the pages still to render (``page_deadline``), so a hung
    page is skipped and the rest of the file still renders in time; ``deadline``
    bounds the whole file.
    """
    progress = _Progress(task.first_page, started=time.monotonic())
    while True:
        try:
            await _render_from(
                task,
                progress,
                deadline,
                pool,
                on_count,
                on_page,
                progress.limit(task, deadline, page_timeout),
            )
            break
        except ChildStalled:
            page_no = progress.next_page
            reason = _skip_reason(progress.last_deadline)
            seconds = progress.last_deadline.seconds if progress.last_deadline else 0
            text = await _text_layer(task, page_no, deadline, pool, seconds)
            await on_page(RenderedPage(page_no, 0, 0, b"", b"", text, error=reason))
            progress.page_done(page_no)
            progress.skipped.append(page_no)
            if progress.past_end(task):
                break
        except DeadlineExceeded as exc:
            total, done = progress.total, progress.done
            where = (
                coded("prepare_at_page", page=progress.next_page, total=total)
                if total
                else coded("prepare_at_opening")
            )
            advice = coded("prepare_advice_split")
            if progress.skipped:
                numbers = page_ranges(progress.skipped).split(" ", 1)[1]
                code = (
                    "prepare_advice_skipped" if len(progress.skipped) > 1 else "prepare_advice_one"
                )
                advice = coded(code, pages=numbers)
            limit = timeout_hint or coded("prepare_its_deadline")
            raise PrepareTimeout(
                coded(
                    "prepare_timeout", file=task.file_name, limit=limit, where=where, advice=advice
                ),
                pages_done=done,
                pages_total=total,
                confirmed=exc.termination_confirmed,
            ) from None
    return PrepareResult(
        progress.total or progress.done, progress.done, progress.peak, progress.skipped
    )


def _skip_reason(deadline: PageDeadline | None) -> Message:
    """Why a page was given up: PAGE_TIMEOUT, or the share of JOB_TIMEOUT it had."""
    seconds = round(deadline.seconds, 1) if deadline else 0
    if deadline and deadline.by_job:
        return coded("page_render_job_share", seconds=seconds)
    return coded("page_render_timeout", seconds=seconds)


@dataclass
class _Progress:
    """Where a file's rendering stands, across the children it took."""

    next_page: int
    total: int | None = None
    done: int = 0
    peak: float | None = None
    skipped: list[int] = field(default_factory=list)
    started: float = 0.0
    #: the time the page being rendered was given (what a skip's reason says)
    last_deadline: PageDeadline | None = None

    def page_done(self, page_no: int) -> None:
        self.done += 1
        self.next_page = page_no + 1

    def pace(self) -> float | None:
        """Mean seconds per rendered page of this file so far (None before any)."""
        rendered = self.done - len(self.skipped)
        if rendered <= 0:
            return None
        return (time.monotonic() - self.started) / rendered

    def limit(
        self, task: PrepareTask, deadline: float, page_timeout: float | None
    ) -> Callable[[], float | None] | None:
        """The child's stall limit: the next page's time, asked after each message."""
        if page_timeout is None:
            return None

        def next_page_seconds() -> float | None:
            last = self.total if task.last_page is None else min(task.last_page, self.total or 0)
            left = (last - self.next_page + 1) if last else 1
            self.last_deadline = page_deadline(
                deadline - time.monotonic(), left, page_timeout, self.pace()
            )
            return self.last_deadline.seconds if self.last_deadline else None

        return next_page_seconds

    def past_end(self, task: PrepareTask) -> bool:
        last = self.total if task.last_page is None else min(task.last_page, self.total or 0)
        return last is not None and self.next_page > last


async def _render_from(
    task: PrepareTask,
    progress: _Progress,
    deadline: float,
    pool: ChildPool,
    on_count: Callable[[int], Awaitable[None]],
    on_page: Callable[[RenderedPage], Awaitable[None]],
    stall_limit: Callable[[], float | None] | None,
) -> None:
    """One child renders from ``progress.next_page`` to the end (or until it stalls)."""
    resumed = replace(task, first_page=progress.next_page)
    async with pool.lease() as child:
        try:
            async for message in child.run(resumed.to_dict(), deadline, stall_limit=stall_limit):
                event = message.pop("event")
                if event == "count":
                    if progress.total is None:
                        progress.total = int(message["pages"])
                        await on_count(progress.total)
                elif event == "page":
                    payload = message.pop("payload", b"")
                    image_end = message.pop("image_bytes")
                    thumb_end = image_end + message.pop("thumb_bytes")
                    words_end = thumb_end + message.pop("words_bytes", 0)
                    small_end = words_end + message.pop("small_bytes", 0)
                    note = note_of(message.pop("orientation_note", None))
                    page = RenderedPage(
                        **message,
                        orientation_note=note,
                        image=payload[:image_end],
                        thumb=payload[image_end:thumb_end],
                        words_blob=payload[thumb_end:words_end],
                        small_image=payload[words_end:small_end],
                    )
                    await on_page(page)
                    progress.page_done(page.page_no)
                elif event == "done":
                    progress.peak = max(progress.peak or 0, message.get("peak_rss_mb") or 0)
                elif event == "error":
                    error_class = CHILD_ERRORS.get(message["kind"], UnsupportedInput)
                    raise error_class(error_of(message), file=task.file_name)
        except ChildCrashed as exc:
            raise ChildDied.coded(
                "renderer_crashed",
                {"file": task.file_name, "detail": str(exc)[:200]},
                file=task.file_name,
            ) from None


async def _text_layer(
    task: PrepareTask, page_no: int, deadline: float, pool: ChildPool, timeout: float
) -> str:
    """The skipped page's own text, when reading it (without rendering) ends within
    PAGE_TIMEOUT, or ``TEXT_READ_SECONDS`` if longer (the time includes starting the
    child); empty when it does not, or the page has none."""
    request = {"kind": "page_text", "task": task.to_dict(), "page_no": page_no}
    limit = min(deadline, time.monotonic() + max(timeout, TEXT_READ_SECONDS))
    text = ""
    try:
        async with pool.lease() as child:
            async for message in child.run(request, limit):
                if message.get("event") == "text":
                    text = str(message.get("text", ""))
    except (DeadlineExceeded, ChildCrashed):
        return ""
    return text
