"""OCR of a job's pages, as the parent sees it: Tesseract in the isolated render
children (same pool, same deadline), Google Vision through its client in threads.

Each result goes to ``on_result`` as soon as it arrives; the caller caches it before
the next one, so a crash halfway loses at most the page in flight.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from docbatch_gui.domain.errors import (
    ConfigError,
    DocBatchError,
    ErrorKind,
    OutOfMemory,
    UnsupportedInput,
)
from docbatch_gui.domain.messages import coded
from docbatch_gui.pipeline.isolate import (
    ChildCrashed,
    ChildPool,
    DeadlineExceeded,
    error_of,
    note_of,
)
from docbatch_gui.pipeline.ocr import OcrEngine, OcrResult
from docbatch_gui.pipeline.prepare import ChildDied, PrepareTimeout

OnResult = Callable[[OcrResult], Awaitable[None]]


@dataclass(frozen=True)
class OcrPage:
    page_no: int
    image_path: str  # a local path to the page JPEG (the blob)


async def tesseract_in_children(
    pages: Sequence[OcrPage],
    *,
    pool: ChildPool,
    languages: str,
    page_timeout: float,
    deadline: float,
    file_name: str,
    on_result: OnResult,
    source: str | None = None,
    source_kind: str = "",
) -> None:
    """``source`` (the job's file) lets the child render each page again at the
    resolution OCR needs; the stored page images are the fallback."""
    task = {
        "kind": "ocr",
        "languages": languages,
        "timeout": page_timeout,
        "source": source,
        "source_kind": source_kind,
        "file_name": file_name,
        "pages": [{"page_no": p.page_no, "path": p.image_path} for p in pages],
    }
    done = 0
    async with pool.lease() as child:
        try:
            async for message in child.run(task, deadline):
                event = message.pop("event")
                message.pop("payload", None)
                if event == "ocr":
                    note = note_of(message.pop("orientation_note", None))
                    error = note_of(message.pop("error", None))
                    await on_result(OcrResult(**message, orientation_note=note, error=error))
                    done += 1
                elif event == "error":
                    if message["kind"] == "out_of_memory":  # its own words say it all
                        raise OutOfMemory(error_of(message), file=file_name)
                    kind = ErrorKind(message["kind"])
                    error_class = ConfigError if kind is ErrorKind.CRITICAL else UnsupportedInput
                    raise error_class(coded("ocr_failed", file=file_name, error=error_of(message)))
        except DeadlineExceeded as exc:
            raise PrepareTimeout(
                coded("ocr_timeout", file=file_name, page=done + 1, total=len(pages)),
                pages_done=done,
                pages_total=len(pages),
                confirmed=exc.termination_confirmed,
            ) from None
        except ChildCrashed as exc:
            raise ChildDied.coded(
                "ocr_crashed", {"file": file_name, "detail": str(exc)[:200]}, file=file_name
            ) from None


async def engine_in_threads(
    pages: Sequence[OcrPage],
    engine: OcrEngine,
    *,
    workers: int,
    on_result: OnResult,
) -> None:
    """A network engine (Vision): up to ``workers`` pages at once; the first critical
    or retryable error of the engine stops the rest (they are not sent)."""
    slots = asyncio.Semaphore(workers)
    failure: list[DocBatchError] = []

    async def one(page: OcrPage) -> None:
        async with slots:
            if failure:
                return
            with open(page.image_path, "rb") as handle:
                jpeg = handle.read()
            try:
                result = await asyncio.to_thread(engine.recognise, jpeg, page.page_no)
            except DocBatchError as exc:
                failure.append(exc)
                return
            await on_result(result)

    await asyncio.gather(*(one(p) for p in pages))
    if failure:
        raise failure[0]
