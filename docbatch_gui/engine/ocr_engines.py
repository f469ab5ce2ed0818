"""DocBatch's own OCR engines, as plugins (``plugins``): Tesseract in the render
children, Google Vision through its client in threads.

An ``OcrReader`` reads a job's pages and hands each result to ``on_result`` as it
arrives (the OCR step caches it before the next). Any ``pipeline.ocr.OcrEngine`` (a
``recognise(jpeg, page_no)``) becomes one with ``InThreads``; an engine that needs
children or a whole file at once implements ``read`` itself, as Tesseract does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol

from docbatch_gui.domain.models import Job, OcrRecord
from docbatch_gui.engine.hooks import hookimpl
from docbatch_gui.pipeline.formats import stored_kind
from docbatch_gui.pipeline.ocr import OcrEngine, OcrEngineName, OcrResult
from docbatch_gui.pipeline.ocr_run import OcrPage, engine_in_threads, tesseract_in_children
from docbatch_gui.settings.model import Settings

if TYPE_CHECKING:
    from docbatch_gui.engine.steps import JobContext

OnResult = Callable[[OcrResult], Awaitable[None]]

#: a file's pages are read in several children only when each gets this many: a
#: child's start and its share of the file's opening cost about one page's reading
MIN_PAGES_PER_PART = 2
TESSERACT_CODES = {"ru": "rus", "en": "eng", "uk": "ukr", "de": "deu"}


class OcrReader(Protocol):
    name: str
    #: True when the engine reads the stored page image (already turned by the
    #: page's rotation), False when it reads the page from the file again
    reads_stored_image: bool

    def trusts(self, record: OcrRecord) -> bool:
        """Whether a cached reading of this engine is good to use again."""
        ...

    async def read(
        self, ctx: JobContext, job: Job, pages: list[OcrPage], on_result: OnResult
    ) -> None:
        """Read ``pages`` of ``job`` under ``ctx``'s OCR slots and deadline."""
        ...


def tesseract_languages(setting: str) -> str:
    """``OCR_LANGUAGES`` (ISO codes, "ru,en") in Tesseract's form ("rus+eng")."""
    codes = [c.strip() for c in setting.split(",") if c.strip()]
    return "+".join(TESSERACT_CODES.get(c, c) for c in codes)


def _slots(ctx: JobContext) -> asyncio.Semaphore:
    if ctx.ocr_slots is None:  # a job on its own: the setting bounds it alone
        ctx.ocr_slots = asyncio.Semaphore(ctx.settings.ocr_workers)
    return ctx.ocr_slots


class Tesseract:
    name = OcrEngineName.TESSERACT.value
    reads_stored_image = False

    def trusts(self, record: OcrRecord) -> bool:
        """A cached reading without orientation evidence was made on the small image
        Claude reads, where OSD turned upright pages over: read the page again."""
        return bool(record.orientation_note)

    async def read(
        self, ctx: JobContext, job: Job, pages: list[OcrPage], on_result: OnResult
    ) -> None:
        """One file's pages in up to ``OCR_WORKERS`` children at once, each a share of
        the pages (every n-th one, so the file's first pages come first) under one of
        the worker's OCR slots: a 20-page scan on 2 cores reads in half the time, and
        jobs together never read more pages at once than the setting. The first part
        to fail stops the others; every result read is cached."""
        settings = ctx.settings
        parts = max(1, min(settings.ocr_workers, len(pages) // MIN_PAGES_PER_PART))
        shares = [pages[index::parts] for index in range(parts)]
        source = ctx.blobs.local_path(job.sha256)

        async def part(share: list[OcrPage]) -> None:
            async with _slots(ctx):
                await tesseract_in_children(
                    share,
                    pool=ctx.child_pool(),
                    languages=tesseract_languages(settings.ocr_languages),
                    page_timeout=settings.ocr_timeout,
                    deadline=ctx.deadline,
                    file_name=job.file_name,
                    on_result=on_result,
                    source=str(source) if source else None,
                    source_kind=stored_kind(source) if source else "",
                )

        tasks = [asyncio.create_task(part(share)) for share in shares]
        try:
            for finished in asyncio.as_completed(tasks):
                await finished  # the first failure is raised here
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


class InThreads:
    """A page-at-a-time engine (``OcrEngine``), made by ``make`` from the settings,
    read in up to ``OCR_WORKERS`` threads under one of the worker's OCR slots."""

    reads_stored_image = True

    def __init__(self, name: str, make: Callable[[Settings], OcrEngine]) -> None:
        self.name = name
        self.make = make

    def trusts(self, record: OcrRecord) -> bool:
        return True

    async def read(
        self, ctx: JobContext, job: Job, pages: list[OcrPage], on_result: OnResult
    ) -> None:
        engine = self.make(ctx.settings)
        async with _slots(ctx):
            await engine_in_threads(
                pages, engine, workers=ctx.settings.ocr_workers, on_result=on_result
            )


def google_vision(settings: Settings) -> OcrEngine:
    # deferred: the Google Cloud Vision client (google-cloud-vision, grpc: about 1 s to import)
    from docbatch_gui.pipeline.ocr_vision import VisionOcr

    return VisionOcr(
        languages=[c.strip() for c in settings.ocr_languages.split(",")],
        credentials_file=settings.google_application_credentials,
        endpoint=settings.google_vision_endpoint,
        timeout=settings.ocr_timeout,
    )


OWN: dict[str, OcrReader] = {
    OcrEngineName.TESSERACT.value: Tesseract(),
    OcrEngineName.GOOGLE_VISION.value: InThreads(OcrEngineName.GOOGLE_VISION.value, google_vision),
}


@hookimpl
def docbatch_ocr_engine(name: str) -> OcrReader | None:
    return OWN.get(name)
