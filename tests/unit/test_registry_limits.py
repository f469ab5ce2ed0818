"""Registry sheets are bounded by what they use, not what they declare (issue 18).

The attacks: a 435 KB xlsx whose one far cell widened every row to 16,384 columns (a
3.6 GB database), a ``<dimension>`` of A1:XFD1048576 over ten rows, a row numbered
2,000,000,000 (45 minutes of empty rows, in the wizard's preview too), and a cell of
ten million characters. Each is read by every path the import has: calamine in a
child process (big sheets), calamine in process, and openpyxl (irregular or heavy
sheets).
"""

from __future__ import annotations

import random
import string
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.errors import UnsupportedInput
from docbatch_gui.registry import excel
from docbatch_gui.registry.calamine_process import IN_CHILD
from docbatch_gui.registry.config import RegistryConfig
from docbatch_gui.registry.importer import preview, read_registry
from docbatch_gui.registry.limits import SheetLimits
from docbatch_gui.settings.loading import load_settings
from tests.builders import raw_xlsx
from tests.builders import xlsx_cell as cell
from tests.builders import xlsx_row as row

CONFIG = RegistryConfig(mapping={"number": 0})
HEADER = row(1, [cell("A1", "number"), cell("B1", "name")])
DATA = "".join(row(i, [cell(f"A{i}", f"N-{i}"), cell(f"B{i}", "x")]) for i in range(2, 11))

# the child path starts a process per case: the full suite runs it, the fast loop not
PATHS = [pytest.param("child", marks=pytest.mark.slow), "calamine", "openpyxl"]


