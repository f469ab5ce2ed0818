"""The OCR step of a job: cache first, then the engine, page by page.

Only pages without a usable text layer are read. Each result is cached (by file
content, page and engine) before the next page starts, and applied at once: the page
image and thumbnail are turned upright, the text stored. A retry, a force reprocess
or the same file dropped again reuses the cache and pays for nothing twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from docbatch_gui.domain.messages import coded
from docbatch_gui.domain.models import Job, OcrRecord, Page
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.context import EngineContext
from docbatch_gui.engine.job_progress import ocr
from docbatch_gui.pipeline import words as page_words
from docbatch_gui.pipeline.formats import stored_kind
from docbatch_gui.pipeline.isolate import ChildPool
from docbatch_gui.pipeline.ocr import OcrResult, rotate_jpeg
from docbatch_gui.pipeline.ocr_run import OcrPage, engine_in_threads, tesseract_in_children
from docbatch_gui.pipeline.ocr_vision import VisionOcr
from docbatch_gui.pipeline.render import make_thumbnail

log = logging.getLogger(__name__)

#: a file's pages are read in several children only when each gets this many: a
#: child's start and its share of the file's opening cost about one page's reading
MIN_PAGES_PER_PART = 2
TESSERACT_CODES = {"ru": "rus", "en": "eng", "uk": "ukr", "de": "deu"}


def tesseract_languages(setting: str) -> str:
    """``OCR_LANGUAGES`` (ISO codes, "ru,en") in Tesseract's form ("rus+eng")."""
    codes = [c.strip() for c in setting.split(",") if c.strip()]
    return "+".join(TESSERACT_CODES.get(c, c) for c in codes)


def trusted(record: OcrRecord) -> bool:
    """A cached Tesseract reading without orientation evidence was made on the small
    image Claude reads, where OSD turned upright pages over: read the page again."""
    return record.engine != "tesseract" or bool(record.orientation_note)


def word_chars(text: str) -> int:
    return sum(ch.isalnum() for ch in text)


def better_text(layer: str, ocr: str) -> tuple[str, bool]:
    """(text, whether it is OCR's): OCR replaces the file's own text layer only when
    it read more letters and digits. An empty or poorer OCR result never wipes what
    the file itself says ("Hello wörld", a page number), and a page that has a text
    layer is never turned by OCR's orientation guess (the layer is upright text)."""
    if word_chars(ocr) > word_chars(layer):
        return ocr.strip(), True
    return layer, False


