"""calamine gives what openpyxl read-only gives, and the scan keeps calamine safe.

The workbook is written as raw XML so that it holds what Excel and other producers
write and openpyxl's writer never does: shared strings with rich text runs, inline
strings, formulas with cached values of every type and without one, date styles
(built-in, custom, duration), a 1904 calendar, sparse and unordered cells, missing and
self-closing rows, merged cells and an autoFilter; and, for openpyxl's path, cells and
rows without ``r``.
"""

from __future__ import annotations

import logging
import warnings
import zipfile
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.domain.errors import UnsupportedInput
from docbatch_gui.registry import excel, xlsx_scan
from docbatch_gui.registry.config import load_config
from docbatch_gui.registry.excel import open_sheet
from docbatch_gui.registry.importer import read_registry
from docbatch_gui.registry.xlsx_read import CALAMINE_BUDGET, calamine_estimate
from docbatch_gui.registry.xlsx_scan import SheetScan, _count_formulas, _FormulaState, scan_sheet

NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
CT = "application/vnd.openxmlformats-officedocument.spreadsheetml"

STYLES = f"""<styleSheet xmlns="{NS}">
<numFmts count="2"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/>
<numFmt numFmtId="165" formatCode="[h]:mm:ss"/></numFmts>
<fonts count="1"><font/></fonts>
<fills count="1"><fill><patternFill patternType="none"/></fill></fills>
<borders count="1"><border/></borders>
<cellStyleXfs count="1"><xf numFmtId="0"/></cellStyleXfs>
<cellXfs count="5"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/>
<xf numFmtId="164" applyNumberFormat="1"/><xf numFmtId="4" applyNumberFormat="1"/>
<xf numFmtId="165" applyNumberFormat="1"/></cellXfs></styleSheet>"""

SHARED = f"""<sst xmlns="{NS}" count="6" uniqueCount="6">
<si><t>Номер</t></si><si><t xml:space="preserve"> Дата </t></si>
<si><r><rPr><b/></rPr><t>Сум</t></r><r><t>ма</t></r></si>
<si><t>ООО «Ромашка» &amp; Ко</t><rPh sb="0" eb="1"><t>фонетика</t></rPh></si>
<si><t>a_x005F_x000D_b</t></si><si><t/></si></sst>"""

ROWS = """
<row r="1" spans="1:6"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>
 <c r="C1" t="s"><v>2</v></c><c r="D1" t="inlineStr"><is><t>Контрагент</t></is></c>
 <c r="E1" t="inlineStr"><is><r><t>При</t></r><r><rPr><i/></rPr><t>мечание</t></r></is></c>
 <c r="F1" t="str"><f>"Ф"&amp;"ормула"</f><v>Формула</v></c></row>
<row r="2"><c r="A2"><v>101</v></c><c r="B2" s="1"><v>45366</v></c>
 <c r="C2" s="3"><v>1234.56</v></c>
 <c r="D2" t="s"><v>3</v></c><c r="E2" t="b"><v>1</v></c><c r="F2"><f>A2*2</f><v>202</v></c></row>
<row r="3"><c r="A3" t="inlineStr"><is><t>АБ-002</t></is></c><c r="B3" s="2"><v>45367.5</v></c>
 <c r="C3" t="inlineStr"><is><t>1 234,56</t></is></c><c r="D3" t="s"><v>4</v></c>
 <c r="E3" t="e"><v>#N/A</v></c><c r="F3"><f>SUM(A1:A2)</f><v/></c></row>
<row r="4" ht="20" customHeight="1"/>
<row r="6"><c r="C6"><v>1E3</v></c><c r="F6" t="d"><v>2024-03-15T10:30:00</v></c></row>
<row r="7"><c r="B7" s="4"><v>1.25</v></c><c r="A7"><v>7</v></c><c r="D7" t="s"><v>5</v></c></row>
<row r="8"><c r="A8"><v>1</v></c><c r="B8"><v>2.5</v></c><c r="C8" t="inlineStr"><is/></c>
 <c r="F8" t="b"><v>0</v></c></row>
<row r="9"><c r="A9" t="inlineStr"><is><t>15.03.2024</t></is></c><c r="B9" s="1"/>
 <c r="C9" t="str"><f>B9</f></c><c r="E9" t="inlineStr"><is><t>Итого</t></is></c></row>
<row r="10"/><row r="12"><c r="A12" s="0"><v>-3</v></c><c r="A12"><v>4</v></c></row>
"""

