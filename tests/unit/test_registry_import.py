"""Registry import: workbooks are built here with openpyxl or raw XML."""

from __future__ import annotations

import io
import logging
import re
import threading
import time
import zipfile
from datetime import datetime
from pathlib import Path
from typing import Any

import openpyxl
import psutil
import pytest

from docbatch_gui.domain.errors import ConfigError, UnsupportedInput
from docbatch_gui.domain.registry import FilteredRowRecord, RegistryRowRecord
from docbatch_gui.registry import excel
from docbatch_gui.registry.config import RegistryConfig, column_index, column_letter, load_config
from docbatch_gui.registry.excel import check_archive
from docbatch_gui.registry.importer import preview, read_registry
from docbatch_gui.registry.rows import normalize_field
from docbatch_gui.registry.xlsx_read import CALAMINE_BUDGET
from scripts.big_registry import row_values, write_big_registry

SEED_CONFIG: dict[str, Any] = {
    "sheet": "Реестр",
    "header_row": 3,
    "data_start_row": 5,
    "column_header_row": {"F": 4},
    "fill_down_columns": ["A"],
    "skip_rows_containing": ["ИТОГО", "Всего"],
    "required_column_index": "C",
    "min_filled_cells": 3,
    "mapping": {"number": "C", "date": "D", "amount": "F", "counterparty": "B"},
    "rules": [
        {
            "name": "number and date",
            "subrules": [
                {"field": "number", "document_field": "from_content.number",
                 "comparator": "fuzzy", "threshold": 85, "weight": 0.6, "required": True},
                {"field": "date", "document_field": "from_content.date",
                 "comparator": "date", "tolerance_days": 0, "weight": 0.2},
                {"field": "amount", "document_field": "from_content.amount",
                 "comparator": "amount", "tolerance": 0.01, "weight": 0.2},
            ],
        }
    ],
    "threshold": 0.7,
}  # fmt: skip

BREAKING_FILTER = (
    b'<autoFilter ref="A3:G13"><filterColumn colId="1"><customFilters>'
    b'<customFilter operator="bogus" val="1"/></customFilters></filterColumn></autoFilter>'
)


def rewrite_member(path: Path, member: str, edit: Any) -> None:
    """Rewrite one zip member in place (openpyxl cannot write everything we need)."""
    src = zipfile.ZipFile(io.BytesIO(path.read_bytes()))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            data = src.read(info.filename)
            out.writestr(info, edit(data) if info.filename == member else data)


def build_registry(path: Path, *, autofilter: bool = False) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Реестр"
    wb.create_sheet("Справка")["A1"] = "не реестр"
    ws["A1"] = "Реестр документов за 2024 год"
    ws.merge_cells("A1:G1")
    for col, name in zip(
        "ABCDE", ["Группа", "Контрагент", "Номер", "Дата", "Примечание"], strict=True
    ):
        ws[f"{col}3"] = name
    ws.merge_cells("E3:E4")
    ws["F3"] = "Сумма"
    ws.merge_cells("F3:G3")
    ws["F4"], ws["G4"] = "с НДС", "без НДС"
    rows: list[list[Any]] = [
        ["Группа 1", "ООО «Ромашка»", "АБ-001", datetime(2024, 3, 12), None, "1 234,56", 1000],
        [None, "ООО Лютик", "002", 45366, None, "1,234.56", None],
        [None, "ИП Ёлкин", 3, "15.03.2024", "срочно", 1500, None],
        [None, "Итого по группе", None, None, None, "=SUM(F5:F7)", None],
        [],
        ["Группа 2", "ООО Василёк", "004", "01.04.2024", None, 10.5, "=G5*2"],
        [None, "ООО Пустой", None, "02.04.2024", None, 5, None],
        [None, None, "005", None, None, None, None],
        ["ВСЕГО", None, None, None, None, "=SUM(F5:F12)", None],
    ]
    for offset, values in enumerate(rows):
        for col, value in enumerate(values, start=1):
            if value is not None:
                ws.cell(row=5 + offset, column=col, value=value)
    wb.save(path)

    def edit(xml: bytes) -> bytes:
        # openpyxl writes the empty value as <v /> or, with lxml installed, <v/> or <v></v>
        xml, cached = re.subn(
            rb"<f>G5\*2</f>\s*<v\s*(?:/>|>\s*</v>)", b"<f>G5*2</f><v>2000</v>", xml
        )
        assert cached == 1, "the formula cell was not found"
        if autofilter:
            xml = xml.replace(b"</sheetData>", b"</sheetData>" + BREAKING_FILTER)
        return xml

    rewrite_member(path, "xl/worksheets/sheet1.xml", edit)
    return path


