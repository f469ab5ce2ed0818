"""The field checks (``docbatch_gui.checks``) as the engine runs them: with the
profile and the settings of the engine, and the text of each document's own pages."""

from __future__ import annotations

from collections.abc import Sequence

from docbatch_gui.checks import DocumentChecker, document_text
from docbatch_gui.domain.models import Document, Page
from docbatch_gui.engine.context import EngineContext


def field_checks(
    ctx: EngineContext,
    job_id: int,
    documents: Sequence[Document],
    pages: Sequence[Page] | None = None,
) -> list[Document]:
    """Each document with its failed checks as codes, before it is saved; ``pages``:
    the job's pages, when the caller read them already."""
    if not documents:
        return []
    checker = DocumentChecker(ctx.profile, min_year=ctx.settings.check_min_year)
    if pages is None:
        pages = ctx.store.list_pages(job_id)
    return [checker.check(d, document_text(d, pages)) for d in documents]
