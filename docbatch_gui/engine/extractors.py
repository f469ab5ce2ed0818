"""The extract step, and DocBatch's own extractors as plugins (``plugins``): Claude in
sync mode, the offline extractor in a render child, and the data reader of a file
that is data (``data_step``).

An ``Extractor`` turns a prepared job into documents; which one runs is the job's
processing mode, asked of the plugin manager. Batch mode has none here: the batch
engine sends its requests and reads the answers (``batch``, ``batch_results``).
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

from docbatch_gui.domain.errors import DocBatchError, JobTimeout
from docbatch_gui.domain.models import Document, Job
from docbatch_gui.domain.states import JobState, ProcessingMode
from docbatch_gui.engine.data_step import read_data
from docbatch_gui.engine.extraction import SyncExtraction
from docbatch_gui.engine.hooks import hookimpl
from docbatch_gui.engine.separator_step import separator_pages, split_of
from docbatch_gui.engine.steps import EXTRACT, WEIGHTS, JobContext
from docbatch_gui.pipeline.offline_run import extract_in_child, offline_pages
from docbatch_gui.pipeline.separators import split_documents


class ExtractionTimeout(JobTimeout):
    """Extraction ran past the job's deadline (a slow or dripping API)."""


class Extractor(Protocol):
    async def extract(self, ctx: JobContext, job: Job) -> list[Document]:
        """The job's documents, before the checks; reports ``EXTRACT`` progress."""
        ...


class ClaudeSync:
    """Claude in sync mode, the group requests of the job under its deadline."""

    async def extract(self, ctx: JobContext, job: Job) -> list[Document]:
        if ctx.claude is None:
            raise DocBatchError.coded("sync_needs_key", {"file": job.file_name})
        extraction = SyncExtraction(ctx, ctx.claude).extract(job)
        # The SDK's timeout is per read: a server dripping bytes never trips it. A
        # timeout context, not wait_for: on 3.11 wait_for can drop a cancel that
        # arrives as the awaited call finishes (the worker's cancel would be lost).
        try:
            async with asyncio.timeout(max(0.1, ctx.deadline - time.monotonic())):
                return await extraction
        except TimeoutError:
            raise ExtractionTimeout.coded(
                "claude_job_timeout",
                {"file": job.file_name, "seconds": f"{ctx.settings.job_timeout:g}"},
            ) from None


class Offline:
    """The offline extractor, in a render child under the job's deadline."""

    async def extract(self, ctx: JobContext, job: Job) -> list[Document]:
        sheets = separator_pages(job)  # never read as a document
        pages = offline_pages(
            [p for p in ctx.store.list_pages(job.id) if p.page_no not in sheets], ctx.blobs.read
        )
        return await extract_in_child(
            ctx.child_pool(), job.id, job.file_name, pages, ctx.profile, ctx.deadline
        )


class Data:
    """A file that is data: its documents read exactly from it."""

    async def extract(self, ctx: JobContext, job: Job) -> list[Document]:
        return await read_data(ctx, job)


OWN: dict[str, Extractor] = {
    ProcessingMode.SYNC.value: ClaudeSync(),
    ProcessingMode.OFFLINE.value: Offline(),
    ProcessingMode.DATA.value: Data(),
}


@hookimpl
def docbatch_extractor(mode: str) -> Extractor | None:
    return OWN.get(mode)


class ExtractStep:
    """The job's documents, by the extractor of its mode, split at separator sheets;
    they wait in ``ctx.documents`` for the checks and the store."""

    name = EXTRACT
    weight = WEIGHTS[EXTRACT]

    def __init__(self, extractor: Extractor) -> None:
        self.extractor = extractor

    async def run(self, ctx: JobContext, job: Job) -> Job:
        job = ctx.store.transition(job.id, JobState.EXTRACTING, attempt=ctx.attempt)
        ctx.emit(job)
        found = await self.extractor.extract(ctx, job)
        ctx.documents = split_documents(job.id, found, split_of(job))
        return ctx.store.get_job(job.id)