@pytest.fixture
def registry(tmp_path: Path) -> Path:
    return build_registry(tmp_path / "реестр.xlsx")


@pytest.fixture
def config() -> RegistryConfig:
    return load_config(SEED_CONFIG)


def run_all(path: Path, config: RegistryConfig, **kw: Any) -> tuple[list[RegistryRowRecord], Any]:
    run = read_registry(path, config, **kw)
    rows = [row for chunk in run for row in chunk]
    assert run.finished
    return rows, run


# ------------------------------------------------------------------------ import


def test_seed_pipeline_headers_fill_down_filters_and_representations(
    registry: Path, config: RegistryConfig
) -> None:
    rows, run = run_all(registry, config)
    stats = run.stats
    assert stats.headers == [
        "Группа", "Контрагент", "Номер", "Дата", "Примечание", "с НДС", "Сумма",
    ]  # fmt: skip
    assert [r.row for r in rows] == [5, 6, 7, 10]
    first, second, third, fourth = rows
    assert first.raw_data["Дата"] == "2024-03-12"
    assert first.raw_data["с НДС"] == "1 234,56"
    assert second.raw_data["Группа"] == "Группа 1"  # filled down
    assert fourth.raw_data["Группа"] == "Группа 2"
    assert fourth.raw_data["Сумма"] == 2000  # cached formula value
    assert first.mapped_data == {
        "number": "АБ-001", "date": "2024-03-12", "amount": "1 234,56",
        "counterparty": "ООО «Ромашка»",
    }  # fmt: skip
    assert [r.normalized["date"] for r in rows] == [
        "2024-03-12", "2024-03-15", "2024-03-15", "2024-04-01",
    ]  # fmt: skip
    assert [r.normalized["amount"] for r in rows] == ["1234.56", "1234.56", "1500.00", "10.50"]
    assert [r.normalized["number"] for r in rows] == ["001", "002", "3", "004"]
    assert third.normalized["counterparty"] == "ип елкин"
    assert stats.total_rows == 9 and stats.kept == 4 and stats.filtered == 5
    assert stats.by_reason == {
        "skip_word": 2, "empty_row": 1, "required_empty": 1, "too_few_cells": 1,
    }  # fmt: skip
    assert stats.formula_without_value == 2  # the two SUMs never calculated
    assert stats.sheet == "Реестр"
    reasons = {f.row: (f.reason, f.detail) for f in run.filtered}
    assert reasons == {
        8: ("skip_word", "contains 'ИТОГО'"),
        11: ("required_empty", "required column C is empty"),
        12: ("too_few_cells", "2 filled cells, fewer than 3"),
        13: ("skip_word", "contains 'Всего'"),
    }
    assert run.filtered[1].values[0] == "Группа 2"  # filled before the filter


def test_chunks_and_filtered_sample_limit(registry: Path, config: RegistryConfig) -> None:
    run = read_registry(registry, config, chunk_size=3, max_filtered_samples=2)
    assert [len(c) for c in run] == [3, 1]
    assert [f.row for f in run.filtered] == [8, 11]
    with pytest.raises(RuntimeError):
        list(run)


