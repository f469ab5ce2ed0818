"""The rule of a likely duplicate, as plain data (fast)."""

from __future__ import annotations

from docbatch_gui.checks.duplicates import mark_duplicates, same_document, without_duplicates
from docbatch_gui.domain.models import Document


def doc(job: int, id_: int | None = None, **fields: str | None) -> Document:
    base = {"number": "№ 15", "date": "2026-11-02", "amount": "1200.00",
            "seller_tax_id": "7707083893"}  # fmt: skip
    return Document(job, 0, "invoice", 1, 1, fields={**base, **fields}, id=id_)


def test_seller_number_date_and_amount_or_number_and_amount_when_the_rest_is_unread() -> None:
    assert same_document(doc(1), doc(2, number="15", amount="1200"))  # spaces, №, 1200 = 1200.00
    assert not same_document(doc(1), doc(2, date="2026-11-03"))
    assert not same_document(doc(1), doc(2, seller_tax_id="7736207543"))
    assert not same_document(doc(1), doc(2, amount="1200.01"))
    assert same_document(doc(1), doc(2, seller_tax_id=None, date=None))  # a photo read badly
    assert not same_document(doc(1, number=None), doc(2, number=None))  # nothing to go on


def test_the_earliest_other_document_is_named_and_a_clearing_is_kept() -> None:
    others = [doc(5, 50), doc(3, 30)]
    (marked,) = mark_duplicates([doc(9)], others, {3: "scan.pdf", 5: "photo.jpg"})
    (code,) = marked.review_codes
    assert code.params == {"document": 30, "job": 3, "file": "scan.pdf"} and marked.needs_review
    (left,) = mark_duplicates([doc(9)], others, {}, cleared_before={30, 50})
    assert left.review_codes == [] and not left.needs_review
    assert mark_duplicates([doc(3)], [doc(3, 31)], {})[0].review_codes == []  # same job
    assert without_duplicates([marked, doc(3, 30)]) == [doc(3, 30)]
