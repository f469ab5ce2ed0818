"""Lines without I/O: number normalisation, the table reader on words placed by hand,
and every reconciliation rule, with the rule that must stay silent when lines agree."""

from __future__ import annotations

from dataclasses import replace

import pytest

from docbatch_gui.checks.lines import line_findings
from docbatch_gui.config.profile import load_profile
from docbatch_gui.domain.lines import Line
from docbatch_gui.domain.models import Document
from docbatch_gui.llm.answers import parse_answer, stitch
from docbatch_gui.pipeline.tables import (
    has_goods_table,
    line_number,
    line_rate,
    printed_row_count,
    read_table,
)
from tests.fakes.anthropic_answers import wire_document, wire_line

PROFILE = load_profile()


@pytest.mark.parametrize(
    ("printed", "value"),
    [
        ("1 944,30", "1944.30"),
        ("1\u00a0944,30", "1944.30"),
        ("1\u202f944,30", "1944.30"),
        ("1944,30", "1944.30"),
        ("1,944.30", "1944.30"),
        ("1.944,30", "1944.30"),
        ("12", "12"),
        ("0,500", "0.500"),
        ("—", None),
        ("-", None),
        ("шт", None),
        ("", None),
        # a currency sign printed with the figure (the bundled English invoice's
        # "$120.00" was no number: its lines had no price and no sum)
        ("$120.00", "120.00"),
        ("$1,234.56", "1234.56"),
        ("120,00 ₽", "120.00"),
        ("-$5", "-5"),
        ("€ 9,50", "9.50"),
        ("$", None),
        ("12$3", None),
    ],
)
def test_numbers_are_read_as_printed(printed: str, value: str | None) -> None:
    assert line_number(printed) == value


def test_rates_and_printed_counts() -> None:
    assert [line_rate(t) for t in ("20%", "10 %", "Без НДС", "20/120", "—")] == [
        "20", "10", "без НДС", "20/120", None
    ]  # fmt: skip
    assert printed_row_count(["Всего наименований 120, на сумму 1 000,00 руб."]) == 120
    assert printed_row_count(["Итого 12 позиций"]) == 12
    assert printed_row_count(["Number of items: 3"]) == 3
    assert printed_row_count(["Итого: 1 000,00"]) is None


def _words(rows: list[list[tuple[str, float]]], top: float = 0.1) -> list:
    """Words at (x) on successive lines, 8 characters wide per 0.04 of the page."""
    out = []
    for n, row in enumerate(rows):
        y = top + n * 0.02
        for text, x in row:
            out.append((text, x, y, x + 0.005 * len(text), y + 0.012))
    return out


HEADER = [("№", 0.05), ("Наименование", 0.1), ("Кол-во", 0.5), ("Цена", 0.6), ("Сумма", 0.75)]


def test_a_wrapped_sum_and_a_wrapped_name_are_one_row_and_totals_end_the_table() -> None:
    words = _words(
        [
            HEADER,
            [("1", 0.05), ("Бумага", 0.1), ("2", 0.53), ("972,15", 0.6), ("1", 0.78)],
            [("офисная", 0.1), ("944,30", 0.75)],
            [("Итого", 0.1), ("1", 0.78), ("944,30", 0.8)],
            [("2", 0.05), ("after", 0.1), ("1", 0.53), ("1,00", 0.6), ("1,00", 0.75)],
        ]
    )
    table = read_table([(1, words)], PROFILE)
    (line,) = table.lines
    assert (line.no, line.name, line.qty, line.price, line.net) == (
        "1", "Бумага офисная", "2", "972.15", "1944.30"
    )  # fmt: skip
    assert table.table_open is False and table.header_pages == [1]


def test_carried_forward_lines_are_not_goods_and_an_open_table_says_so() -> None:
    page1 = _words([HEADER, [("1", 0.05), ("A", 0.1), ("1", 0.53), ("1,00", 0.6), ("1,00", 0.75)],
                    [("Итого", 0.05), ("по", 0.09), ("листу:", 0.11), ("1,00", 0.75)]])  # fmt: skip
    second = [("2", 0.05), ("B", 0.1), ("2", 0.53), ("1,00", 0.6), ("2,00", 0.75)]
    page2 = _words([HEADER, [("Перенос", 0.05), ("1,00", 0.75)], second])
    table = read_table([(1, page1), (2, page2)], PROFILE)
    assert [(line.no, line.page) for line in table.lines] == [("1", 1), ("2", 2)]
    assert table.table_open  # no totals line by the last page