def test_keyword_row_does_not_feed_fill_down(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    for row in (["Группа", "Номер"], ["Отдел 1", "1"], ["Итого отдел 1", None], [None, "2"]):
        ws.append(row)
    wb.save(tmp_path / "r.xlsx")
    cfg = load_config(
        {"fill_down_columns": ["A"], "skip_rows_containing": ["итого"], "mapping": {"number": 1}}
    )
    rows, _ = run_all(tmp_path / "r.xlsx", cfg)
    assert [(r.row, r.raw_data["Группа"]) for r in rows] == [(2, "Отдел 1"), (4, "Отдел 1")]


def test_preview_returns_first_rows_kept_and_filtered(
    registry: Path, config: RegistryConfig
) -> None:
    result = preview(registry, config, rows=4)
    assert result.sheet == "Реестр" and result.sheet_names == ["Реестр", "Справка"]
    assert result.headers[5] == "с НДС"
    assert [type(r) for r in result.rows] == [
        RegistryRowRecord,
        RegistryRowRecord,
        RegistryRowRecord,
        FilteredRowRecord,
    ]


def test_autofilter_that_breaks_openpyxl_is_stripped(
    tmp_path: Path, config: RegistryConfig
) -> None:
    path = build_registry(tmp_path / "af.xlsx", autofilter=True)
    with pytest.raises((ValueError, TypeError)):
        wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
        list(wb["Реестр"].iter_rows(values_only=True))
    rows, run = run_all(path, config)
    assert [r.row for r in rows] == [5, 6, 7, 10]
    assert run.stats.autofilters_removed == 1


# -------------------------------------------------------------------- bad inputs


def test_missing_sheet_lists_existing(registry: Path) -> None:
    cfg = load_config({**SEED_CONFIG, "sheet": "Лист1"})
    with pytest.raises(UnsupportedInput, match=r"'Реестр', 'Справка'") as info:
        list(read_registry(registry, cfg))
    assert "реестр.xlsx" in str(info.value)


def test_empty_sheet(tmp_path: Path) -> None:
    openpyxl.Workbook().save(tmp_path / "e.xlsx")
    with pytest.raises(UnsupportedInput, match="is empty"):
        list(read_registry(tmp_path / "e.xlsx", load_config({})))


def test_header_row_beyond_end(registry: Path) -> None:
    cfg = load_config({**SEED_CONFIG, "header_row": 40, "data_start_row": 41,
                       "column_header_row": {}})  # fmt: skip
    with pytest.raises(UnsupportedInput, match="header row 40 is beyond the last row 13"):
        list(read_registry(registry, cfg))


def test_mapping_to_missing_column(registry: Path) -> None:
    cfg = load_config({**SEED_CONFIG, "mapping": {**SEED_CONFIG["mapping"], "inn": "Z"}})
    with pytest.raises(ConfigError, match=r"mapping\.inn: column Z does not exist"):
        list(read_registry(registry, cfg))


def test_old_xls_and_password_protected(tmp_path: Path) -> None:
    ole = bytes.fromhex("D0CF11E0A1B11AE1") + b"\0" * 1000
    (tmp_path / "old.xls").write_bytes(ole)
    with pytest.raises(UnsupportedInput, match=r"old.xls.*save it as .xlsx"):
        check_archive(tmp_path / "old.xls")
    encrypted = ole + "EncryptedPackage".encode("utf-16-le") + b"\0" * 100
    (tmp_path / "secret.xlsx").write_bytes(encrypted)
    with pytest.raises(UnsupportedInput, match=r"secret.xlsx.*remove the password"):
        list(read_registry(tmp_path / "secret.xlsx", load_config({})))


def test_corrupt_files(tmp_path: Path, registry: Path) -> None:
    (tmp_path / "text.xlsx").write_text("not a workbook")
    with pytest.raises(UnsupportedInput, match=r"text\.xlsx: not a readable \.xlsx"):
        check_archive(tmp_path / "text.xlsx")
    truncated = tmp_path / "truncated.xlsx"
    truncated.write_bytes(registry.read_bytes()[:2000])
    with pytest.raises(UnsupportedInput, match=r"truncated\.xlsx"):
        check_archive(truncated)
    with zipfile.ZipFile(tmp_path / "parts.xlsx", "w") as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
    with pytest.raises(UnsupportedInput, match=r"missing part xl/workbook\.xml"):
        check_archive(tmp_path / "parts.xlsx")
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(registry.read_bytes())
    rewrite_member(broken, "xl/worksheets/sheet1.xml", lambda x: x[: len(x) // 2])
    with pytest.raises(UnsupportedInput, match=r"broken\.xlsx"):
        list(read_registry(broken, load_config(SEED_CONFIG)))


def test_zip_bomb_refused_from_directory(tmp_path: Path, registry: Path) -> None:
    bomb = tmp_path / "bomb.xlsx"
    bomb.write_bytes(registry.read_bytes())
    with zipfile.ZipFile(bomb, "a", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("xl/media/zeros.bin", b"\0" * (20 << 20))  # ~1000:1
    started = time.perf_counter()
    with pytest.raises(UnsupportedInput, match="compression ratio"):
        check_archive(bomb)
    with pytest.raises(UnsupportedInput, match="more than the 10 MB limit"):
        check_archive(bomb, max_uncompressed=10 << 20, max_ratio=10_000)
    assert time.perf_counter() - started < 1  # decided without decompressing


# ------------------------------------------------------------------------ config


def test_columns_letters_and_ints() -> None:
    assert column_index("AA") == 26 and column_index("c") == 2 and column_index(2) == 2
    assert column_letter(26) == "AA" and column_letter(16383) == "XFD"
    cfg = load_config(SEED_CONFIG)
    assert cfg.mapping == {"number": 2, "date": 3, "amount": 5, "counterparty": 1}
    assert cfg.column_header_row == {5: 4} and cfg.required_column_index == 2


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"shet": "x"}, "shet: unknown key"),
        ({"rules": [{"name": "r", "subrules": [{"field": "number",
          "document_field": "from_content.number", "comparator": "levenshtein"}]}]},
         "rules[0].subrules[0].comparator:"),
        ({"rules": [{"name": "r", "subrules": [{"field": "number",
          "document_field": "content.number", "comparator": "exact"}]}]},
         "rules[0].subrules[0].document_field:"),
        ({"rules": [{"name": "r", "subrules": [{"field": "number",
          "document_field": "from_content.number", "comparator": "date",
          "tolerance_days": -1}]}]}, "rules[0].subrules[0].tolerance_days:"),
        ({"rules": [{"name": "r", "subrules": [{"field": "inn",
          "document_field": "from_content.inn", "comparator": "exact"}]}]},
         "rules[0].subrules[0].field: 'inn' is not in mapping"),
        ({"mapping": {"number": "C!"}}, "mapping.number:"),
        ({"column_header_row": {"F": 9}}, "column_header_row.F: row 9 must be before"),
        ({"data_start_row": 2}, "data_start_row: 2 must be after header_row 3"),
        ({"threshold": 7}, "threshold:"),
    ],
)  # fmt: skip
def test_config_errors_name_the_key_path(patch: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config({**SEED_CONFIG, **patch})
    assert message in str(info.value)


def test_config_file_errors(tmp_path: Path) -> None:
    (tmp_path / "c.json").write_text('{"header_row": 0}', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"c.json: header_row:"):
        load_config(tmp_path / "c.json")
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid JSON"):
        load_config(tmp_path / "bad.json")


def test_default_rules_from_mapping() -> None:
    cfg = load_config({"mapping": {"number": "C", "amount": "F", "counterparty": "B"}})
    (rule,) = cfg.rules
    assert [(s.field, s.comparator, s.weight, s.required) for s in rule.subrules] == [
        ("number", "number", 0.5, True),
        ("amount", "amount", 0.25, False),
    ]
    assert rule.subrules[0].threshold == 85 and rule.subrules[1].tolerance == 0.01
    assert load_config({}).rules == []


def test_old_single_column_config_migrates() -> None:
    cfg = load_config({"column_index": 2, "mapping_id": "number", "header_row": 1})
    assert cfg.mapping == {"number": 2}
    (rule,) = cfg.rules
    (sub,) = rule.subrules
    assert (sub.field, sub.document_field, sub.comparator, sub.required) == (
        "number", "from_content.number", "number", True,
    )  # fmt: skip


# ------------------------------------------------------------------ million rows


class PeakRss:
    """Sample the process RSS in a thread; tracemalloc would slow the import ~7x."""

    def __init__(self) -> None:
        self.process = psutil.Process()
        self.baseline = self.peak = self.process.memory_info().rss
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, self.process.memory_info().rss)

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    @property
    def delta(self) -> int:
        return self.peak - self.baseline


