"""The registry's layout guessed from an accountant's sheet: the header under a merged
title, a two-row header's texts joined, the totals row and the signature line left out."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.registry.config import load_config
from docbatch_gui.registry.importer import read_registry
from docbatch_gui.registry.layout import (
    FOOTER_SIGNATURE,
    FOOTER_TOTALS,
    FooterRow,
    cell_kind,
    footer_of,
    guess_layout,
    header_names,
    with_layout,
)
from docbatch_gui.registry.service import RegistryService
from docbatch_gui.storage.sqlite import SQLiteStore
from tests.accountant_sheet import (
    FIRST_DATA,
    HEADER_ROW,
    HEADER_TOP,
    LINES,
    SHEET,
    SIGNATURE_ROW,
    TOTALS_ROW,
    accountant_xlsx,
)


def test_cells_read_as_labels_or_data() -> None:
    assert cell_kind("Сумма") == "label"
    assert cell_kind("с НДС, руб.") == "label"
    assert cell_kind("Сумма за 2024") == "label"
    assert cell_kind("01.03.2024") == "data"
    assert cell_kind("1 234,56") == "data"
    assert cell_kind("СЧ-1001") == "data"
    assert cell_kind(12.5) == "data" and cell_kind(date(2024, 3, 1)) == "data"
    assert cell_kind("  ") == "empty" and cell_kind(None) == "empty"


def test_footer_rows_by_their_words() -> None:
    assert footer_of(9, [None, "Итого", None, "9 643,56"]) == FooterRow(9, FOOTER_TOTALS, "итого")
    assert footer_of(9, ["ВСЕГО по реестру", 5]) == FooterRow(9, FOOTER_TOTALS, "всего")
    signed = footer_of(12, ["Главный бухгалтер ____ Петрова"])
    assert signed == FooterRow(12, FOOTER_SIGNATURE, "___")
    assert footer_of(3, ["ООО Итоговая сумма", "СЧ-1", "01.03.2024"]) is None  # not first
    assert footer_of(4, [1, "ООО Ромашка", "СЧ-1001"]) is None


def test_the_signature_blocks_other_lines_are_footer_rows_too() -> None:
    """The line under the signature names who prepared the sheet; it was kept as data."""
    prepared = footer_of(14, ["Исполнитель: Иванова И. И., тел. 8 (495) 123-45-67"])
    assert prepared == FooterRow(14, FOOTER_SIGNATURE, "исполнитель:")
    assert footer_of(15, ["Составил: Петрова"]) == FooterRow(15, FOOTER_SIGNATURE, "составил:")
    # a counterparty that is a contractor ("исполнитель") is still data
    assert footer_of(7, [3, "Исполнитель работ ООО Луч", "СЧ-7", "01.03.2024"]) is None


def test_a_bare_table_keeps_the_defaults() -> None:
    layout = guess_layout([["Номер", "Дата"], ["1", "01.03.2024"]])
    assert (layout.header_row, layout.data_start_row, layout.header_top_row) == (1, 2, None)
    assert guess_layout([]).header_row == 1


def test_the_accountants_sheet_is_read_as_a_person_reads_it(tmp_path: Path) -> None:
    xlsx = accountant_xlsx(tmp_path / "реестр.xlsx")
    service = RegistryService(SQLiteStore(tmp_path / "db.sqlite"))
    layout = service.layout(xlsx, SHEET)
    assert (layout.header_row, layout.header_top_row, layout.data_start_row) == (
        HEADER_ROW, HEADER_TOP, FIRST_DATA,
    )  # fmt: skip
    assert [(f.row, f.kind) for f in layout.footer] == [
        (TOTALS_ROW, FOOTER_TOTALS),
        (SIGNATURE_ROW, FOOTER_SIGNATURE),
    ]
    config = load_config(
        {"sheet": SHEET, "header_row": layout.header_row, "data_start_row": layout.data_start_row,
         "header_top_row": layout.header_top_row, "skip_rows_containing": layout.skip_words,
         "mapping": {"number": "C", "date": "D", "amount": "E"}}
    )  # fmt: skip
    run = read_registry(xlsx, config)
    kept = [row for chunk in run for row in chunk]
    assert run.stats.headers == [
        "№ п/п", "Контрагент", "Номер счёта", "Дата", "Сумма с НДС, руб.", "Сумма НДС, руб.",
    ]  # fmt: skip
    assert [r.mapped_data["number"] for r in kept] == [line[0] for line in LINES]
    assert kept[0].normalized["date"] == "2024-03-01"
    assert {f.row for f in run.filtered} == {TOTALS_ROW, SIGNATURE_ROW}


def test_without_the_top_row_the_header_is_its_own_row(tmp_path: Path) -> None:
    """Configurations written before header_top_row read the headers as they did."""
    xlsx = accountant_xlsx(tmp_path / "реестр.xlsx")
    config = load_config({"sheet": SHEET, "header_row": HEADER_ROW, "mapping": {"number": "C"}})
    run = read_registry(xlsx, config)
    list(run)
    assert run.stats.headers[3:] == ["Дата", "с НДС, руб.", "НДС, руб."]


def test_joined_header_names_skip_a_text_repeated_by_a_merge() -> None:
    rows = {1: ("A", "B", None), 2: (None, "b1", "b2")}
    merged = [(0, 1, 0, 2), (1, 1, 2, 1)]
    assert header_names(rows, 1, [2, 2, 2], merged) == ["A", "B b1", "B b2"]
    assert header_names({1: (None,)}, 1, [1], []) == [None]


def test_a_header_top_below_the_header_is_refused() -> None:
    with pytest.raises(ConfigError, match="header_top_row"):
        load_config({"header_row": 2, "header_top_row": 3})


def test_a_guess_fills_the_draft_and_keeps_its_skip_words() -> None:
    layout = guess_layout(
        [["Реестр"], ["Номер", "Дата"], ["1", "01.03.2024"], ["Итого", "5"], ["Подпись ____"]]
    )
    draft = {"sheet": "S", "skip_rows_containing": ["ИТОГО"], "column_header_row": {"F": 1}}
    config = load_config(with_layout(draft, layout))
    assert (config.header_row, config.first_data_row, config.header_top_row) == (2, 3, None)
    assert config.skip_rows_containing == ["ИТОГО", "___"]
    assert config.column_header_row == {}
