"""The render step of a job: the file's pages, rendered in a child, stored as they come.

Pages are written in small flushes (``PAGE_FLUSH_COUNT`` pages or
``PAGE_FLUSH_SECONDS``), so a long file shows progress and a crash loses little;
the pages of a failed attempt stay, marked undeliverable, as evidence of where it
stopped.
"""

from __future__ import annotations

import contextlib
import logging
import time
from pathlib import Path

from docbatch_gui.domain.errors import DocBatchError, InvalidTransition, UnsupportedInput
from docbatch_gui.domain.messages import coded
from docbatch_gui.domain.models import Job, Page
from docbatch_gui.domain.states import ProcessingMode
from docbatch_gui.domain.text import printable
from docbatch_gui.engine.job_log import log_skipped_page
from docbatch_gui.engine.page_writes import PageWriter
from docbatch_gui.engine.steps import PREPARE, WEIGHTS, JobContext
from docbatch_gui.pipeline.formats import stored_kind
from docbatch_gui.pipeline.ocr import OcrEngineName, needs_ocr
from docbatch_gui.pipeline.prepare import run_prepare
from docbatch_gui.pipeline.render import PrepareTask, RenderedPage
from docbatch_gui.storage.blobs import BlobStore, sha256_file

log = logging.getLogger(__name__)

PAGE_FLUSH_COUNT = 16
PAGE_FLUSH_SECONDS = 0.5


class PrepareStep:
    """The job's pages, rendered (once: a retry reuses whole pages)."""

    name = PREPARE
    weight = WEIGHTS[PREPARE]

    def _bind(self, ctx: JobContext) -> None:
        self.ctx = ctx
        self.store = ctx.store
        self.blobs = ctx.blobs
        self.settings = ctx.settings
        self.profile = ctx.profile

    def pages_ready(self, job: Job) -> bool:
        """A retry after an extraction failure reuses the rendered pages."""
        if not job.pages or not job.artifacts_deliverable:
            return False
        pages = self.store.list_pages(job.id)
        return len(pages) == job.pages and all(p.deliverable for p in pages)

    async def run(self, ctx: JobContext, job: Job) -> Job:
        self._bind(ctx)
        if self.pages_ready(job):
            log.info("job %s: pages already rendered; not rendering again", job.id)
        else:
            await self.render(job)
        return self.store.get_job(job.id)

    async def render(self, job: Job) -> None:
        """Render every page of the job's file in a child, storing pages as they come."""
        self.store.delete_pages(job.id)  # leftovers of an interrupted attempt
        source = self._stored_source(job)
        kind = stored_kind(source)
        task = PrepareTask(
            source=str(source),
            file_name=job.file_name,
            kind=kind,
            jpeg_quality=self.settings.jpeg_quality,
            max_pages=self.settings.max_pages,
            max_image_pixels=self.settings.max_image_pixels,
            profile_path=self._plan_profile(job),
        )
        await self._prepare(job, task)
        self.store.set_pages_deliverable(job.id, True)

    def _plan_profile(self, job: Job) -> str:
        """The profile the render child judges text layers by, for the request plan;
        empty for an offline job, which sends no request: judging runs the offline
        extractor on every page's text, a third of the render's time on a text PDF.
        Its pages keep no verdict, so should Claude read them later they go whole."""
        if job.mode == ProcessingMode.OFFLINE.value:
            return ""
        return str(self.profile.source)

    def _stored_source(self, job: Job) -> Path:
        return stored_source(self.blobs, job)

    async def _prepare(self, job: Job, task: PrepareTask) -> None:
        ctx, attempt = self.ctx, self.ctx.attempt
        state = {"total": 0, "done": 0, "flushed_at": time.monotonic(), "to_read": 0}
        writer = PageWriter(
            self.blobs,
            self.store,
            lambda written: ctx.report(job.id, PREPARE, written, state["total"] or 1),
        )

        async def flush(*, wait: bool = False) -> None:
            await writer.flush(wait=wait)
            state["flushed_at"] = time.monotonic()

        async def on_count(count: int) -> None:
            state["total"] = count
            ctx.emit(self.store.update_job(job.id, attempt=attempt, pages=count))

        async def on_page(page: RenderedPage) -> None:
            if page.error:
                log_skipped_page(job, page.page_no, page.error, len(page.text))
            text = capped_text(job, page.page_no, page.text, self.settings.max_page_text_chars)
            row = Page(
                job.id,
                page.page_no,
                page.width,
                page.height,
                text=text,
                render_error=page.error,
                rotation=page.rotation,
                rotation_confidence=page.rotation_confidence,
                orientation_note=page.orientation_note,
                orientation_uncertain=page.orientation_uncertain,
                text_layer=page.text_layer,
                image_cover=page.image_cover,
            )
            # the blobs are staged here (hashed and written in threads) and made durable
            # by the flush, together: two fsyncs a blob waited for the disk one by one
            writer.stage(row, page)
            state["to_read"] += needs_ocr(row, self.settings.ocr_min_text_chars)
            state["done"] += 1
            elapsed = time.monotonic() - state["flushed_at"]
            if writer.waiting >= PAGE_FLUSH_COUNT or elapsed > PAGE_FLUSH_SECONDS:
                await flush()  # beside the render: the child's next pages are read
            ctx.check_canceled()  # between two pages: the pages so far are flushed below

        try:
            result = await run_prepare(
                task,
                ctx.deadline,
                ctx.child_pool(),
                on_count=on_count,
                on_page=on_page,
                timeout_hint=coded("prepare_job_timeout", seconds=f"{self.settings.job_timeout:g}"),
                page_timeout=self.settings.page_timeout,
            )
            if not state["to_read"] or self.settings.ocr_engine == OcrEngineName.NONE.value:
                ctx.free_lane()  # no OCR follows: the next job's child may render now
        finally:
            # Pages rendered before a failure are kept (marked undeliverable) as
            # evidence of where it stopped.
            with contextlib.suppress(InvalidTransition):
                await flush(wait=True)
        log.info(
            "job %s (%s): %s pages prepared (%s skipped), render child peak %.0f MB",
            job.id,
            printable(job.file_name),
            result.pages_done,
            len(result.pages_skipped),
            result.child_peak_rss_mb or 0,
        )


