"""The OCR step of a job: cache first, then the engine, page by page.

Only pages without a usable text layer are read. Each result is cached (by file
content, page and engine) before the next page starts, and applied at once: the page
image and thumbnail are turned upright, the text stored. A retry, a force reprocess
or the same file dropped again reuses the cache and pays for nothing twice.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from docbatch_gui.domain.messages import coded
from docbatch_gui.domain.models import Job, OcrRecord, Page
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.plugins import ocr_reader
from docbatch_gui.engine.steps import OCR, WEIGHTS, JobContext
from docbatch_gui.pipeline import words as page_words
from docbatch_gui.pipeline.ocr import OcrEngineName, OcrResult, needs_ocr, rotate_jpeg
from docbatch_gui.pipeline.ocr_run import OcrPage
from docbatch_gui.pipeline.render import make_thumbnail
from docbatch_gui.storage.blobs import BlobStore

log = logging.getLogger(__name__)


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
    """Pages without a usable text layer, read by the ``OCR_ENGINE`` plugin."""

    name = OCR
    weight = WEIGHTS[OCR]

    def _bind(self, ctx: JobContext) -> None:
        self.store = ctx.store
        self.blobs: BlobStore = ctx.blobs
        self.settings = ctx.settings

    async def run(self, ctx: JobContext, job: Job) -> Job:
        self._bind(ctx)
        try:
            return await self._read(ctx, job)
        finally:  # what follows reads the stored pages, not the CPU
            ctx.free_lane()

    async def _read(self, ctx: JobContext, job: Job) -> Job:
        engine = self.settings.ocr_engine
        least = self.settings.ocr_min_text_chars
        pages = {p.page_no: p for p in self.store.list_pages(job.id) if needs_ocr(p, least)}
        if engine == OcrEngineName.NONE.value or not pages:
            return job
        reader = ocr_reader(engine)
        attempt = ctx.attempt
        job = self.store.transition(job.id, JobState.OCR, attempt=attempt)
        ctx.emit(job)
        cache = {
            n: r for n, r in self.store.get_ocr(job.sha256, engine).items() if reader.trusts(r)
        }
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
            ctx.report(job.id, OCR, read["pages"], len(todo))
            if result.error:
                log.warning("job %s page %s: OCR failed: %s", job.id, page.page_no, result.error)
                self.store.put_pages([replace(page, ocr_engine=engine)])
                ctx.check_canceled()
                return
            turned = page.rotation if reader.reads_stored_image else 0
            record = OcrRecord(
                job.sha256,
                result.page_no,
                engine,
                result.text.strip(),
                result.rotation % 360,
                result.rotation_confidence,
                result.orientation_note,
                result.orientation_uncertain,
                self._words_blob(result, read_turned=turned),
                result.skew,
            )
            self.store.put_ocr(record)  # cached before anything else can fail
            self._apply(page, record, cached=False)
            ctx.check_canceled()  # between two pages, the one read kept

        if todo:
            await reader.read(ctx, job, todo, on_result)
        return self.store.get_job(job.id)

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
        return self.blobs.put_bytes(page_words.encode(in_file, result.word_confidences))

    def _page_words(self, record: OcrRecord, rotation: int) -> str | None:
        """The blob of the OCR words on the page turned by ``rotation``, as it is shown."""
        if record.words_sha is None or not rotation % 360:
            return record.words_sha
        try:
            blob = self.blobs.read(record.words_sha)
        except Exception:  # a missing blob: the page just cannot tell where values stand
            return None
        words = page_words.decode(blob)
        if not words:
            return None
        turned = page_words.turned(words, rotation)
        return self.blobs.put_bytes(page_words.encode(turned, page_words.decode_confidences(blob)))

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
            # the small image shows the page as it was: shrunk again from the turned one
            small_image_sha=page.small_image_sha if image_sha == page.image_sha else None,
            width=width,
            height=height,
            rotation=rotation,
            rotation_confidence=record.rotation_confidence,
            orientation_note=record.orientation_note,
            orientation_uncertain=record.orientation_uncertain,
            skew=record.skew,
        )