#: rows of the big sheet below. Measured on it (200,000 rows × 3, python 3.11): streaming
#: grows the process by 19 MB (openpyxl's parser keeps a cleared element per row, some
#: 90 bytes); not streaming costs more than MAX_GROWTH: holding the sheet's values
#: (openpyxl's rows listed) 74 MB, calamine's whole sheet 79 MB, openpyxl's full
#: (not read-only) load 272 MB, the kept rows listed instead of yielded 212 MB.
BIG_ROWS = 200_000
MAX_GROWTH = 50 * 2**20


@pytest.mark.slow
def test_a_sheet_past_calamines_budget_streams_in_bounded_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A sheet calamine would hold in more than its budget (a million rows × 3 is:
    ``test_the_budget_keeps_the_bench_on_calamine_and_a_million_rows_off_it``) is
    streamed by openpyxl in chunks, in bounded memory, to its last row. The sheet has
    a fifth of those rows and the budget is a fifth too, so it is past it as a million
    rows are: the million took 75-150 s of openpyxl's parsing for the same proof."""
    n = BIG_ROWS
    path = tmp_path / "big.xlsx"
    write_big_registry(path, n, columns=3)
    monkeypatch.setattr(excel, "CALAMINE_BUDGET", CALAMINE_BUDGET * n // 1_000_000)
    caplog.set_level(logging.INFO, logger=excel.__name__)
    cfg = load_config({"mapping": {"number": "A", "date": "B", "amount": "C"}})
    started = time.perf_counter()
    with PeakRss() as memory:
        run = read_registry(path, cfg)
        count, last = 0, None
        for chunk in run:
            assert len(chunk) <= 500
            count += len(chunk)
            last = chunk[-1]
    elapsed = time.perf_counter() - started
    print(f"\n{n:,} rows: {elapsed:.1f} s, peak RSS growth {memory.delta / 2**20:.1f} MB")
    assert any("streamed by openpyxl (about" in r.getMessage() for r in caplog.records)
    assert count == n and run.stats.kept == n
    written = dict(zip(("number", "date", "amount"), row_values(n + 1, 3), strict=True))
    assert last is not None and last.row == n + 1
    assert last.normalized == {k: normalize_field(k, v) for k, v in written.items()}
    assert memory.delta < MAX_GROWTH
