"""Saving a job's documents without losing what a person did to them.

Processing a file again (a retry, a reprocess) extracts its documents afresh. A
person may have corrected or confirmed the earlier ones, and registry rows may point
at them. So:

- a new document the model found on the same pages as an earlier one (the pages the
  model gave, before any correction) is that document: it keeps its id, so registry
  matches stay valid, and the person's corrections are carried over (edited fields,
  type, page range, and the confirmation if nothing else changed);
- an earlier document a person touched that is not found again is archived as it
  was (``Store.document_history``), so the audit trail is never lost;
- a document that is gone leaves its registry matches pointing nowhere; the registry
  service re-matches such rows when they are next read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from docbatch_gui.domain.errors import DocBatchError, ErrorKind, ExitCode
from docbatch_gui.domain.models import Document, Job
from docbatch_gui.domain.reasons import ReviewCode, without_fields
from docbatch_gui.domain.states import JobState
from docbatch_gui.domain.text import clean_value
from docbatch_gui.engine.checking import checked
from docbatch_gui.engine.context import EngineContext
from docbatch_gui.engine.events import job_finished
from docbatch_gui.engine.faults import crash_point
from docbatch_gui.engine.steps import CHECK, STORE, WEIGHTS, JobContext
from docbatch_gui.pipeline.review import with_page_notes
from docbatch_gui.storage.store import Store

NOT_FOUND_AGAIN = "not found again when the file was processed again"
CANCELED = "the job was canceled by the operator"


class CorrectionsAtRisk(DocBatchError):
    """Processing again would re-read documents a person corrected or confirmed."""

    kind = ErrorKind.UNSUPPORTED
    exit_code = ExitCode.WRONG_STATE  # refused as things are; --force says go ahead


def corrected(documents: Sequence[Document]) -> list[Document]:
    """Documents a person edited or confirmed."""
    return [d for d in documents if d.audit or d.confirmed_by]


def check_corrections(store: Store, job_id: int, file_name: str, *, force: bool) -> None:
    """Refuse to process a job again over a person's work unless ``force``."""
    touched = corrected(store.list_documents(job_id))
    if touched and not force:
        raise CorrectionsAtRisk.coded(
            "corrections_at_risk", {"file": file_name, "count": len(touched)}
        )


def final_state(documents: Sequence[Document]) -> JobState:
    """Done only when documents were found and none waits for a person."""
    if not documents or any(d.needs_review for d in documents):
        return JobState.NEEDS_REVIEW
    return JobState.DONE


def finished(ctx: EngineContext, job: Job) -> Job:
    """A job reached its final state: the "job finished" event (``events``)."""
    return job_finished.publish(ctx, job)


class CheckStep:
    """What every extracted document goes through, whichever reader found it."""

    name = CHECK
    weight = WEIGHTS[CHECK]

    def __init__(self, known: tuple[Sequence[Document], Sequence[Document]] | None = None) -> None:
        #: documents checked a moment ago and what the checks made of them (the
        #: escalation's decision, ``Escalation.take_checked``): used when the job's
        #: documents are the same, instead of checking them again
        self.known = known

    async def run(self, ctx: JobContext, job: Job) -> Job:
        job = ctx.store.transition(job.id, JobState.BUILDING, attempt=ctx.attempt)
        ctx.emit(job)
        crash_point("mid_build")
        if self.known is not None and list(self.known[0]) == list(ctx.documents):
            ctx.documents = list(self.known[1])
        else:
            ctx.documents = checked_documents(ctx.engine, job.id, ctx.documents)
        return job


class StoreStep:
    """The documents saved (a person's corrections carried over), the job moved to
    its final state with its bar full, and the "job finished" event told."""

    name = STORE
    weight = WEIGHTS[STORE]

    def __init__(self, **final: Any) -> None:
        #: more fields of the final move (the batch engine's costs and routing)
        self.final = final

    async def run(self, ctx: JobContext, job: Job) -> Job:
        documents = kept_documents(ctx.store, job.id, ctx.documents)
        ctx.documents = documents
        crash_point("after_documents")
        full = ctx.bar.done(STORE)
        ctx.high_water = full
        job = ctx.store.transition(
            job.id,
            final_state(documents),
            expected=JobState.BUILDING,
            attempt=ctx.attempt,
            progress=full,
            **self.final,
        )
        ctx.emit(finished(ctx.engine, job))
        return job


def checked_documents(
    ctx: EngineContext, job_id: int, documents: Sequence[Document]
) -> list[Document]:
    """Cleaned values, the pages' notes, and what the checks found."""
    pages = ctx.store.list_pages(job_id)
    fresh = with_page_notes([_cleaned(d) for d in documents], pages)
    return checked(ctx, job_id, fresh, pages)


