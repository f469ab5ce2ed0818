"""A job whose file is data (mode ``data``): an УПД or счёт-фактура XML, an ЭДО
package, a Factur-X / ZUGFeRD PDF, a CII or UBL invoice.

Its documents are read exactly from the file: no OCR, no Claude request in any
mode, confidence 1.0 for every value the file states (None for what it does not),
and then the same check and store steps as every other document. A PDF's
pages are still rendered, so Review shows the picture beside the data. What an ЭДО
package carries besides its documents (signatures, the buyer's title) is stored in
the blob store as it came and listed on the job (``attached``), not verified.
"""

from __future__ import annotations

import asyncio
from typing import Any

from docbatch_gui.domain.lines import as_lines
from docbatch_gui.domain.models import Document, Job
from docbatch_gui.engine.render_step import PrepareStep, stored_source
from docbatch_gui.engine.steps import PREPARE, WEIGHTS, JobContext
from docbatch_gui.pipeline.edocs.read import DataReading, read_data_file
from docbatch_gui.pipeline.formats import stored_kind

#: the confidence of a value the file states: it is the document, not a reading of it
STATED = 1.0


def data_documents(job_id: int, reading: DataReading, pages: int) -> list[Document]:
    """The job's documents from what was read, lines included; each spans the file's
    pages (an XML has none: page 1, with no image)."""
    last = max(pages, 1)
    return [
        Document(
            job_id=job_id,
            doc_index=index,
            doc_type=found.doc_type,
            page_from=1,
            page_to=last,
            fields=dict(found.fields),
            confidence={name: STATED for name, value in found.fields.items() if value is not None},
            # every line the file states, checked against the totals like any other
            # document's (the ОКЕИ unit code is kept as the line's ``okei`` column)
            lines=as_lines(found.lines),
        )
        for index, found in enumerate(reading.documents)
    ]


class DataPagesStep:
    """A data file's pages: a PDF's rendered (Review shows the picture beside the
    data), an XML has none."""

    name = PREPARE
    weight = WEIGHTS[PREPARE]

    async def run(self, ctx: JobContext, job: Job) -> Job:
        if stored_kind(stored_source(ctx.blobs, job)) == "pdf":
            return await PrepareStep().run(ctx, job)
        ctx.store.delete_pages(job.id)
        return ctx.store.update_job(job.id, attempt=ctx.attempt, pages=0)


async def read_data(ctx: JobContext, job: Job) -> list[Document]:
    """The documents the file states; what it carries besides is kept as it came."""
    source = stored_source(ctx.blobs, job)
    # bounded parsing, but still CPU: off the event loop
    reading = await asyncio.to_thread(read_data_file, source, job.file_name)
    attached = [_keep(ctx, name, data) for name, data in reading.kept]
    ctx.store.update_job(job.id, attempt=ctx.attempt, attached=attached)
    return data_documents(job.id, reading, len(ctx.store.list_pages(job.id)))


def _keep(ctx: JobContext, name: str, data: bytes) -> dict[str, Any]:
    return {"name": name, "sha256": ctx.blobs.put_bytes(data), "size": len(data)}
