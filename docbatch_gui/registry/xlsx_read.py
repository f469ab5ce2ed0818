"""The two readers of a worksheet's values: python-calamine, and openpyxl streaming.

calamine parses a 100,000 × 20 sheet about five times faster than openpyxl, but it
builds the whole sheet in memory first: a cell costs about 40 bytes while parsing,
every cell of the dense ``rows × columns`` block 32 bytes more (empty ones too), an
inline string some 30 bytes of text (python-calamine 0.9, measured on sheets of
numbers, shared and inline strings, and sparse ones; the peak is what counts).
``CALAMINE_BUDGET`` keeps a sheet of up to about two million cells on calamine (the
100,000 × 20 bench: +184 MB measured) and sends a million-row sheet (+237 MB with
three columns) to openpyxl's read-only mode, which streams in constant memory.

calamine's values are brought to what openpyxl gives (``calamine_rows.calamine_rows``),
so the rest of the import never knows which reader ran: an empty cell is None, not
""; a whole number is an int (calamine has only floats for .xlsx); a date is a
``datetime``. Error cells (``#N/A``) read as empty, where openpyxl gives their text.
On Linux calamine runs in a child process (``calamine_process``); ``open_calamine``
runs it in this one, where a child's memory cannot be capped.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import python_calamine

from docbatch_gui.domain.messages import coded
from docbatch_gui.domain.said import cause
from docbatch_gui.registry.calamine_rows import calamine_rows
from docbatch_gui.registry.xlsx_scan import SheetScan, strip_autofilters

__all__ = ["CALAMINE_BUDGET", "Unreadable", "calamine_estimate", "open_calamine", "open_openpyxl"]

CALAMINE_BUDGET = 256 << 20
_CELL, _DENSE, _INLINE, _STRINGS = 48, 32, 40, 2  # bytes (a factor for the strings)

_log = logging.getLogger(__name__)
Rows = Iterator[tuple[Any, ...]]


class Unreadable(Exception):
    """openpyxl cannot open the workbook; the message says why."""


def calamine_estimate(scan: SheetScan, shared_strings: int) -> int:
    """Peak bytes calamine would take for the scanned sheet (see the module doc);
    ``shared_strings`` is the uncompressed size of the table it loads on open."""
    dense = scan.rows * scan.columns
    return (
        scan.cells * _CELL
        + dense * _DENSE
        + scan.inline_strings * _INLINE
        + shared_strings * _STRINGS
    )


def open_calamine(path: Path, name: str, stack: contextlib.ExitStack) -> tuple[int, Rows] | None:
    """The sheet's width and rows, or None when calamine cannot read it."""
    try:
        workbook = python_calamine.CalamineWorkbook.from_path(str(path))
        stack.callback(_close, workbook)
        sheet = workbook.get_sheet_by_name(name)
    except BaseException as exc:  # a Rust panic arrives as a BaseException
        if not isinstance(exc, Exception) and type(exc).__name__ != "PanicException":
            raise
        _log.info(
            "%s: streamed by openpyxl (%s)",
            path.name,
            coded("log_reason_calamine_failed", error=cause(exc)).english,
        )
        return None
    end = sheet.end
    return (end[1] + 1 if end else 0), calamine_rows(sheet)


def _close(workbook: python_calamine.CalamineWorkbook) -> None:
    with contextlib.suppress(python_calamine.CalamineError):
        workbook.close()


def open_openpyxl(
    path: Path, member: str, name: str, scan: SheetScan, stack: contextlib.ExitStack
) -> tuple[int, Rows] | None:
    """openpyxl read-only, over a copy without ``autoFilter`` when the sheet has one;
    None for a chart sheet. Raises Unreadable when openpyxl cannot open the book."""
    source = path
    if scan.autofilters_removed:
        fd, tmp_name = tempfile.mkstemp(prefix="docbatch-registry-", suffix=path.suffix)
        os.close(fd)
        source = Path(tmp_name)
        stack.callback(lambda: source.unlink(missing_ok=True))
        strip_autofilters(path, source, {member})
    # deferred: 0.4 s of the window's first show (openpyxl imports numpy, lxml, PIL)
    import openpyxl

    try:
        workbook = openpyxl.load_workbook(source, read_only=True, data_only=True)
        stack.callback(workbook.close)
        worksheet = workbook[name]
    except Exception as exc:  # openpyxl raises many unrelated types on bad XML
        raise Unreadable(f"{type(exc).__name__}: {exc}") from exc
    if not hasattr(worksheet, "reset_dimensions"):
        return None
    max_column = scan.columns
    if not scan.regular:  # the scan did not bound the columns: the declared ones
        max_column = 0
        with contextlib.suppress(Exception):
            max_column = int(worksheet.max_column or 0)
    # A wrong <dimension> would silently truncate rows and columns: ignore it.
    worksheet.reset_dimensions()
    return max_column, worksheet.iter_rows(values_only=True)
