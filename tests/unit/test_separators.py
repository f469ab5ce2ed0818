"""What a split does to the documents a reader returned (fast)."""

from __future__ import annotations

from docbatch_gui.domain.models import Document
from docbatch_gui.pipeline.separators import (
    Split,
    groups_between,
    moved_pages,
    plan_split,
    recorded,
    split_documents,
)


def test_documents_are_cut_to_the_segments_and_an_empty_one_is_typed_by_hand() -> None:
    split = Split([2, 5], [(1, 1), (3, 4), (6, 7)], [None, None, None])
    found = [
        Document(1, 0, "invoice", 1, 4, fields={"number": "1"}),  # across the first sheet
        Document(1, 1, "act", 5, 5, fields={"number": "sheet"}),  # on a sheet only
    ]
    out = split_documents(1, found, split)
    assert [(d.page_from, d.page_to, d.doc_type) for d in out] == [
        (1, 1, "invoice"), (3, 4, "unknown"), (6, 7, "unknown"),
    ]  # fmt: skip
    assert out[0].fields == {"number": "1"} and out[1].fields == {}  # values stay once
    assert [d.doc_index for d in out] == [0, 1, 2] and out[2].needs_review
    assert split_documents(1, found, None) == found


class _Page:
    def __init__(self, page_no: int) -> None:
        self.page_no = page_no


def test_request_groups_never_hold_or_cross_a_sheet() -> None:
    pages = [_Page(n) for n in range(1, 12)]
    groups = groups_between(pages, 3, {2, 9})
    assert [[p.page_no for p in g] for g in groups] == [[1], [3, 4, 5], [6, 7, 8], [10, 11]]


def test_a_sheet_a_person_took_into_a_document_stays_a_page_when_read_again() -> None:
    codes = {2: ["PATCHT"], 5: ["PATCHT"]}
    moved = {"separators": [5], "moved": [{"page": 2, "who": "anna", "at": "2026-12-02"}]}
    split = plan_split(codes, range(1, 7), "PATCHT", not_sheets=moved_pages(moved))
    assert split is not None and split.separators == [5]
    assert split.segments == [(1, 4), (6, 6)]
    body = recorded(split, moved)
    assert body is not None and body["moved"] == moved["moved"] and body["separators"] == [5]
    # every sheet taken in: no split is left, and what the person did is still kept
    none_left = plan_split({2: ["PATCHT"]}, range(1, 4), "PATCHT", not_sheets={2})
    assert none_left is None
    kept = recorded(none_left, moved)
    assert kept is not None and kept["moved"] == moved["moved"]
    assert Split.from_dict(kept) is None  # the documents are read as one file again
    assert recorded(None, None) is None