def test_prose_that_names_columns_is_no_table() -> None:
    prose = "1.2. Наименование, количество и цена товара указываются в счетах и накладных"
    assert not has_goods_table([prose], PROFILE)
    assert has_goods_table(["№", "Наименование товара", "Кол-во", "Цена", "Сумма"], PROFILE)
    words = _words([[(w, 0.05 + i * 0.06) for i, w in enumerate(prose.split())]])
    assert read_table([(1, words)], PROFILE).header_pages == []


GOOD = [
    Line("1", "A", None, "шт", "2", "10.00", "20.00", "20", "4.00", "24.00", 1),
    Line("2", "B", None, "шт", "3", "5.00", "15.00", "20", "3.00", "18.00", 1),
]


def _doc(lines: list[Line], **changes: object) -> Document:
    base = Document(1, 0, "waybill", 1, 1, fields={"amount": "42.00", "vat_amount": "7.00"},
                    lines=lines)  # fmt: skip
    return replace(base, **changes)  # type: ignore[arg-type]


def _kinds(document: Document, text: str = "") -> set[tuple[str, str]]:
    return {(c.code, str(c.params.get("kind", ""))) for c in line_findings(document, PROFILE, text)}


def test_lines_that_agree_raise_nothing() -> None:
    assert _kinds(_doc(GOOD)) == set()


def test_each_rule_names_what_is_wrong() -> None:
    wrong_net = [replace(GOOD[0], net="22.00", gross="26.40", vat="4.40"), GOOD[1]]
    found = list(line_findings(_doc(wrong_net, fields={"amount": "44.40", "vat_amount": "7.40"}),
                               PROFILE))  # fmt: skip
    assert [(c.code, c.params["kind"], c.params["row"]) for c in found] == [
        ("line_arithmetic", "qty_price", "1")
    ]
    assert "строка 1" in found[0].words("ru") and "line 1" in found[0].words("en")
    assert ("line_arithmetic", "net_vat") in _kinds(
        _doc([replace(GOOD[0], gross="25.00"), GOOD[1]])
    )
    assert ("line_arithmetic", "vat_rate") in _kinds(
        _doc([replace(GOOD[0], vat="5.00", gross="25.00"), GOOD[1]])
    )
    assert ("lines_sum_mismatch", "total") in _kinds(_doc(GOOD, fields={"amount": "1042.00"}))
    assert ("lines_sum_mismatch", "vat") in _kinds(
        _doc(GOOD, fields={"amount": "42.00", "vat_amount": "8.00"})
    )
    gap = [GOOD[0], replace(GOOD[1], no="3")]
    assert ("lines_incomplete", "gap") in _kinds(_doc(gap))
    assert ("lines_incomplete", "repeat") in _kinds(_doc([GOOD[0], replace(GOOD[1], no="1")]))
    assert ("lines_incomplete", "count") in _kinds(_doc(GOOD, printed_rows=120))
    assert ("lines_incomplete", "count") in _kinds(_doc(GOOD), "Итого 12 позиций")
    assert ("lines_incomplete", "open") in _kinds(_doc(GOOD, table_open=True))
    assert ("lines_missing", "") in _kinds(_doc([]), "№\nНаименование\nКол-во\nЦена\nСумма")
    assert _kinds(_doc([]), "Договор поставки") == set()


def test_an_answer_stitches_lines_across_groups_and_drops_headers_and_carried_lines() -> None:
    def answer(rows: list[tuple[Line, str]], continues: bool, more: bool) -> dict:
        return {"documents": [wire_document(
            1, 2, "waybill", {"number": "1"}, continues_previous=continues,
            lines=[wire_line(line, PROFILE, kind) for line, kind in rows],
            printed_row_count="" if more else "3", table_continues=more)]}  # fmt: skip

    first = parse_answer(
        answer([(GOOD[0], "goods"), (Line(name="Наименование"), "header")], False, True),
        [1, 2],
        PROFILE,
    )
    second = parse_answer(
        answer([(Line(name="Перенос", net="20.00"), "carried_forward"), (GOOD[1], "goods"),
                (replace(GOOD[1], no="3", name="C"), "goods")], True, False),
        [3, 4],
        PROFILE,
    )  # fmt: skip
    (document,) = stitch(1, [first, second], PROFILE)
    assert [line.no for line in document.lines] == ["1", "2", "3"]
    assert [line.page for line in document.lines] == [1, 3, 3]
    assert document.printed_rows == 3 and document.table_open is False
