"""What every extracted document goes through before it is saved, whichever reader
(offline extractor, Claude sync, Claude batch) found it: the same checks, so that the
same document gets the same verdict on every path."""

from __future__ import annotations

from collections.abc import Sequence

from docbatch_gui.checks.duplicates import cleared, mark_duplicates, match_key
from docbatch_gui.domain.models import Document, Page
from docbatch_gui.engine.context import EngineContext
from docbatch_gui.engine.counterparties import with_counterparty_priors
from docbatch_gui.engine.field_checks import field_checks
from docbatch_gui.engine.locating import locate_documents


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