@pytest.fixture(params=PATHS)
def reader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Which reader the import takes: the thresholds that choose it, moved."""
    path = str(request.param)
    if path == "child":
        if not IN_CHILD:
            pytest.skip("calamine runs in a child only on Linux")
        monkeypatch.setattr(excel, "CHILD_FROM", 0)
    elif path == "openpyxl":
        monkeypatch.setattr(excel, "CALAMINE_BUDGET", -1)
    return path


def _import(path: Path, limits: SheetLimits | None = None) -> tuple[list[Any], Any]:
    run = read_registry(path, CONFIG, limits=limits, stored=True)
    rows = [record for chunk in run for record in chunk]
    return rows, run.stats


def _refusal(path: Path, limits: SheetLimits | None = None) -> UnsupportedInput:
    """The import's refusal, after checking the wizard's preview refuses the same
    (over all rows, as its counts do)."""
    with pytest.raises(UnsupportedInput) as refused:
        _import(path, limits)
    assert refused.value.message is not None, refused.value
    with pytest.raises(UnsupportedInput) as in_preview:
        preview(path, CONFIG, rows=1000, limits=limits)
    assert in_preview.value.message == refused.value.message
    return refused.value


def _code(error: UnsupportedInput) -> str:
    found = error.message
    assert found is not None
    return found.code


def test_a_far_header_does_not_widen_every_stored_row(tmp_path: Path, reader: str) -> None:
    wide = raw_xlsx(
        tmp_path / "wide.xlsx",
        row(1, [cell("A1", "number"), cell("B1", "name"), cell("XFD1", "far")]) + DATA,
    )
    rows, stats = _import(wide)
    assert len(stats.headers) == 16_384  # the sheet uses column XFD: its header is kept
    assert len(rows) == 9
    # … but a row stores its cells up to its last value, not 16,384 of them
    assert all(list(r.raw_data) == ["number", "name"] for r in rows), rows[0].raw_data
    assert rows[0].mapped_data == {"number": "N-2"}


def test_columns_past_the_setting_are_refused_with_the_cell_named(
    tmp_path: Path, reader: str
) -> None:
    wide = raw_xlsx(
        tmp_path / "wide.xlsx",
        HEADER + DATA + row(11, [cell("A11", "N-11"), cell("XFD11", "far")]),
    )
    refused = _refusal(wide, SheetLimits(max_columns=100))
    assert _code(refused) == "registry_too_many_columns"
    assert "row 11: a value in column XFD" in refused.text


def test_a_declared_dimension_is_not_the_used_range(tmp_path: Path, reader: str) -> None:
    declared = raw_xlsx(tmp_path / "declared.xlsx", HEADER + DATA, dimension="A1:XFD1048576")
    rows, stats = _import(declared)
    assert stats.headers == ["number", "name"] and len(rows) == 9
    assert len(preview(declared, CONFIG).headers) == 2


def test_a_row_numbered_two_billion_is_refused_before_reading(tmp_path: Path, reader: str) -> None:
    far = row(2_000_000_000, [cell("A2000000000", "far")])
    tall = raw_xlsx(tmp_path / "tall.xlsx", HEADER + DATA + far)
    assert _code(_refusal(tall)) == "registry_too_many_rows"
    # written irregularly (a cell without its reference), so the byte scan cannot
    # bound the sheet: its row numbers are still counted
    odd = '<row r="2000000000"><c t="inlineStr"><is><t>far</t></is></c></row>'
    irregular = raw_xlsx(tmp_path / "irregular.xlsx", HEADER + DATA + odd)
    with pytest.raises(UnsupportedInput, match="2,000,000,000"):
        _import(irregular)


def test_rows_past_the_setting_are_refused_only_when_they_hold_a_value(
    tmp_path: Path, reader: str
) -> None:
    styled = raw_xlsx(tmp_path / "styled.xlsx", HEADER + DATA + '<row r="500" s="1"/>')
    rows, _stats = _import(styled, SheetLimits(max_rows=100))
    assert len(rows) == 9
    filled = raw_xlsx(tmp_path / "filled.xlsx", HEADER + DATA + row(500, [cell("A500", "x")]))
    assert _code(_refusal(filled, SheetLimits(max_rows=100))) == "registry_too_many_rows"


@pytest.fixture(scope="module")
def text_bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # random letters: a repeated text would already be refused as a zip bomb
    text = "".join(random.Random(18).choices(string.ascii_letters, k=10_000_000))
    path = tmp_path_factory.mktemp("bomb") / "text.xlsx"
    return raw_xlsx(path, HEADER + DATA + row(11, [cell("A11", "N-11"), cell("B11", text)]))


@pytest.mark.slow  # ten megabytes through each reader, twice
def test_a_ten_megabyte_cell_is_refused(text_bomb: Path, reader: str) -> None:
    refused = _refusal(text_bomb)
    assert _code(refused) == "registry_cell_too_long"
    assert "row 11, column B holds 10,000,000 characters" in refused.text
    assert "REGISTRY_MAX_CELL_CHARS" in refused.words("ru")


def test_the_wizard_preview_runs_under_the_settings(tmp_path: Path) -> None:
    """``RegistryService.preview`` is what the wizard calls (``_qt/registry/wizard.py``)."""
    wide = raw_xlsx(
        tmp_path / "wide.xlsx", row(1, [cell("A1", "number"), cell("XFD1", "far")]) + DATA
    )
    app = DocBatchApp(load_settings(data_dir=tmp_path / "data", REGISTRY_MAX_COLUMNS=100))
    try:
        with pytest.raises(UnsupportedInput, match="REGISTRY_MAX_COLUMNS"):
            app.registry.preview(wide, CONFIG)
    finally:
        app.close()


def test_a_thirty_digit_amount_is_unreadable_and_a_negative_one_keeps_its_sign(
    tmp_path: Path, reader: str
) -> None:
    """Issue 18: a 27-digit amount aborted the import with a traceback naming no row."""
    header = row(1, [cell("A1", "number"), cell("B1", "amount")])
    amounts = row(2, [cell("A2", "N-2"), cell("B2", "1" * 30)]) + row(
        3, [cell("A3", "N-3"), cell("B3", "-100.50")]
    )
    book = raw_xlsx(tmp_path / "amounts.xlsx", header + amounts)
    config = RegistryConfig(mapping={"number": 0, "amount": 1})
    rows = [r for chunk in read_registry(book, config) for r in chunk]
    assert [r.normalized["amount"] for r in rows] == [None, "-100.50"]
    assert rows[0].raw_data["amount"] == "1" * 30  # the cell itself is kept as it was
