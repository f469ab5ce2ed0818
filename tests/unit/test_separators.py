"""What a split does to the documents a reader returned (fast)."""

from __future__ import annotations

from docbatch_gui.domain.models import Document
from docbatch_gui.pipeline.separators import Split, groups_between, split_documents


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
