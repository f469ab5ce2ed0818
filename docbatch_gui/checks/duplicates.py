"""Likely duplicates across files: the same invoice scanned twice, or sent as a PDF
and photographed, is two files with two hashes but one document.

Two documents of different jobs are likely the same when their seller's INN, number,
date and amount all agree; when either misses the INN or the date (unread), number
and amount agreeing is enough. Numbers are compared without spaces, "№" and case;
amounts as numbers to the kopeck. The later document gets the review code
``likely_duplicate`` naming the earlier one; a person's *Not a duplicate* clears it
and is remembered in the document's audit (``NOT_DUPLICATE``), so processing the
file again does not mark it again. A document still marked stands for the same
document as the one it names: exports and the registry match leave it out wherever
that one is in them too.

Number and amount agree in every case of the rule, so the stores keep them as one
indexed key (``match_key``): a saved document is compared with the few documents
sharing its key, never with the whole store.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from decimal import Decimal, InvalidOperation

from docbatch_gui.domain.models import Document
from docbatch_gui.domain.reasons import ReviewCode

CODE = "likely_duplicate"
#: the audit action of a person's "Not a duplicate" (its ``new`` is the other's id)
NOT_DUPLICATE = "not_duplicate"


def _number(value: str | None) -> str | None:
    text = re.sub(r"[\s№#]", "", value or "").upper()
    return text or None


def _amount(value: str | None) -> Decimal | None:
    try:
        return Decimal(str(value)).quantize(Decimal("0.01")) if value else None
    except (InvalidOperation, ValueError):
        return None


def _inn(value: str | None) -> str | None:
    digits = re.sub(r"\D", "", value or "")
    return digits or None


def match_key(fields: Mapping[str, str | None]) -> str:
    """The number and amount as the stores index them ("" when either is unread: such
    a document is never a likely duplicate)."""
    number, amount = _number(fields.get("number")), _amount(fields.get("amount"))
    return f"{number}|{amount}" if number is not None and amount is not None else ""


def same_document(a: Document, b: Document) -> bool:
    """Whether ``a`` and ``b`` are likely one document (see the module's rule)."""
    number, amount = _number(a.fields.get("number")), _amount(a.fields.get("amount"))
    if number is None or amount is None:
        return False
    if number != _number(b.fields.get("number")) or amount != _amount(b.fields.get("amount")):
        return False
    inns = _inn(a.fields.get("seller_tax_id")), _inn(b.fields.get("seller_tax_id"))
    dates = a.fields.get("date"), b.fields.get("date")
    if None in inns or None in dates:
        return True  # the rest is unread on one side: number and amount decide
    return inns[0] == inns[1] and dates[0] == dates[1]


def cleared(document: Document) -> set[int]:
    """The documents a person said this one is not a duplicate of."""
    return {
        int(entry["new"])
        for entry in document.audit
        if entry.get("action") == NOT_DUPLICATE and str(entry.get("new", "")).isdigit()
    }


def is_marked(document: Document) -> bool:
    return any(code.code == CODE for code in document.review_codes)


def mark_duplicates(
    documents: Sequence[Document],
    others: Iterable[Document],
    names: dict[int, str],
    cleared_before: set[int] | None = None,
) -> list[Document]:
    """``documents`` (of one job) with ``likely_duplicate`` where one of ``others``
    (documents of other jobs, already saved) is the same; the earliest is named.
    ``names``: job id → file name, for the words; ``cleared_before``: documents a
    person said the job's earlier documents are not duplicates of (a reprocess reads
    fresh documents, whose audit the person's answer is not in yet)."""
    candidates = sorted((o for o in others if o.id is not None and not is_marked(o)),
                        key=lambda o: o.id or 0)  # fmt: skip
    marked = []
    for document in documents:
        codes = [c for c in document.review_codes if c.code != CODE]
        skip = cleared(document) | (cleared_before or set())
        match = next(
            (o for o in candidates
             if o.job_id != document.job_id and o.id not in skip and same_document(document, o)),
            None,
        )  # fmt: skip
        if match is not None:
            params = {"document": match.id, "job": match.job_id,
                      "file": names.get(match.job_id, "?")}  # fmt: skip
            codes.append(ReviewCode(CODE, params=params))
        needs = document.needs_review or match is not None
        marked.append(replace(document, review_codes=codes, needs_review=needs))
    return marked


def named_other(document: Document | None) -> tuple[int, int] | None:
    """(job id, document id) of the document ``document``'s mark names, if it is
    marked and the mark reads."""
    if document is None:
        return None
    for code in document.review_codes:
        if code.code == CODE:
            try:
                return int(code.params["job"]), int(code.params["document"])
            except (KeyError, TypeError, ValueError):
                return None
    return None


def without_duplicates(documents: Iterable[Document]) -> list[Document]:
    """The documents as one each: one marked as another's duplicate is left out when
    that other is among them. Exported alone (its job's own export, or the original
    deleted since), it is the only copy there, and an export of it must not be empty."""
    documents = list(documents)
    present = {d.id for d in documents}
    return [d for d in documents if (named := named_other(d)) is None or named[1] not in present]