def capped_text(job: Job, page_no: int, text: str, limit: int) -> str:
    """A page's text, at most ``limit`` characters. A dense printed page holds about
    ten thousand; millions are a text bomb (a few kilobytes of compressed, repeated
    text) that would fill the database and hold the extractor."""
    if len(text) <= limit:
        return text
    log.warning(
        "job %s (%s): page %s has %s characters of text; the first %s are kept "
        "(MAX_PAGE_TEXT_CHARS)",
        job.id,
        printable(job.file_name),
        page_no,
        len(text),
        limit,
    )
    return text[:limit]


def stored_source(blobs: BlobStore, job: Job) -> Path:
    """The job's bytes on this machine: the stored copy when it is whole, else the
    file taken again from where it was added (a refused file is never stored, and
    a damaged copy is replaced), provided it still has the same content."""
    path = blobs.local_path(job.sha256)
    if path is not None and path.stat().st_size == job.size:
        return path
    original = Path(job.source_path)
    try:
        same = original.is_file() and sha256_file(original)[0] == job.sha256
    except OSError:
        same = False
    if not same:
        code = "stored_copy_damaged" if path is not None else "stored_copy_missing"
        raise UnsupportedInput.coded(
            code, {"file": job.file_name, "path": job.source_path}, file=job.file_name
        )
    blobs.put_file(original)  # verified on the way in (a bad copy is replaced)
    restored = blobs.local_path(job.sha256)
    if restored is None:
        raise DocBatchError.coded("stored_copy_unwritable", {"file": job.file_name})
    return restored
