"""How big a registry sheet may be: Excel's own limits, and the operator's settings.

A workbook is a few kilobytes of XML that can declare anything: a ``<dimension>`` of
A1:XFD1048576 over ten rows, a single cell in column XFD that widens every row to
16,384 columns, a row numbered 2,000,000,000 that would have the reader produce two
billion empty rows first, a cell of ten million characters. The import counts what
the sheet *uses*, never what it declares (the readers ignore ``<dimension>``), and
refuses, with the row and column named, what no workbook Excel wrote can hold or what
is past the settings:

- ``REGISTRY_MAX_ROWS`` (at most Excel's 1,048,576): a row holding a value past it
  refuses the sheet; a row number past Excel's limit refuses it even when empty;
- ``REGISTRY_MAX_COLUMNS`` (at most Excel's 16,384, column XFD): a value past it
  refuses the sheet, empty cells past it are dropped;
- ``REGISTRY_MAX_CELL_CHARS`` (at most Excel's 32,767 characters per cell): a longer
  text refuses the sheet (``rows.RowFilter``).

A kept row stores its cells up to its last non-empty one, so an empty column XFD costs
nothing per row.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docbatch_gui.domain.errors import UnsupportedInput
from docbatch_gui.registry.config import column_letter
from docbatch_gui.registry.rows import filled_width

__all__ = [
    "EXCEL_MAX_CELL_CHARS",
    "EXCEL_MAX_COLUMNS",
    "EXCEL_MAX_ROWS",
    "SheetLimits",
    "bounded_rows",
    "too_many_rows",
]

EXCEL_MAX_ROWS = 1_048_576
EXCEL_MAX_COLUMNS = 16_384
EXCEL_MAX_CELL_CHARS = 32_767


@dataclass(frozen=True)
class SheetLimits:
    """The caps one import or preview runs under (plain values: they cross to the
    calamine child)."""

    max_rows: int = EXCEL_MAX_ROWS
    max_columns: int = EXCEL_MAX_COLUMNS
    max_cell_chars: int = EXCEL_MAX_CELL_CHARS

    @classmethod
    def of(cls, settings: Any) -> SheetLimits:
        """From the settings (``REGISTRY_MAX_ROWS`` and the others)."""
        return cls(
            settings.registry_max_rows, settings.registry_max_columns,
            settings.registry_max_cell_chars,
        )  # fmt: skip


def _refused(path: Path, sheet: str, code: str, **params: Any) -> UnsupportedInput:
    return UnsupportedInput.coded(
        code, {"file": path.name, "sheet": sheet, **params}, file=str(path)
    )


def too_many_rows(path: Path, sheet: str, row: int, limits: SheetLimits) -> UnsupportedInput:
    return _refused(path, sheet, "registry_too_many_rows", row=row, max=limits.max_rows)


def bounded_rows(
    path: Path, sheet: str, rows: Iterator[tuple[Any, ...]], limits: SheetLimits
) -> Iterator[tuple[Any, ...]]:
    """``rows`` (from row 1) within ``limits``: refused at the first value past them,
    at once past Excel's last row; empty cells past ``max_columns`` dropped."""
    columns = limits.max_columns
    for number, values in enumerate(rows, start=1):
        if number > limits.max_rows:
            if number > EXCEL_MAX_ROWS or filled_width(values):
                raise too_many_rows(path, sheet, number, limits)
            continue
        if len(values) > columns:
            used = filled_width(values)
            if used > columns:
                raise _refused(
                    path, sheet, "registry_too_many_columns", row=number,
                    column=column_letter(used - 1), count=used, max=columns,
                )  # fmt: skip
            values = values[:columns]
        yield values
