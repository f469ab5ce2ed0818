"""A job whose file is data (mode ``data``): an УПД or счёт-фактура XML, an ЭДО
package, a Factur-X / ZUGFeRD PDF, a CII or UBL invoice.

Its documents are read exactly from the file: no OCR, no Claude request in any
mode, confidence 1.0 for every value the file states (None for what it does not),
and then the same checks as every other document (``store_documents``). A PDF's
pages are still rendered, so Review shows the picture beside the data. What an ЭДО
package carries besides its documents (signatures, the buyer's title) is stored in
the blob store as it came and listed on the job (``attached``), not verified.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from docbatch_gui.domain.lines import as_lines
from docbatch_gui.domain.models import Document, Job
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.context import EngineContext
from docbatch_gui.engine.documents import final_state, finished, store_documents
from docbatch_gui.engine.render_step import RenderStep
from docbatch_gui.pipeline.edocs.read import DataReading, read_data_file
from docbatch_gui.pipeline.formats import stored_kind
from docbatch_gui.pipeline.isolate import ChildPool

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


class DataStep:
    def __init__(self, ctx: EngineContext, pool: ChildPool, emit: Callable[[Job], Job]) -> None:
        self.ctx = ctx
        self.pool = pool
        self.emit = emit

    async def run(self, job: Job, attempt: int, deadline: float) -> Job:
        store = self.ctx.store
        render = RenderStep(self.ctx, self.pool, self.emit)
        source = render.stored_source(job)
        if stored_kind(source) == "pdf":
            if not render.pages_ready(job):
                await render.run(job, attempt, deadline)
        else:
            store.delete_pages(job.id)
            store.update_job(job.id, attempt=attempt, pages=0)
        job = self.emit(
            store.transition(job.id, JobState.EXTRACTING, attempt=attempt, progress=0.9)
        )
        # bounded parsing, but still CPU: off the event loop
        reading = await asyncio.to_thread(read_data_file, source, job.file_name)
        attached = [self._keep(name, data) for name, data in reading.kept]
        store.update_job(job.id, attempt=attempt, attached=attached)
        store.transition(job.id, JobState.BUILDING, attempt=attempt)
        pages = len(store.list_pages(job.id))
        stored = store_documents(self.ctx, job.id, data_documents(job.id, reading, pages))
        job = store.transition(job.id, final_state(stored), attempt=attempt, progress=1.0)
        return self.emit(finished(self.ctx, job))

    def _keep(self, name: str, data: bytes) -> dict[str, Any]:
        return {"name": name, "sha256": self.ctx.blobs.put_bytes(data), "size": len(data)}