IRREGULAR = ROWS.replace(
    '<row r="8"><c r="A8"><v>1</v></c><c r="B8"><v>2.5</v></c><c r="C8" t="inlineStr"><is/></c>',
    '<row><c><v>1</v></c><c><v>2.5</v></c><c t="inlineStr"><is/></c>',
)

TAIL = (
    '<autoFilter ref="A1:F12"><filterColumn colId="1"><customFilters>'
    '<customFilter operator="bogus" val="1"/></customFilters></filterColumn></autoFilter>'
    '<mergeCells count="1"><mergeCell ref="E1:F1"/></mergeCells>'
)


def write_book(
    path: Path, rows: str = ROWS, *, dimension: str | None = "A1:F12", date1904: bool = False
) -> Path:
    dim = f'<dimension ref="{dimension}"/>' if dimension else ""
    sheet = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="{NS}" '
    sheet += f'xmlns:r="{REL}">{dim}<sheetData>{rows}</sheetData>{TAIL}</worksheet>'
    workbook_pr = '<workbookPr date1904="1"/>' if date1904 else ""
    parts = {
        "[Content_Types].xml": (
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
            'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/xl/workbook.xml" ContentType="{CT}.sheet.main+xml"/>'
            f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{CT}.worksheet+xml"/>'
            f'<Override PartName="/xl/styles.xml" ContentType="{CT}.styles+xml"/>'
            f'<Override PartName="/xl/sharedStrings.xml" ContentType="{CT}.sharedStrings+xml"/>'
            "</Types>"
        ),
        "_rels/.rels": f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" '
        f'Type="{REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook xmlns="{NS}" xmlns:r="{REL}">{workbook_pr}<sheets>'
        '<sheet name="Реестр" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" '
        f'Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" '
        f'Type="{REL}/styles" Target="styles.xml"/><Relationship Id="rId3" '
        f'Type="{REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        "xl/styles.xml": STYLES,
        "xl/sharedStrings.xml": SHARED,
        "xl/worksheets/sheet1.xml": sheet,
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in parts.items():
            zf.writestr(name, text)
    return path


def read(path: Path, *, reader: str = "auto") -> tuple[list[tuple[Any, ...]], int, str]:
    """Rows padded to the sheet's width (openpyxl's rows end at their last cell)."""
    with open_sheet(path, None, reader=reader) as sheet:  # type: ignore[arg-type]
        width = sheet.max_column
        rows = [tuple(row) + (None,) * (width - len(row)) for row in sheet.rows]
        return rows, width, sheet.reader


def same_values(rows: list[tuple[Any, ...]], width: int = 6) -> list[tuple[Any, ...]]:
    """openpyxl's values where calamine's differ on purpose: "" (an empty string
    cell) and error cells (``#N/A``) are empty to calamine."""
    return [tuple(None if v == "" or v == "#N/A" else v for v in row[:width]) for row in rows]


@pytest.fixture(autouse=True)
def _no_style_warning() -> Any:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Workbook contains no default style")
        yield


@pytest.mark.parametrize(
    ("dimension", "date1904"),
    [("A1:F12", False), (None, False), ("A1:F12", True), ("B2", False), ("A1:XFD1048576", False)],
)
def test_calamine_gives_what_openpyxl_gives(
    tmp_path: Path, dimension: str | None, date1904: bool
) -> None:
    path = write_book(tmp_path / "t.xlsx", dimension=dimension, date1904=date1904)
    rows, width, reader = read(path)
    assert reader == "calamine" and width == 6  # the cells' width, whatever is declared
    reference, _, _ = read(path, reader="openpyxl")
    assert rows == same_values(reference)
    assert reference[2][4] == "#N/A" and rows[2][4] is None
    assert rows[0] == ("Номер", " Дата ", "Сумма", "Контрагент", "Примечание", "Формула")
    assert rows[3] == rows[4] == (None,) * 6  # self-closing and missing rows
    assert rows[2][3] == "a_x000D_b" and rows[2][5] is None  # x005F_ dropped; no cached value
    assert type(rows[1][0]) is int and type(rows[1][2]) is float  # 101, 1234.56
    assert rows[11][0] == 4  # a repeated cell: the last one wins


def test_the_scan_counts_what_the_import_reports(tmp_path: Path) -> None:
    path = write_book(tmp_path / "t.xlsx")
    with open_sheet(path, None) as sheet:
        scan = sheet.scan
    assert scan.formulas_without_value == 2 and scan.autofilters_removed == 1
    assert scan.merged == [(4, 1, 5, 1)]
    assert (scan.rows, scan.columns, scan.regular) == (12, 6, True)


@pytest.mark.parametrize("chunk", [64, 4096])
def test_the_scan_does_not_depend_on_where_pieces_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    path = write_book(tmp_path / "t.xlsx", rows=ROWS * 3)

    def scan() -> SheetScan:
        with zipfile.ZipFile(path) as zf, zf.open("xl/worksheets/sheet1.xml") as src:
            return scan_sheet(src)

    whole = scan()
    monkeypatch.setattr(xlsx_scan, "_CHUNK", chunk)
    assert scan() == whole


def test_an_irregular_sheet_is_streamed_by_openpyxl(tmp_path: Path) -> None:
    """Cells without a reference: the scan cannot bound where calamine puts them."""
    path = write_book(tmp_path / "i.xlsx", IRREGULAR)
    rows, _, reader = read(path)
    assert reader == "openpyxl"
    assert rows[7][:6] == (1, 2.5, "", None, None, False)


@pytest.mark.parametrize(
    "rows",
    [
        # 1,000 rows × 16,384 columns: the dense grid alone is twice CALAMINE_BUDGET
        '<row r="1"><c r="A1"><v>1</v></c></row><row r="1000"><c r="XFD1000"><v>2</v></c></row>',
        '<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="B900000"><v>2</v></c></row>',
        '<row r="1"><c r="A1"><v>1</v></c><c r="ZZZZ1"><v>2</v></c></row>',
    ],
    ids=["far-apart", "cell-below-its-row", "past-XFD"],
)
def test_what_calamine_would_abort_on_goes_to_openpyxl(tmp_path: Path, rows: str) -> None:
    """calamine allocates rows × columns at once and the process aborts when that
    fails: such sheets must never reach it."""
    path = write_book(tmp_path / "h.xlsx", rows, dimension="A1")
    assert outcome(path) == outcome(path, reader="openpyxl")
    with open_sheet(path, None) as sheet:
        assert sheet.reader == "openpyxl"


@pytest.mark.parametrize(
    ("edit", "reader"),
    [
        (lambda x: x.replace("<sheetData>", "<!-- <c r=\"XFD9\"> --><sheetData>"), "calamine"),
        (lambda x: x.replace('<row r="2">', '<row r="2.0">'), "openpyxl"),  # calamine refuses it
        (lambda x: x.replace('<row r="3">', '<row spans="1:6" r="3">'), "openpyxl"),  # unbounded
    ],
    ids=["comment", "float-row", "row-ref-not-first"],
)  # fmt: skip
def test_unusual_sheets_read_the_same(tmp_path: Path, edit: Any, reader: str) -> None:
    path = rewrite_sheet(write_book(tmp_path / "u.xlsx"), edit)
    rows, _, used = read(path)
    assert used == reader
    reference = read(path, reader="openpyxl")[0]
    assert rows == (same_values(reference) if used == "calamine" else reference)


def test_a_prefixed_sheet_reads_as_the_plain_one(tmp_path: Path) -> None:
    """openpyxl's read-only mode finds no rows in it; calamine reads them all."""
    plain = read(write_book(tmp_path / "plain.xlsx"))[0]
    path = rewrite_sheet(
        write_book(tmp_path / "x.xlsx"),
        lambda x: x.replace(f'<worksheet xmlns="{NS}"', f'<x:worksheet xmlns:x="{NS}"')
        .replace("</worksheet>", "</x:worksheet>"),
    )  # fmt: skip
    assert read(path) == (plain, 6, "calamine")


def rewrite_sheet(path: Path, edit: Any) -> Path:
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"].decode()
    parts["xl/worksheets/sheet1.xml"] = edit(sheet).encode()
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    return path


def test_a_sheet_calamine_cannot_read_is_read_by_openpyxl(tmp_path: Path, caplog: Any) -> None:
    path = write_book(tmp_path / "a.xlsx", ROWS.replace('r="A3"', 'r="$A$3"'))
    with caplog.at_level(logging.INFO, logger="docbatch_gui.registry.xlsx_read"):
        assert outcome(path) == outcome(path, reader="openpyxl")
    assert "calamine:" in caplog.text


def outcome(path: Path, *, reader: str = "auto") -> Any:
    """The rows, or the message a person would see."""
    try:
        return read(path, reader=reader)[0]
    except UnsupportedInput as exc:
        return str(exc)


def test_import_results_are_the_same_either_way(tmp_path: Path, monkeypatch: Any) -> None:
    """Without the cells calamine reads as empty on purpose (an error, empty strings)."""
    rows = ROWS.replace('<c r="E3" t="e"><v>#N/A</v></c>', "")
    rows = rows.replace('<c r="D7" t="s"><v>5</v></c>', '<c r="D7" t="s"><v>0</v></c>')
    path = write_book(tmp_path / "i.xlsx", rows.replace('<c r="C8" t="inlineStr"><is/></c>', ""))
    cfg = load_config({"header_row": 1, "mapping": {"number": "A", "date": "B", "amount": "C",
                       "counterparty": "D"}, "skip_rows_containing": ["итого"]})  # fmt: skip

    def run() -> tuple[Any, ...]:
        imported = read_registry(path, cfg)
        rows = [row for chunk in imported for row in chunk]
        return rows, imported.filtered, imported.stats

    fast = run()
    monkeypatch.setattr(excel, "CALAMINE_BUDGET", 0)
    assert fast == run()
    assert [r.normalized["date"] for r in fast[0]][:2] == ["2024-03-15", "2024-03-16"]


def test_the_budget_keeps_the_bench_on_calamine_and_a_million_rows_off_it() -> None:
    """The measured cases: 100,000 × 20 (half text) took +184 MB, 1,000,000 × 3 +237 MB."""
    bench = SheetScan(cells=2_000_000, inline_strings=1_100_000, rows=100_001, columns=20)
    million = SheetScan(cells=3_000_000, inline_strings=1_000_000, rows=1_000_001, columns=3)
    assert 184 << 20 < calamine_estimate(bench, 0) <= CALAMINE_BUDGET
    assert calamine_estimate(million, 0) > CALAMINE_BUDGET


@pytest.mark.parametrize(
    ("cell", "without_value"),
    [
        (b'<c r="A1"><f>B1*2</f><v>2000</v></c>', 0),
        (b'<c r="A1"><f>B1*2</f><v /></c>', 1),
        (b'<c r="A1"><f>B1*2</f><v/></c>', 1),
        (b'<c r="A1"><f>B1*2</f><v></v></c>', 1),  # openpyxl's output when lxml is installed
        (b'<c r="A1"><f>B1*2</f></c>', 1),
    ],
)
def test_a_formula_without_a_cached_value_is_counted_in_every_spelling(
    cell: bytes, without_value: int
) -> None:
    assert _count_formulas(cell, _FormulaState()) == without_value