class OcrStep:
    def __init__(
        self,
        context: EngineContext,
        pool: ChildPool,
        slots: asyncio.Semaphore | None = None,
        emit: Callable[[Job], object] | None = None,
    ) -> None:
        #: the worker's listener call: the bar moves page by page
        self.emit = emit or (lambda job: job)
        self.store = context.store
        self.blobs = context.blobs
        self.settings = settings = context.settings
        self.pool = pool
        #: OCR_WORKERS, shared by the worker's jobs: how many read pages at once
        self.slots = slots or asyncio.Semaphore(settings.ocr_workers)

    def needs_ocr(self, page: Page) -> bool:
        """A page with (almost) no text layer, that was rendered: a page the renderer
        gave up would only hang OCR's own rendering of it the same way."""
        return (
            page.ocr_engine is None
            and not page.render_error
            and len(page.text.strip()) < self.settings.ocr_min_text_chars
        )

    async def run(self, job: Job, attempt: int, deadline: float) -> Job:
        engine = self.settings.ocr_engine
        pages = {p.page_no: p for p in self.store.list_pages(job.id) if self.needs_ocr(p)}
        if engine == "none" or not pages:
            return job
        job = self.store.transition(job.id, JobState.OCR, attempt=attempt)
        cache = {n: r for n, r in self.store.get_ocr(job.sha256, engine).items() if trusted(r)}
        for page_no, record in cache.items():
            if page_no in pages:
                self._apply(pages.pop(page_no), record, cached=True)
        if cache:
            log.info("job %s: %s page(s) from the OCR cache", job.id, len(cache))
        todo = [
            OcrPage(p.page_no, str(self.blobs.local_path(p.image_sha or "")))
            for p in sorted(pages.values(), key=lambda p: p.page_no)
        ]

        read = {"pages": 0}

        async def on_result(result: OcrResult) -> None:
            page = pages[result.page_no]
            read["pages"] += 1
            self.emit(
                self.store.update_job(
                    job.id, attempt=attempt, progress=ocr(read["pages"], len(todo))
                )
            )
            if result.error:
                log.warning("job %s page %s: OCR failed: %s", job.id, page.page_no, result.error)
                self.store.put_pages([replace(page, ocr_engine=engine)])
                return
            record = OcrRecord(
                job.sha256,
                result.page_no,
                engine,
                result.text.strip(),
                result.rotation % 360,
                result.rotation_confidence,
                result.orientation_note,
                result.orientation_uncertain,
                self._words_blob(result, read_turned=page.rotation if engine != "tesseract" else 0),
                result.skew,
            )
            self.store.put_ocr(record)  # cached before anything else can fail
            self._apply(page, record, cached=False)

        if not todo:
            return job
        if engine != "tesseract":
            async with self.slots:
                await self._read(job, engine, todo, deadline, on_result)
            return job
        await self._read_in_parts(job, todo, deadline, on_result)
        return job

    async def _read_in_parts(
        self,
        job: Job,
        todo: list[OcrPage],
        deadline: float,
        on_result: Callable[[OcrResult], Awaitable[None]],
    ) -> None:
        """Tesseract on one file's pages in up to ``OCR_WORKERS`` children at once, each
        a share of the pages (every n-th one, so the file's first pages come first)
        under one of the worker's OCR slots: a 20-page scan on 2 cores reads in half
        the time, and jobs together never read more pages at once than the setting.
        The first part to fail stops the others; every result read is cached."""
        parts = max(1, min(self.settings.ocr_workers, len(todo) // MIN_PAGES_PER_PART))
        shares = [todo[index::parts] for index in range(parts)]

        async def part(pages: list[OcrPage]) -> None:
            async with self.slots:
                await self._read(job, "tesseract", pages, deadline, on_result)

        tasks = [asyncio.create_task(part(pages)) for pages in shares]
        try:
            for finished in asyncio.as_completed(tasks):
                await finished  # the first failure is raised here
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _read(
        self,
        job: Job,
        engine: str,
        todo: list[OcrPage],
        deadline: float,
        on_result: Callable[[OcrResult], Awaitable[None]],
    ) -> None:
        if engine == "tesseract":
            source = self.blobs.local_path(job.sha256)
            await tesseract_in_children(
                todo,
                pool=self.pool,
                languages=tesseract_languages(self.settings.ocr_languages),
                page_timeout=self.settings.ocr_timeout,
                deadline=deadline,
                file_name=job.file_name,
                on_result=on_result,
                source=str(source) if source else None,
                source_kind=stored_kind(source) if source else "",
            )
        else:
            vision = VisionOcr(
                languages=[c.strip() for c in self.settings.ocr_languages.split(",")],
                credentials_file=self.settings.google_application_credentials,
                endpoint=self.settings.google_vision_endpoint,
                timeout=self.settings.ocr_timeout,
            )
            await engine_in_threads(
                todo, vision, workers=self.settings.ocr_workers, on_result=on_result
            )

    def _words_blob(self, result: OcrResult, *, read_turned: int) -> str | None:
        """The blob of the words OCR read, on the page as the file shows it.

        The engine gives them on the image it read, turned upright by its rotation;
        that image was the page as the file shows it (Tesseract renders the source
        again) or the stored image, already turned by ``read_turned`` (Vision). Kept in
        the file's frame, the cached words fit whatever turn the page ends up with.
        """
        words = page_words.as_words(result.words)
        if not words:
            return None
        in_file = page_words.turned(words, -(result.rotation + read_turned))
        return self.blobs.put_bytes(page_words.encode(in_file))

    def _page_words(self, record: OcrRecord, rotation: int) -> str | None:
        """The blob of the OCR words on the page turned by ``rotation``, as it is shown."""
        if record.words_sha is None or not rotation % 360:
            return record.words_sha
        try:
            words = page_words.decode(self.blobs.read(record.words_sha))
        except Exception:  # a missing blob: the page just cannot tell where values stand
            return None
        if not words:
            return None
        return self.blobs.put_bytes(page_words.encode(page_words.turned(words, rotation)))

    def _apply(self, page: Page, record: OcrRecord, *, cached: bool) -> None:
        """Store the better text; turn the image (and thumbnail) upright when OCR found
        it rotated, unless the page has a text layer of its own (see ``better_text``):
        such a page keeps the orientation its text lines gave it at rendering."""
        layer = page.text if page.ocr_engine is None else ""
        text, from_ocr = better_text(layer, record.text)
        if layer.strip() and not from_ocr:
            log.info(
                "job %s page %s: kept the file's text layer (%s characters); OCR read %s",
                page.job_id,
                page.page_no,
                len(layer.strip()),
                len(record.text.strip()),
            )
        if layer.strip():
            note = (
                coded(
                    "orient_layer_ocr_not_used",
                    layer=page.orientation_note,
                    ocr=record.orientation_note,
                )
                if page.orientation_note
                else coded("orient_ocr_not_used", ocr=record.orientation_note)
            )
            shown = replace(page, orientation_note=note)
        else:
            shown = self._turned(page, record)
        self.store.put_pages(
            [
                replace(
                    shown,
                    text=text,
                    ocr_engine=record.engine if from_ocr else None,
                    ocr_cached=cached,
                    words_sha=self._page_words(record, shown.rotation)
                    if from_ocr
                    else page.words_sha,
                )
            ]
        )

    def _turned(self, page: Page, record: OcrRecord) -> Page:
        """The page as OCR's orientation decision leaves it: image, thumbnail and size."""
        image_sha, thumb_sha = page.image_sha, page.thumb_sha
        width, height = page.width, page.height
        rotation = record.rotation % 360
        if rotation and page.image_sha:
            turned = rotate_jpeg(self.blobs.read(page.image_sha), rotation)
            image_sha = self.blobs.put_bytes(turned)
            if page.thumb_sha:
                thumb_sha = self.blobs.put_bytes(make_thumbnail(turned))
            if rotation in (90, 270):
                width, height = height, width
        return replace(
            page,
            image_sha=image_sha,
            thumb_sha=thumb_sha,
            width=width,
            height=height,
            rotation=rotation,
            rotation_confidence=record.rotation_confidence,
            orientation_note=record.orientation_note,
            orientation_uncertain=record.orientation_uncertain,
            skew=record.skew,
        )
