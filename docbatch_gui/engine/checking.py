"""What every extracted document goes through before it is saved, whichever reader
(offline extractor, Claude sync, Claude batch) found it: the same checks, so that the
same document gets the same verdict on every path."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from docbatch_gui.checks.document import DocumentChecker, document_text
from docbatch_gui.checks.duplicates import cleared, mark_duplicates, match_key
from docbatch_gui.checks.locate import PageWords, located, searched_pages
from docbatch_gui.domain.models import Document, Page
from docbatch_gui.engine.context import EngineContext
from docbatch_gui.engine.counterparties import with_counterparty_priors
from docbatch_gui.pipeline.words import decode

log = logging.getLogger(__name__)


def checked(
    ctx: EngineContext,
    job_id: int,
    documents: Sequence[Document],
    pages: Sequence[Page] | None = None,
) -> list[Document]:
    """``documents`` with what the checks found (codes, lowered confidence, locations);
    ``pages``: the job's pages, when the caller read them already (read once here
    otherwise: every check reads them)."""
    if pages is None:
        pages = ctx.store.list_pages(job_id) if documents else []
    documents = locate_documents(ctx, job_id, documents, pages)  # first: later checks use them
    documents = field_checks(ctx, job_id, documents, pages)
    documents = with_counterparty_priors(
        ctx.store, documents, min_confirmed=ctx.settings.counterparty_min_confirmed
    )
    return likely_duplicates(ctx, job_id, documents)


def likely_duplicates(
    ctx: EngineContext, job_id: int, documents: Sequence[Document]
) -> list[Document]:
    """Marked ``likely_duplicate`` where a document of another job is the same one:
    compared only with the documents sharing a number and amount (an indexed store
    query), so the cost per document does not grow with the store."""
    keys = sorted({key for d in documents if (key := match_key(d.fields))})
    others = [
        d for key in keys for d in ctx.store.documents_matching(key) if d.job_id != job_id
    ]  # fmt: skip
    if not others:
        return list(documents)
    wanted = {job_id} | {d.job_id for d in others}
    jobs = {job.id: job for job in ctx.store.list_jobs(ids=wanted)}
    # the same bytes processed again on purpose (--force): the file hash said so already
    content = jobs[job_id].sha256 if job_id in jobs else None
    others = [d for d in others if d.job_id in jobs and jobs[d.job_id].sha256 != content]
    names = {i: job.file_name for i, job in jobs.items()}
    before = set().union(*(cleared(d) for d in ctx.store.list_documents(job_id)))
    return mark_duplicates(documents, others, names, before)


def field_checks(
    ctx: EngineContext,
    job_id: int,
    documents: Sequence[Document],
    pages: Sequence[Page] | None = None,
) -> list[Document]:
    """Each document with its failed checks (``docbatch_gui.checks``) as codes, read
    against the text of its own pages; ``pages``: the job's pages, when the caller read
    them already."""
    if not documents:
        return []
    checker = DocumentChecker(ctx.profile, min_year=ctx.settings.check_min_year)
    if pages is None:
        pages = ctx.store.list_pages(job_id)
    return [checker.check(d, document_text(d, pages)) for d in documents]


def locate_documents(
    ctx: EngineContext,
    job_id: int,
    documents: Sequence[Document],
    job_pages: Sequence[Page] | None = None,
) -> list[Document]:
    """``documents`` with ``locations``, and ``not_on_page`` for values found nowhere:
    the pages' words, read from the blob store, handed to the pure matcher
    (``checks/locate.py``); ``job_pages``: the job's pages, when the caller read them
    already."""
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
