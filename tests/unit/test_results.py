"""Answers: validation, normalisation, page mapping and stitching across groups."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docbatch_gui.config.profile import Profile, load_profile
from docbatch_gui.llm.answers import InvalidAnswer, RawDocument, parse_answer, stitch
from tests.fakes.anthropic_answers import wire_document

KEYS = [
    "number",
    "date",
    "amount",
    "currency",
    "vat_amount",
    "seller",
    "buyer",
    "seller_tax_id",
    "buyer_tax_id",
]


@pytest.fixture(scope="module")
def profile() -> Profile:
    return load_profile()


def answer_doc(
    first: int, last: int, doc_type: str = "invoice", cont: bool = False, **fields: object
) -> dict:
    values = {k: fields.get(k) for k in KEYS}
    return wire_document(first, last, doc_type, values, continues_previous=cont)


def test_pages_are_mapped_to_source_pages(profile: Profile) -> None:
    answer = {"documents": [answer_doc(1, 2, number="5"), answer_doc(3, 3, "act")]}
    docs = parse_answer(json.dumps(answer), (9, 10, 11), profile)
    assert [(d.page_from, d.page_to, d.doc_type) for d in docs] == [
        (9, 10, "invoice"),
        (11, 11, "act"),
    ]
    assert docs[0].fields["number"] == "5"


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ("{not json", "not JSON"),
        (json.dumps({"docs": []}), "no documents"),
        (json.dumps({"documents": [answer_doc(1, 4)]}), "request held 3"),
        (json.dumps({"documents": [answer_doc(2, 1)]}), "names pages 2-1"),
        (json.dumps({"documents": [answer_doc(1, 1, "passport")]}), "unknown type"),
    ],
)
def test_invalid_answers_are_errored_requests(profile: Profile, answer: str, problem: str) -> None:
    with pytest.raises(InvalidAnswer, match=problem):
        parse_answer(answer, (1, 2, 3), profile)


def test_values_are_normalised_and_unreadable_ones_become_null(profile: Profile) -> None:
    doc = answer_doc(1, 1, date="12.03.2024", amount="1 234,56", vat_amount="a lot")
    (parsed,) = parse_answer(json.dumps({"documents": [doc]}), (1,), profile)
    assert parsed.fields["date"] == "2024-03-12"
    assert parsed.fields["amount"] == "1234.56"
    assert parsed.fields["vat_amount"] is None
    assert parsed.confidence["vat_amount"] == 0.0
    assert any(note.field == "vat_amount" for note in parsed.notes)


def test_document_continuing_into_the_next_group_is_stitched(profile: Profile) -> None:
    group1 = parse_answer(
        json.dumps(
            {
                "documents": [
                    answer_doc(1, 1, "invoice", number="1", date="2024-01-01", amount="5"),
                    answer_doc(2, 8, "contract", number="7-П"),
                ]
            }
        ),
        tuple(range(1, 9)),
        profile,
    )
    group2 = parse_answer(
        json.dumps(
            {
                "documents": [
                    answer_doc(1, 2, "unknown", cont=True, amount="500000"),
                    answer_doc(3, 3, "act"),
                ]
            }
        ),
        tuple(range(9, 12)),
        profile,
    )
    docs = stitch(4, [group1, group2], profile)
    assert [(d.doc_type, d.page_from, d.page_to) for d in docs] == [
        ("invoice", 1, 1),
        ("contract", 2, 10),
        ("act", 11, 11),
    ]
    assert docs[1].fields["number"] == "7-П" and docs[1].fields["amount"] == "500000.00"
    assert [d.doc_index for d in docs] == [0, 1, 2]
    assert not docs[0].needs_review
    assert docs[2].needs_review and "number not found" in docs[2].review_reasons


def raw(first: int, last: int, cont: bool) -> RawDocument:
    return RawDocument(first, last, cont, "unknown", {}, {}, {})


@pytest.mark.slow
@given(st.lists(st.tuples(st.integers(1, 5), st.booleans()), min_size=1, max_size=30))
def test_stitching_keeps_every_page_once_and_in_order(spans: list[tuple[int, bool]]) -> None:
    profile = load_profile()
    docs, page = [], 1
    for length, cont in spans:
        docs.append(raw(page, page + length - 1, cont))
        page += length
    groups = [docs[i : i + 3] for i in range(0, len(docs), 3)]
    stitched = stitch(1, groups, profile)
    assert stitched[0].page_from == 1 and stitched[-1].page_to == page - 1
    for before, after in itertools.pairwise(stitched):
        assert after.page_from == before.page_to + 1
    assert len(stitched) == 1 + sum(1 for _, cont in spans[1:] if not cont)


def _answer_doc(page_from: object, page_to: object, **fields: object) -> dict[str, Any]:
    return {"page_from": page_from, "page_to": page_to, "continues_previous": False,
            "doc_type": "invoice", "handwritten_numbers": [], "filename_fields": [],
            "fields": [{"key": k, "found": True, "value": v, "confidence": 0.9}
                       for k, v in fields.items()]}  # fmt: skip


@pytest.mark.parametrize(
    ("documents", "problem"),
    [
        ([_answer_doc(True, 1)], "names pages True-1"),
        ([_answer_doc(1, 2), _answer_doc(2, 3)], "overlap"),
        ([_answer_doc(1, 1), _answer_doc(1, 1)], "overlap"),
        ([_answer_doc(1, 1, seller="x" * 200_000)], "200000 characters long"),
        ([_answer_doc(1, 1, amount={"nested": 1})], "is a dict, not a value"),
        # documents per answer are bounded by the pages asked about: no two may share one
        ([_answer_doc(1, 1)] * 500, "overlap"),
    ],
)
def test_nonsense_answers_are_invalid_and_so_asked_again(
    profile: Profile, documents: list[dict[str, Any]], problem: str
) -> None:
    with pytest.raises(InvalidAnswer, match=problem):
        parse_answer({"documents": documents}, [1, 2, 3], profile)


def test_a_thirty_digit_amount_is_unreadable_and_a_negative_one_keeps_its_sign(
    profile: Profile,
) -> None:
    (doc,) = parse_answer({"documents": [_answer_doc(1, 1, amount="1" * 30, vat_amount="-100.50")]},
                          [1], profile)  # fmt: skip
    assert doc.fields["amount"] is None and doc.fields["vat_amount"] == "-100.50"
    assert [n.code for n in doc.notes] == ["unreadable_value"]
