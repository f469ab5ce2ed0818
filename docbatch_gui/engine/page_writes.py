"""A render's pages written as they come, in flushes that never hold the reading.

A flush makes its pages' blobs durable (``BlobBatch.commit``, in a thread: renames and
fsyncs wait for the disk), then writes their rows: a page row never names a blob that
is not on disk. It runs beside the render: the child's next pages are read while the
flush waits for the disk. Awaited in the page callback, a flush held the reading, and
the child, once its pipe was full, waited for it: on a busy disk (the shared machine
under load) the bench's render child was on a core 82-87 % of its time. One flush is
in flight at a time and the next waits for it, so rows are written in page order; the
pages staged meanwhile go into a batch of their own. A cancelled wait leaves the flush
running (it is shielded); the last flush, awaited, writes what it and the pages after
it hold.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from docbatch_gui.domain.models import Page
from docbatch_gui.engine.extraction import remember_layout
from docbatch_gui.pipeline.render import RenderedPage
from docbatch_gui.pipeline.words import as_words, encode
from docbatch_gui.storage.blob_batch import BlobBatch, PutBlob
from docbatch_gui.storage.blobs import BlobStore

log = logging.getLogger(__name__)


class PageRows(Protocol):
    """Where the rows go: the store (a bench may count them instead)."""

    def put_pages(self, pages: list[Page]) -> None: ...


class PageWriter:
    """The pages of one render: staged, then written by ``flush``; ``on_written``
    hears how many pages are written so far after each flush."""

    def __init__(
        self, blobs: BlobStore, store: PageRows, on_written: Callable[[int], object]
    ) -> None:
        self._blobs = blobs
        self._store = store
        self._on_written = on_written
        self._batch = BlobBatch(blobs)
        self._pending: list[StagedPage] = []
        self._writing: asyncio.Task[None] | None = None
        self._written = 0

    @property
    def waiting(self) -> int:
        """Pages staged and not yet in a flush."""
        return len(self._pending)

    def stage(self, row: Page, page: RenderedPage) -> None:
        """``row`` of the rendered ``page``, its blobs put in the next flush's batch."""
        self._pending.append(StagedPage.of(self._batch, row, page))

    async def flush(self, *, wait: bool) -> None:
        """Start writing the pages staged so far, once the flush before has ended (its
        failure raised here); with ``wait``, until they are written."""
        await self._previous()
        if self._pending:
            pages, batch = self._pending, self._batch
            self._pending, self._batch = [], BlobBatch(self._blobs)
            self._writing = asyncio.create_task(self._write(pages, batch))
            self._writing.add_done_callback(_retrieved)
            if wait:
                await self._previous()
        else:
            self._on_written(self._written)

    async def _previous(self) -> None:
        writing = self._writing
        if writing is None:
            return
        try:
            await asyncio.shield(writing)
        finally:
            if writing.done():
                self._writing = None

    async def _write(self, pages: list[StagedPage], batch: BlobBatch) -> None:
        await asyncio.to_thread(batch.commit)  # a failure: no row may name its blobs
        self._store.put_pages([staged.row() for staged in pages])
        self._written += len(pages)
        self._on_written(self._written)


def _retrieved(task: asyncio.Task[None]) -> None:
    """A flush's failure is raised by the next ``flush``; one that no call awaited (its
    job's task was canceled twice) is logged, not left unretrieved."""
    if not task.cancelled() and (failure := task.exception()) is not None:
        log.debug("a page flush failed: %s", failure)


@dataclass
class StagedPage:
    """A page row waiting for its flush, and its blobs put in the flush's batch: its
    image, thumbnail, words and small image."""

    base: Page
    blobs: dict[str, PutBlob]
    #: the table the child judged (its key and layout): remembered, not judged again
    table: tuple[str, str | None] | None

    @classmethod
    def of(cls, batch: BlobBatch, row: Page, page: RenderedPage) -> StagedPage:
        words = page.words_blob or (encode(as_words(page.words)) if page.words else b"")
        blobs = {
            name: batch.put(data)
            for name, data in (
                ("image_sha", page.image),
                ("thumb_sha", page.thumb),
                ("words_sha", words),
                ("small_image_sha", page.small_image),
            )
            if data
        }
        table = (page.table_key, page.table_layout) if page.table_key else None
        return cls(row, blobs, table)

    def row(self) -> Page:
        """The row naming its blobs, once the batch is committed (their keys known)."""
        words = self.key("words_sha")
        if self.table is not None and words:  # the child judged its table: not again
            remember_layout(words, *self.table)
        return replace(
            self.base,
            image_sha=self.key("image_sha"),
            thumb_sha=self.key("thumb_sha"),
            words_sha=words,
            small_image_sha=self.key("small_image_sha"),
        )

    def key(self, name: str) -> str | None:
        blob = self.blobs.get(name)
        return blob.key if blob is not None else None
