"""One byte-level pass over a worksheet before any reader sees it.

python-calamine reads a sheet into one dense block of ``rows × columns`` cells, and
when that allocation fails the Rust runtime aborts the whole process: two values at
A1 and XFD1048576 would take the application down. So before calamine is asked,
this pass bounds what it would allocate: the number of cells, the highest row and
the highest column. It only trusts what it can count cheaply in the form every
producer writes (``<row r="7">``, ``<c r="B7" …>``); a sheet written any other way is
marked irregular and goes to openpyxl's streaming reader instead.

The same pass collects what neither reader gives: the number of formula cells
Excel never calculated (they read as empty), the merged ranges (for merged header
cells; openpyxl's read-only mode has none) and the ``autoFilter`` elements, which
the import ignores. openpyxl validates filter content strictly (an unknown
``customFilter`` operator still fails 3.1.5), so its path reads a copy without them
(``strip_autofilters``), written in 1 MB pieces so a million-row sheet is never held
in memory.

Everything here is ``bytes.count`` and literal-prefix regex searches over 1 MB
pieces: a 100 MB sheet takes a fraction of what calamine takes to read it.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import IO

__all__ = ["SheetScan", "scan_sheet", "strip_autofilters"]

_CHUNK = 1 << 20
_MAX_FILTER_BYTES = 16 << 20
_ROOT = re.compile(rb"<(?:([A-Za-z_][\w.-]*):)?worksheet[\s>/]")


@dataclass
class SheetScan:
    """What one pass over a worksheet member learnt."""

    autofilters_removed: int = 0  # autoFilter elements: ignored by the import
    # (first_col0, first_row, last_col0, last_row): columns 0-based, rows 1-based.
    merged: list[tuple[int, int, int, int]] = field(default_factory=list)
    formulas_without_value: int = 0
    cells: int = 0
    inline_strings: int = 0
    rows: int = 0  # the highest row number
    columns: int = 0  # the highest column number (1-based)
    regular: bool = True  # every row and cell in the form the bounds above rely on
    #: the highest ``<row r="…">`` of an irregular sheet (a regular one has it in ``rows``)
    irregular_rows: int = 0

    @property
    def last_row(self) -> int:
        """The highest row number the sheet declares, however it is written."""
        return max(self.rows, self.irregular_rows)


@dataclass
class _FormulaState:
    open: bool = False  # a formula cell started in an earlier piece and has not ended
    has_value: bool = False


class _Patterns:
    """The tags of one namespace prefix, as bytes and literal-prefix regexes."""

    def __init__(self, prefix: bytes) -> None:
        self.prefix = prefix
        p = re.escape(prefix)
        self.cell_any = b"<" + prefix + b"c"
        self.cell_ref = b"<" + prefix + b'c r="'  # as bytes, for count
        self.cell_odd = re.compile(b"<" + p + rb'c(?:[\t\n\r>/]| (?!r="))')
        self.row_any = b"<" + prefix + b"row"
        self.row_ref = re.compile(b"<" + p + rb'row r="(\d+)"')
        self.any_row_ref = re.compile(b"<" + p + rb'row\s[^>]*?\br="(\d+)"')
        self.row_odd = re.compile(b"<" + p + rb'row(?:[\t\n\r>/]| (?!r="))')
        self.cell_start = b"<" + p + rb'c r="'
        self.inline = b't="inlineStr"'
        self.autofilter = b"<" + prefix + b"autoFilter"
        self.merge_tag = b"<" + prefix + b"mergeCell"
        self.merge = re.compile(
            b"<" + p + rb'mergeCell\s[^>]*?ref="([A-Za-z]+)(\d+)(?::([A-Za-z]+)(\d+))?"'
        )
        self.formula = re.compile(b"<" + p + rb"f[\s>/]")
        self.value = re.compile(b"<" + p + rb"v\b[^>]*(?<!/)>")  # <v/> is no value
        self.cell_end = b"</" + prefix + b"c>"


@cache
def _patterns(prefix: bytes) -> _Patterns:
    return _Patterns(prefix)


def _single(columns: int) -> bytes:
    """One column letter past ``columns`` (below 26), as a character class."""
    return b"[%c-Z%c-z]" % (65 + columns, 97 + columns)


def _below(rows: int) -> bytes:
    """Row digits clearly past ``rows``, judged on the first two digits: a cell's own
    reference places it, whatever its ``<row>`` says, so this bounds every cell's row
    to 1.1 × the highest row number at the cost of a search. The lookahead makes the
    usual cell (fewer digits) fail at once."""
    digits = str(rows).encode()
    size = len(digits)
    alternatives = [rb"\d{%d}" % (size + 1)]
    if digits[0] < ord("9"):
        alternatives.append(b"[%c-9]" % (digits[0] + 1))
    if size >= 2 and digits[1] < ord("9"):
        alternatives.append(b"%c[%c-9]" % (digits[0], digits[1] + 1))
    return rb"(?=\d{%d})(?:" % size + b"|".join(alternatives) + b")"


@lru_cache(maxsize=64)  # the row bound grows piece by piece
def _outside(cell_start: bytes, rows: int, columns: int) -> re.Pattern[bytes]:
    """One search for a cell past the bounds seen so far: two column letters or more
    (checked exactly on a match), one letter past the widest yet, or a row too far."""
    wide = rb"[A-Za-z]{2}|" + (_single(columns) + rb"\d|" if columns < 26 else b"")
    return re.compile(cell_start + b"(?:" + wide + rb"[A-Za-z]" + _below(rows) + b")")


@lru_cache(maxsize=64)
def _wider_than(cell_start: bytes, columns: int) -> re.Pattern[bytes]:
    single = b"|" + _single(columns) if columns < 26 else b""
    return re.compile(cell_start + rb"([A-Za-z]{2,}" + single + rb")\d")


@lru_cache(maxsize=64)
def _below_of(cell_start: bytes, rows: int) -> re.Pattern[bytes]:
    return re.compile(cell_start + rb"[A-Za-z]{1,3}" + _below(rows))


def _has_value(pattern: re.Pattern[bytes], region: bytes, start: int, stop: int) -> bool:
    """A ``<v>`` with something in it between ``start`` and ``stop``: ``<v/>`` and
    ``<v></v>`` (what openpyxl writes with lxml) are no value. A ``<v>`` at the very
    end of a piece counts as a value: its content is in the next piece."""
    for match in pattern.finditer(region, start, stop):
        rest = region[match.end() : stop].lstrip()
        if not rest or not rest.startswith(b"</"):
            return True
    return False


def _count_formulas(region: bytes, state: _FormulaState, prefix: bytes = b"") -> int:
    """Count ``<c>`` elements with an ``<f>`` and no ``<v>``; cells may span pieces."""
    pat = _patterns(prefix)
    count, pos = 0, 0
    if state.open:
        end = region.find(pat.cell_end)
        stop = end if end >= 0 else len(region)
        state.has_value = state.has_value or _has_value(pat.value, region, 0, stop)
        if end < 0:
            return 0
        count += not state.has_value
        state.open, pos = False, end + len(pat.cell_end)
    while (start := pat.formula.search(region, pos)) is not None:
        end = region.find(pat.cell_end, start.end())
        stop = end if end >= 0 else len(region)
        has_value = _has_value(pat.value, region, start.end(), stop)
        if end < 0:
            state.open, state.has_value = True, has_value
            break
        count += not has_value
        pos = end + len(pat.cell_end)
    return count


def _cell_ref(letters: bytes, digits: bytes) -> tuple[int, int]:
    # deferred: 0.4 s of the window's first show (openpyxl imports numpy, lxml, PIL)
    from openpyxl.utils import column_index_from_string

    return column_index_from_string(letters.decode().upper()) - 1, int(digits)


class _Scanner:
    """Counts over whole-tag regions of one worksheet, piece by piece."""

    def __init__(self) -> None:
        self.scan = SheetScan()
        self.formulas = _FormulaState()
        self.pat: _Patterns | None = None

    def start(self, head: bytes, *, last: bool) -> bool:
        """Learn the namespace prefix from the root tag; False while ``head`` is too
        short to tell."""
        root = _ROOT.search(head)
        if root is not None:
            self.pat = _patterns(root.group(1) + b":" if root.group(1) else b"")
        elif last or len(head) > _CHUNK:  # a chart sheet, or a form we do not know
            self.scan.regular = False
            self.pat = _patterns(b"")
        return self.pat is not None

    def feed(self, region: bytes) -> None:
        scan = self.scan
        pat = self.pat
        assert pat is not None, "start() first"
        scan.autofilters_removed += region.count(pat.autofilter)
        for m in pat.merge.finditer(region) if pat.merge_tag in region else ():
            try:
                c0, r0 = _cell_ref(m.group(1), m.group(2))
                c1, r1 = _cell_ref(m.group(3), m.group(4)) if m.group(3) else (c0, r0)
            except ValueError:  # past XFD: no cell of the sheet is in it
                continue
            scan.merged.append((c0, r0, c1, r1))
        scan.formulas_without_value += _count_formulas(region, self.formulas, pat.prefix)
        if not scan.regular:
            self._irregular(region)
            return
        cells = region.count(pat.cell_ref)
        if region.count(pat.cell_any) != cells and pat.cell_odd.search(region):
            self._irregular(region)  # a cell without a reference, or not first
            return
        numbers = pat.row_ref.findall(region)
        if region.count(pat.row_any) != len(numbers) and pat.row_odd.search(region):
            self._irregular(region)
            return
        scan.cells += cells
        scan.inline_strings += region.count(pat.inline)
        if numbers:
            scan.rows = max(scan.rows, max(map(int, numbers)))
        rows, columns = max(scan.rows, 1), min(scan.columns, 26)
        if not cells or not _outside(pat.cell_start, rows, columns).search(region):
            return
        if _below_of(pat.cell_start, rows).search(region):
            scan.regular = False  # a cell placed far below every row
            return
        wider = _wider_than(pat.cell_start, columns)
        if wider.search(region):
            # deferred: 0.4 s of the window's first show (openpyxl imports numpy, lxml, PIL)
            from openpyxl.utils import column_index_from_string

            try:
                found = {letters.upper() for letters in wider.findall(region)}
                widest = max(column_index_from_string(x.decode()) for x in found)
            except ValueError:  # past XFD: not a column
                scan.regular = False
                return
            scan.columns = max(scan.columns, widest)

    def _irregular(self, region: bytes) -> None:
        """The sheet is irregular from this region on; its row numbers are still
        counted (a row numbered 2,000,000,000 is refused before any reader runs)."""
        self.scan.regular = False
        assert self.pat is not None
        numbers = self.pat.any_row_ref.findall(region)
        if numbers:
            self.scan.irregular_rows = max(self.scan.irregular_rows, max(map(int, numbers)))


def scan_sheet(src: IO[bytes]) -> SheetScan:
    """Read a worksheet member once and return what it holds (see the module doc)."""
    scanner, buf = _Scanner(), b""
    while True:
        chunk = src.read(_CHUNK)
        buf += chunk
        if scanner.pat is None and not scanner.start(buf, last=not chunk):
            continue
        if not chunk:
            scanner.feed(buf)
            return scanner.scan
        cut = buf.rfind(b"<")  # every tag before the last "<" is whole
        if cut <= 0:
            continue
        scanner.feed(buf[:cut])
        buf = buf[cut:]


def _strip_sheet(src: IO[bytes], dst: IO[bytes]) -> None:
    """Copy one worksheet XML without ``autoFilter``; only whole tags are ever cut."""
    buf = b""
    start_re = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?autoFilter\b")
    end_re = re.compile(rb"</(?:[A-Za-z_][\w.-]*:)?autoFilter\s*>")
    while True:
        chunk = src.read(_CHUNK)
        eof = not chunk
        buf += chunk
        while (start := start_re.search(buf)) is not None:
            close = buf.find(b">", start.end())
            end: int | None = None
            if close != -1 and buf[close - 1 : close] == b"/":
                end = close + 1
            elif close != -1 and (m := end_re.search(buf, close)) is not None:
                end = m.end()
            if end is None:
                if eof or len(buf) - start.start() > _MAX_FILTER_BYTES:
                    raise ValueError("an autoFilter element never ends")
                break
            buf = buf[: start.start()] + buf[end:]
        if eof:
            dst.write(buf)
            return
        pending = start_re.search(buf)
        cut = pending.start() if pending else buf.rfind(b"<")
        cut = len(buf) if cut < 0 else cut
        dst.write(buf[:cut])
        buf = buf[cut:]


def strip_autofilters(path: Path, target: Path, members: set[str]) -> None:
    """Write ``path`` to ``target`` with the ``autoFilter`` of ``members`` removed."""
    # Level 1: the copy lives for one import, so speed matters more than its size.
    with (
        zipfile.ZipFile(path) as zin,
        zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zout,
    ):
        for info in zin.infolist():
            if info.is_dir():
                continue
            force64 = info.file_size > zipfile.ZIP64_LIMIT
            with zin.open(info) as src, zout.open(info.filename, "w", force_zip64=force64) as dst:
                if info.filename in members:
                    _strip_sheet(src, dst)
                else:
                    shutil.copyfileobj(src, dst, _CHUNK)
