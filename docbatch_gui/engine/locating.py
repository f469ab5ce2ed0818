"""Each extracted value located on the job's pages: the pages' words, read from the
blob store, handed to the pure matcher (``checks/locate.py``)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from docbatch_gui.checks.locate import PageWords, located, searched_pages
from docbatch_gui.domain.models import Document, Page
from docbatch_gui.engine.context import EngineContext
from docbatch_gui.pipeline.words import decode

log = logging.getLogger(__name__)


def locate_documents(
    ctx: EngineContext,
    job_id: int,
    documents: Sequence[Document],
    job_pages: Sequence[Page] | None = None,
) -> list[Document]:
    """``documents`` with ``locations``, and ``not_on_page`` for values found nowhere;
    ``job_pages``: the job's pages, when the caller read them already."""
    if not documents:
        return []
    if job_pages is None:
        job_pages = ctx.store.list_pages(job_id)
    pages = {page.page_no: page for page in job_pages}
    read: dict[int, PageWords] = {}

    def words(page_no: int) -> PageWords:
        if page_no not in read:
            page = pages.get(page_no)
            read[page_no] = PageWords(())
            if page is not None and page.words_sha:
                try:
                    read[page_no] = PageWords(decode(ctx.blobs.read(page.words_sha)))
                except Exception as exc:  # missing or unreadable (any backend): cannot tell
                    log.warning("job %s page %s: words unreadable (%s)", job_id, page_no, exc)
        return read[page_no]

    return [located(d, {n: words(n) for n in searched_pages(d)}, ctx.profile) for d in documents]
