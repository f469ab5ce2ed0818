"""Review: a person corrects and confirms what the model found.

Every change is kept on the document with who made it and when (the audit trail),
so an auditor can tell a value the model read from one a person typed. Confirming
the last unconfirmed document of a ``needs_review`` job moves the job to ``done``.

An edit is judged like a reader's value: the edited fields lose their old reasons,
the field checks run again on the new values (a typed INN must pass its checksum
too, VAT must still fit a corrected total), and a document confirmed before the
edit is no longer confirmed until the person confirms it again.

A confirmed document is also remembered under its seller's INN, so the next document
of that seller is checked against it (``checks.counterparty``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from docbatch_gui.app.review_lines import lines_audit, normalized_lines
from docbatch_gui.checks.counterparty import SELLER_INN, clean_inn, confirmed_entry
from docbatch_gui.checks.document import DocumentChecker, document_text
from docbatch_gui.checks.duplicates import CODE as DUPLICATE_CODE
from docbatch_gui.checks.duplicates import NOT_DUPLICATE
from docbatch_gui.config.profile import load_profile
from docbatch_gui.domain.counterparty import Counterparty
from docbatch_gui.domain.errors import DocBatchError, ErrorKind, ExitCode, NotFound
from docbatch_gui.domain.lines import Line
from docbatch_gui.domain.models import Document, Job
from docbatch_gui.domain.normalize import normalize_amount, normalize_date, normalize_number
from docbatch_gui.domain.reasons import without_fields
from docbatch_gui.domain.states import JobState
from docbatch_gui.domain.text import clean_value
from docbatch_gui.storage.store import Store

log = logging.getLogger(__name__)

#: the confidence a value a person typed or confirmed gets
HUMAN_CONFIDENCE = 1.0
#: the audit action of a separator sheet a person took into a document (its ``new``
#: is the sheet's page): the split it made is moved
SHEET_TAKEN = "separator_taken"


class ReviewError(DocBatchError):
    """An edit that cannot be saved as given (the message says what to change)."""

    kind = ErrorKind.UNSUPPORTED
    exit_code = ExitCode.UNSUPPORTED


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def normalize_field(name: str, value: str | None) -> str | None:
    """Store typed values as the extractor does (ISO dates, dot-decimal amounts), and
    refuse what cannot be read rather than store it wrong."""
    if value is None or not value.strip():
        return None
    value = clean_value(value).strip()
    if name == "date" or name.endswith("_date"):
        iso = normalize_date(value)
        if iso is None:
            raise ReviewError.coded("review_not_a_date", {"value": value})
        return iso
    if name == "amount" or name.endswith("_amount"):
        amount = normalize_amount(value)
        if amount is None:
            raise ReviewError.coded("review_not_an_amount", {"value": value})
        return amount
    return value


class ReviewService:
    def __init__(
        self,
        store: Store,
        on_final: Callable[[Job], object] | None = None,
        *,
        checker: DocumentChecker | None = None,
        keep_values: int = 5,
    ) -> None:
        """``checker`` holds the engine's profile and settings; without one, the
        bundled profile with the default settings."""
        self.store = store
        #: told when a confirmation finishes a job (the webhook)
        self.on_final = on_final
        self._checker = checker
        #: how many of a seller's newest confirmed documents keep their values
        self.keep_values = keep_values

    @property
    def checker(self) -> DocumentChecker:
        if self._checker is None:
            self._checker = DocumentChecker(load_profile())
        return self._checker

    def waiting(self) -> list[Job]:
        """Every job waiting for a person, oldest first."""
        return self.store.list_jobs(states=[JobState.NEEDS_REVIEW])

    def document(self, job_id: int, doc_index: int) -> Document:
        for doc in self.store.list_documents(job_id):
            if doc.doc_index == doc_index:
                return doc
        raise NotFound("document", doc_index, f"job {job_id} has no document {doc_index}")

    def uncovered_pages(self, job_id: int) -> list[int]:
        """The job's pages no document covers (a range narrowed by a person leaves its
        tail in no document: nothing of it reaches an export or a registry)."""
        total = self.store.get_job(job_id).pages or 0
        covered: set[int] = set()
        for doc in self.store.list_documents(job_id):
            covered.update(range(doc.page_from, doc.page_to + 1))
        return [page for page in range(1, total + 1) if page not in covered]

    def edit(
        self,
        job_id: int,
        doc_index: int,
        *,
        who: str,
        fields: dict[str, str | None] | None = None,
        doc_type: str | None = None,
        pages: tuple[int, int] | None = None,
        lines: Sequence[Line] | None = None,
    ) -> Document:
        """Save a person's corrections; unchanged values leave no audit entry.
        ``lines`` is the whole list of lines as the person left it (the Review grid)."""
        docs = self.store.list_documents(job_id)
        doc = next((d for d in docs if d.doc_index == doc_index), None)
        if doc is None:
            raise NotFound("document", doc_index, f"job {job_id} has no document {doc_index}")
        at = _now()
        audit = list(doc.audit)
        new_fields = dict(doc.fields)
        confidence = dict(doc.confidence)
        for name, typed in (fields or {}).items():
            value = normalize_field(name, typed)
            if value != doc.fields.get(name):
                audit.append(_entry(at, who, "edit", name, doc.fields.get(name), value))
                new_fields[name] = value
                confidence[name] = HUMAN_CONFIDENCE
        changes: dict[str, Any] = {}
        if doc_type is not None and doc_type.strip() and doc_type != doc.doc_type:
            audit.append(_entry(at, who, "type", "doc_type", doc.doc_type, doc_type.strip()))
            changes["doc_type"] = doc_type.strip()
        if pages is not None and pages != (doc.page_from, doc.page_to):
            self._check_pages(job_id, pages)
            old = f"{doc.page_from}-{doc.page_to}"
            audit.append(_entry(at, who, "pages", "pages", old, f"{pages[0]}-{pages[1]}"))
            changes.update(page_from=pages[0], page_to=pages[1])
            for sheet in self._take_sheets(job_id, pages, at, who):  # a split moved
                audit.append(_entry(at, who, SHEET_TAKEN, None, None, sheet))
        if lines is not None:
            profile = self.checker.profile
            typed_lines = normalized_lines(lines, profile)
            entries = lines_audit(doc.lines, typed_lines, profile, at, who)
            if entries:
                audit.extend(entries)
                changes["lines"] = typed_lines
        if len(audit) == len(doc.audit):
            return doc
        log.info(
            "job %d document %d (id %s) edited by %s: %s",
            job_id, doc_index, doc.id, who, _changes(audit[len(doc.audit) :]),
        )  # fmt: skip
        edited = {str(e["field"]) for e in audit[len(doc.audit) :] if e["action"] == "edit"}
        updated = replace(
            doc,
            fields=new_fields,
            confidence=confidence,
            audit=audit,
            review_codes=without_fields(doc.review_codes, edited),
            confirmed_by=None,
            confirmed_at=None,
            **changes,
        )
        return self.store.update_document(self._rechecked(updated))

    def _rechecked(self, document: Document) -> Document:
        """The field checks on the edited values; the document needs review while any
        reason is left (confirming is the person's own step)."""
        text = document_text(document, self.store.list_pages(document.job_id))
        checked = self.checker.check(document, text)
        return replace(checked, needs_review=bool(checked.review_codes))

    def confirm(self, job_id: int, doc_index: int, *, who: str) -> tuple[Document, Job]:
        """Mark the document checked by a person; the job is done when all are."""
        docs = self.store.list_documents(job_id)
        doc = next((d for d in docs if d.doc_index == doc_index), None)
        if doc is None:
            raise NotFound("document", doc_index, f"job {job_id} has no document {doc_index}")
        at = _now()
        updated = replace(
            doc,
            needs_review=False,
            confirmed_by=who,
            confirmed_at=at,
            audit=[*doc.audit, _entry(at, who, "confirm", None, None, None)],
        )
        saved = self.store.update_document(updated)  # in place: the id and matches stay
        log.info("job %d document %d (id %s) confirmed by %s", job_id, doc_index, doc.id, who)
        entry = confirmed_entry(saved, at)
        if entry is not None:
            self.store.remember_confirmed(entry, keep=self.keep_values)
        job = self.store.get_job(job_id)
        remaining = [
            d for d in self.store.list_documents(job_id) if d.needs_review and not d.confirmed_by
        ]
        if job.state is JobState.NEEDS_REVIEW and not remaining:
            job = self.store.transition(
                job_id, JobState.DONE, expected=JobState.NEEDS_REVIEW, error=None
            )
            log.info("job %d done: every document it needed reviewed is confirmed", job_id)
            if self.on_final is not None:
                self.on_final(job)
        return saved, job

    def not_a_duplicate(self, job_id: int, doc_index: int, *, who: str) -> Document:
        """A person says the document is not the one its ``likely_duplicate`` names:
        the code goes, and the answer stays in the audit so it is never asked again
        (a reprocess included). NotFound when the document is not marked."""
        doc = self.document(job_id, doc_index)
        marks = [c for c in doc.review_codes if c.code == DUPLICATE_CODE]
        if not marks:
            raise NotFound("likely duplicate", doc_index, f"job {job_id} document {doc_index} "
                           "is not marked as a likely duplicate")  # fmt: skip
        at = _now()
        audit = [*doc.audit]
        for mark in marks:
            other = mark.params.get("document")
            audit.append(_entry(at, who, NOT_DUPLICATE, None, None, str(other)))
        codes = [c for c in doc.review_codes if c.code != DUPLICATE_CODE]
        updated = replace(doc, review_codes=codes, audit=audit, needs_review=bool(codes))
        log.info("job %d document %d (id %s) marked not a duplicate by %s",
                 job_id, doc_index, doc.id, who)  # fmt: skip
        return self.store.update_document(updated)

    # -- what confirmed documents taught ----------------------------------------------

    def counterparty_of(self, document: Document) -> Counterparty | None:
        """What is remembered of the document's seller (by its INN), if anything."""
        inn = clean_inn(document.fields.get(SELLER_INN))
        return self.store.counterparty(inn) if inn else None

    def counterparties(self) -> list[Counterparty]:
        return self.store.list_counterparties()

    def forget_counterparty(self, inn: str) -> int:
        """Forget one seller; NotFound when nothing is remembered of ``inn``. The INN
        is read as the checks read it: its digits ("7707 083 893" is 7707083893)."""
        forgotten = self.store.forget_counterparty(normalize_number(inn))
        log.info("counterparty %s forgotten (%d documents)", normalize_number(inn), forgotten)
        return forgotten

    def forget_confirmation(self, document_id: int) -> str:
        """Forget what one confirmed document taught of its seller (a confirmation
        made by mistake, or in bad faith); returns the seller's INN. NotFound when
        the document taught nothing."""
        inn = self.store.forget_confirmed_document(document_id)
        log.info("what document %d taught of counterparty %s is forgotten", document_id, inn)
        return inn

    def _take_sheets(self, job_id: int, pages: tuple[int, int], at: str, who: str) -> list[int]:
        """The separator sheets a person's new range takes in: the split they made is
        moved (the page is a document's page from now on), and the job's split says
        so (``moved``: page, who, when) beside the sheets left."""
        job = self.store.get_job(job_id)
        split = dict(job.split or {})
        sheets = [int(p) for p in split.get("separators") or []]
        taken = [p for p in sheets if pages[0] <= p <= pages[1]]
        if taken:
            split["separators"] = [p for p in sheets if p not in taken]
            moved = [{"page": p, "who": who, "at": at} for p in taken]
            split["moved"] = [*split.get("moved", []), *moved]
            self.store.update_job(job_id, split=split)
        return taken

    def _check_pages(self, job_id: int, pages: tuple[int, int]) -> None:
        first, last = pages
        total = self.store.get_job(job_id).pages or 0
        if not 1 <= first <= last <= max(total, 1):
            raise ReviewError.coded(
                "review_pages_outside", {"first": first, "last": last, "total": total}
            )


def _short(value: Any, most: int = 40) -> str:
    """A value as a log line shows it: quoted, and cut past ``most`` characters."""
    if value is None:
        return "(empty)"
    text = " ".join(str(value).split())
    return repr(text if len(text) <= most else text[: most - 1] + "…")


def _changes(entries: Sequence[dict[str, Any]]) -> str:
    """ "amount '100.00' → '120.00', doc_type 'invoice' → 'act', 3 line changes" """
    said: list[str] = []
    lines = 0
    for entry in entries:
        if entry["action"] in ("edit", "type", "pages"):
            said.append(f"{entry['field']} {_short(entry['old'])} → {_short(entry['new'])}")
        else:
            lines += 1
    if lines:
        said.append(f"{lines} line change{'s' if lines != 1 else ''}")
    return ", ".join(said)


def _entry(at: str, who: str, action: str, field: str | None, old: Any, new: Any) -> dict[str, Any]:
    return {"at": at, "who": who, "action": action, "field": field, "old": old, "new": new}