def kept_documents(store: Store, job_id: int, documents: Sequence[Document]) -> list[Document]:
    """Saved over the job's earlier documents, corrections carried over."""
    kept, lost = carry_corrections(store.list_documents(job_id), documents)
    if lost:
        store.archive_documents(job_id, lost, NOT_FOUND_AGAIN)
    return store.replace_documents(job_id, kept)


def discard_documents(store: Store, job_id: int) -> int:
    """A canceled job keeps no documents: what a canceled run (or the run before it)
    left must never reach the Review tab or a registry export. Documents a person
    corrected are archived first, so the audit trail stays. Returns how many went."""
    documents = store.list_documents(job_id)
    if not documents:
        return 0
    touched = corrected(documents)
    if touched:
        store.archive_documents(job_id, touched, CANCELED)
    store.replace_documents(job_id, [])
    return len(documents)


def _cleaned(document: Document) -> Document:
    """Values without control or direction characters, whichever reader found them."""

    def clean(values: dict[str, str | None]) -> dict[str, str | None]:
        return {k: clean_value(v) if isinstance(v, str) else v for k, v in values.items()}

    return replace(
        document,
        doc_type=clean_value(document.doc_type),
        fields=clean(document.fields),
        filename_fields=clean(document.filename_fields),
    )


def carry_corrections(
    old: Sequence[Document], new: Sequence[Document]
) -> tuple[list[Document], list[Document]]:
    """(new documents with the ids and corrections of the earlier ones they match,
    earlier documents a person touched that matched none)."""
    unused = list(old)
    kept = []
    for document in new:
        match = _same_document(unused, document)
        if match is None:
            kept.append(replace(document, id=None))
            continue
        unused.remove(match)
        kept.append(
            _carried(match, document) if corrected([match]) else replace(document, id=match.id)
        )
    return kept, corrected(unused)


def _same_document(candidates: Sequence[Document], document: Document) -> Document | None:
    """The earlier document the model found on the same pages (same type first)."""
    pages = (document.page_from, document.page_to)
    same_pages = [c for c in candidates if _model_pages(c) == pages]
    typed = [c for c in same_pages if _model_type(c) == document.doc_type]
    found = typed or same_pages
    return found[0] if found else None


def _model_pages(document: Document) -> tuple[int, int]:
    """The page range the model gave, before any correction."""
    for entry in document.audit:
        if entry.get("action") == "pages" and isinstance(entry.get("old"), str):
            first, _, last = entry["old"].partition("-")
            if first.isdigit() and last.isdigit():
                return int(first), int(last)
    return document.page_from, document.page_to


def _model_type(document: Document) -> str:
    for entry in document.audit:
        if entry.get("action") == "type" and entry.get("old"):
            return str(entry["old"])
    return document.doc_type


def _carried(earlier: Document, document: Document) -> Document:
    """``document`` with what the person did to ``earlier``."""
    actions = {entry.get("action") for entry in earlier.audit}
    edited = {
        str(e["field"]) for e in earlier.audit if e.get("action") == "edit" and e.get("field")
    }
    fields = dict(document.fields)
    confidence = dict(document.confidence)
    for name in edited:
        fields[name] = earlier.fields.get(name)
        confidence[name] = earlier.confidence.get(name, 1.0)
    changes: dict[str, Any] = {}
    if "type" in actions:
        changes["doc_type"] = earlier.doc_type
    if "pages" in actions:
        changes.update(page_from=earlier.page_from, page_to=earlier.page_to)
    changed = sorted(
        name
        for name in set(fields) | set(earlier.fields)
        if name not in edited and fields.get(name) != earlier.fields.get(name)
    )
    at = datetime.now(UTC).isoformat(timespec="seconds")
    note = {"at": at, "who": "docbatch", "action": "reprocess", "field": None, "old": None}
    if earlier.confirmed_by and not changed:
        confirmation: dict[str, Any] = {
            "confirmed_by": earlier.confirmed_by,
            "confirmed_at": earlier.confirmed_at,
            "needs_review": False,
            "review_codes": [],
        }
        note["new"] = "found again: corrections and confirmation carried over"
    else:
        reasons = without_fields(document.review_codes, edited)
        if earlier.confirmed_by:
            reasons.append(
                ReviewCode(
                    "reprocessed_after_confirm",
                    params={"who": earlier.confirmed_by, "changed": ", ".join(changed)},
                )
            )
        confirmation = {
            "confirmed_by": None,
            "confirmed_at": None,
            "needs_review": bool(reasons),
            "review_codes": reasons,
        }
        note["new"] = "found again: corrections carried over"
    return replace(
        document,
        id=earlier.id,
        fields=fields,
        confidence=confidence,
        audit=[*earlier.audit, note],
        **changes,
        **confirmation,
    )
