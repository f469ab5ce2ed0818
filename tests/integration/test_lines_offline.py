"""Tables of goods read offline from born-digital files, end to end: the real
pipeline (render child, words, offline extractor, checks, store) on documents printed
as accounting programs print them (``tests/lines_builders.py``)."""

from __future__ import annotations

import asyncio
from decimal import Decimal
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.models import Document
from docbatch_gui.domain.states import JobState
from tests import builders
from tests.lines_builders import Row, goods, table_pdf

pytestmark = pytest.mark.slow  # the whole pipeline, in a render child


def _run(app: DocBatchApp, path: Path) -> tuple[JobState, list[Document]]:
    (job,) = app.add([path]).jobs
    (done,) = asyncio.run(app.run([job.id]))
    return done.state, app.store.list_documents(job.id)


def _values(rows: list[Row]) -> list[tuple[str, str, str]]:
    return [(r.qty, r.price, r.net) for r in rows]


def _read(document: Document) -> list[tuple[str | None, str | None, str | None]]:
    return [(line.qty, line.price, line.net) for line in document.lines]


def _codes(document: Document) -> set[str]:
    return {code.code for code in document.review_codes}


LINE_CODES = {"line_arithmetic", "lines_sum_mismatch", "lines_incomplete", "lines_missing"}


def test_a_five_row_upd_is_read_whole(app: DocBatchApp, tmp_path: Path) -> None:
    printed = table_pdf(tmp_path / "upd.pdf", "upd", goods(5))
    _state, (document,) = _run(app, printed.path)
    assert _read(document) == _values(printed.rows)
    first = document.lines[0]
    assert (first.no, first.code, first.unit, first.vat_rate) == ("1", "А-1001", "шт", "20")
    assert first.vat == printed.rows[0].vat and first.gross == printed.rows[0].gross
    assert first.page == 1 and first.box is not None and 0 < first.box[0] < first.box[2] < 1
    assert document.printed_rows == 5
    assert not _codes(document) & LINE_CODES, document.review_reasons


def test_a_three_row_english_invoice(app: DocBatchApp, tmp_path: Path) -> None:
    printed = table_pdf(tmp_path / "inv.pdf", "en", goods(3, english=True), ruled=False)
    _state, (document,) = _run(app, printed.path)
    assert _read(document) == _values(printed.rows)
    assert document.lines[2].name == printed.rows[2].name  # wrapped over two lines
    assert not _codes(document) & LINE_CODES, document.review_reasons


def test_a_120_row_torg12_over_four_pages_is_one_document_in_order(
    app: DocBatchApp, tmp_path: Path
) -> None:
    """The header repeats on every page, a row is cut by a page break, sums are
    wrapped over two lines, and "итого по листу" / "перенос" lines are not goods."""
    printed = table_pdf(
        tmp_path / "torg12.pdf",
        "torg12",
        goods(120),
        rows_per_page=31,
        cut_row=31,
        carried_forward=True,
    )
    assert printed.pages == 4
    _state, documents = _run(app, printed.path)
    assert len(documents) == 1
    (document,) = documents
    assert (document.page_from, document.page_to) == (1, 4)
    assert _read(document) == _values(printed.rows)
    assert [line.no for line in document.lines] == [str(n) for n in range(1, 121)]
    assert {line.page for line in document.lines} == {1, 2, 3, 4}
    assert not _codes(document) & LINE_CODES, document.review_reasons


def test_a_total_that_disagrees_with_its_rows_is_flagged_and_left_for_review(
    app: DocBatchApp, tmp_path: Path
) -> None:
    printed = table_pdf(tmp_path / "upd_off.pdf", "upd", goods(5), total_delta=Decimal("1000.00"))
    state, (document,) = _run(app, printed.path)
    assert _read(document) == _values(printed.rows)
    mismatch = [c for c in document.review_codes if c.code == "lines_sum_mismatch"]
    assert mismatch and mismatch[0].params["sum"] == str(printed.gross)
    assert mismatch[0].params["total"] == str(printed.printed_gross)
    assert "the lines add up to" in mismatch[0].words("en")
    assert "сумма строк" in mismatch[0].words("ru")
    assert document.needs_review and state is JobState.NEEDS_REVIEW


def test_a_scan_gets_no_lines_offline_and_says_so(app: DocBatchApp, tmp_path: Path) -> None:
    printed = table_pdf(tmp_path / "upd.pdf", "upd", goods(5))
    scan = builders.scanned_pdf(tmp_path / "scan.pdf", printed.path, dpi=200)
    _state, (document,) = _run(app, scan)
    assert document.lines == []
    assert "lines_not_read_offline" in _codes(document)
