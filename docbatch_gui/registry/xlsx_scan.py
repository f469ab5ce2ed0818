"""The byte-level pass over a worksheet: autoFilter removal, merged ranges, formula count.

openpyxl validates ``autoFilter`` content strictly (an unknown ``customFilter``
operator still fails 3.1.5, even in read-only mode) and a filter never matters for an
import, so the openpyxl path reads a temporary copy without them, written member by
member in 1 MB pieces so a sheet of a million rows is never held in memory. The same
pass collects what read-only reading cannot give: the merged ranges (for merged header
cells) and the number of formula cells that have no cached value. The fast reader
needs no copy, only the scan (``scan_sheet``).
"""

from __future__ import annotations

import re
import shutil
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

__all__ = ["SheetScan", "clean_copy", "scan_sheet"]

_CHUNK = 1 << 20
_MAX_FILTER_BYTES = 16 << 20
_PREFIX = rb"(?:[A-Za-z_][\w.-]*:)?"
_AF_START = re.compile(rb"<" + _PREFIX + rb"autoFilter\b")
_AF_END = re.compile(rb"</" + _PREFIX + rb"autoFilter\s*>")
_MERGE = re.compile(
    rb"<" + _PREFIX + rb'mergeCell\s[^>]*?ref="([A-Za-z]+)(\d+)(?::([A-Za-z]+)(\d+))?"'
)
_F_START = re.compile(rb"<" + _PREFIX + rb"f[\s>/]")
_V_START = re.compile(rb"<" + _PREFIX + rb"v\b[^>]*(?<!/)>")  # <v/> is no value
_C_END = re.compile(rb"</" + _PREFIX + rb"c>")


@dataclass
class SheetScan:
    """What the cleaning pass learnt about one worksheet member."""

    autofilters_removed: int = 0
    # (first_col0, first_row, last_col0, last_row): columns 0-based, rows 1-based.
    merged: list[tuple[int, int, int, int]] = field(default_factory=list)
    formulas_without_value: int = 0


@dataclass
class _FormulaState:
    open: bool = False  # a formula cell started in an earlier piece and has not ended
    has_value: bool = False


def _has_value(region: bytes, start: int, stop: int) -> bool:
    """A ``<v>`` with something in it between ``start`` and ``stop``: ``<v/>`` and
    ``<v></v>`` (what openpyxl writes with lxml) are no value. A ``<v>`` at the very
    end of a piece counts as a value: its content is in the next piece."""
    for match in _V_START.finditer(region, start, stop):
        rest = region[match.end() : stop].lstrip()
        if not rest or not rest.startswith(b"</"):
            return True
    return False


def _count_formulas(region: bytes, state: _FormulaState) -> int:
    """Count ``<c>`` elements with an ``<f>`` and no ``<v>``; cells may span pieces."""
    count, pos = 0, 0
    if state.open:
        end = _C_END.search(region)
        stop = end.start() if end else len(region)
        state.has_value = state.has_value or _has_value(region, 0, stop)
        if end is None:
            return 0
        count += not state.has_value
        state.open, pos = False, end.end()
    while (start := _F_START.search(region, pos)) is not None:
        end = _C_END.search(region, start.end())
        stop = end.start() if end else len(region)
        has_value = _has_value(region, start.end(), stop)
        if end is None:
            state.open, state.has_value = True, has_value
            break
        count += not has_value
        pos = end.end()
    return count


def _cell_ref(letters: bytes, digits: bytes) -> tuple[int, int]:
    col = 0
    for ch in letters.upper():
        col = col * 26 + ch - 64
    return col - 1, int(digits)


def _clean_sheet(src: IO[bytes], dst: IO[bytes] | None) -> SheetScan:
    """Copy one worksheet XML without ``autoFilter``; only whole tags are ever cut.

    With ``dst=None`` it only scans, for the fast reader, which needs no copy.
    """
    scan, state, buf = SheetScan(), _FormulaState(), b""
    while True:
        chunk = src.read(_CHUNK)
        eof = not chunk
        buf += chunk
        while (start := _AF_START.search(buf)) is not None:
            close = buf.find(b">", start.end())
            end: int | None = None
            if close != -1 and buf[close - 1 : close] == b"/":
                end = close + 1
            elif close != -1 and (m := _AF_END.search(buf, close)) is not None:
                end = m.end()
            if end is None:
                if eof or len(buf) - start.start() > _MAX_FILTER_BYTES:
                    raise ValueError("an autoFilter element never ends")
                break
            buf = buf[: start.start()] + buf[end:]
            scan.autofilters_removed += 1
        if eof:
            cut = len(buf)
        else:
            pending = _AF_START.search(buf)
            cut = pending.start() if pending else buf.rfind(b"<")
            cut = len(buf) if cut < 0 else cut
        region, buf = buf[:cut], buf[cut:]
        for m in _MERGE.finditer(region):
            c0, r0 = _cell_ref(m.group(1), m.group(2))
            c1, r1 = _cell_ref(m.group(3), m.group(4)) if m.group(3) else (c0, r0)
            scan.merged.append((c0, r0, c1, r1))
        scan.formulas_without_value += _count_formulas(region, state)
        if dst is not None:
            dst.write(region)
        if eof:
            return scan


def clean_copy(path: Path, target: Path, members: set[str]) -> dict[str, SheetScan]:
    scans: dict[str, SheetScan] = {}
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
                    scans[info.filename] = _clean_sheet(src, dst)
                else:
                    shutil.copyfileobj(src, dst, _CHUNK)
    return scans


def scan_sheet(src: IO[bytes]) -> SheetScan:
    """What ``clean_copy`` learns about a sheet, without writing a copy."""
    return _clean_sheet(src, None)
