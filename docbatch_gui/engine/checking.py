"""What every extracted document goes through before it is saved, whichever reader
(offline extractor, Claude sync, Claude batch) found it: the same checks, so that the
same document gets the same verdict on every path."""

from __future__ import annotations

from collections.abc import Sequence

from docbatch_gui.domain.models import Document
from docbatch_gui.engine.context import EngineContext
from docbatch_gui.engine.counterparties import with_counterparty_priors
from docbatch_gui.engine.field_checks import field_checks
from docbatch_gui.engine.locating import locate_documents


def checked(ctx: EngineContext, job_id: int, documents: Sequence[Document]) -> list[Document]:
    """``documents`` with what the checks found (codes, lowered confidence, locations)."""
    documents = locate_documents(ctx, job_id, documents)  # first: later checks may use them
    documents = field_checks(ctx, job_id, documents)
    documents = with_counterparty_priors(
        ctx.store, documents, min_confirmed=ctx.settings.counterparty_min_confirmed
    )
    return list(documents)
