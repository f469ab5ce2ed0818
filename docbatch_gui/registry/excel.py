"""Safe opening and streaming of registry workbooks (.xlsx/.xlsm).

Registries come from accounting systems and colleagues' desktops, so the file is
checked before openpyxl sees it: an old .xls, a password-protected workbook, a
truncated download or a zip bomb each get a message that tells a person what to do,
instead of a parser traceback or an exhausted machine.

Rows come from the fast reader (``xlsx_fast``) where it can, else from openpyxl
read-only over a copy without ``autoFilter`` (``xlsx_scan``): openpyxl validates filter
content strictly and a filter never matters for an import. Either way a scan of the
sheet gives what read-only reading cannot: the merged ranges (for merged header
cells) and the number of formula cells that have no cached value.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import posixpath
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import openpyxl

from docbatch_gui.domain.errors import NotFound, UnsupportedInput
from docbatch_gui.registry import xlsx_fast
from docbatch_gui.registry.xlsx_scan import SheetScan, clean_copy, scan_sheet

__all__ = ["OpenedSheet", "SheetScan", "check_archive", "open_sheet", "sheet_members"]

DEFAULT_MAX_UNCOMPRESSED = 1 << 30  # 1 GB in total
DEFAULT_MAX_RATIO = 500  # deflate peaks near 1030:1; real sheets stay far below 500:1
_RATIO_MIN_SIZE = 1 << 20  # tiny members compress absurdly well and are harmless
_CHUNK = 1 << 20

_OLE_MAGIC = bytes.fromhex("D0CF11E0A1B11AE1")
_ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")
_log = logging.getLogger(__name__)
_REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


@dataclass
class OpenedSheet:
    """A worksheet ready to stream; ``rows`` yields value tuples from row 1."""

    name: str
    sheet_names: list[str]
    rows: Iterator[tuple[Any, ...]]
    max_column: int  # from the sheet's dimension, 0 when it declares none
    scan: SheetScan


def _refuse(path: Path, what: str) -> UnsupportedInput:
    return UnsupportedInput(f"{path.name}: {what}", file=str(path))


def _corrupt(path: Path, detail: str) -> UnsupportedInput:
    return _refuse(
        path,
        f"not a readable .xlsx workbook ({detail}). The file may be truncated or damaged: "
        "open it in Excel and save it again as .xlsx, or download it again.",
    )


def _ole_is_encrypted(path: Path) -> bool:
    """An encrypted .xlsx is an OLE container holding an ``EncryptedPackage`` stream."""
    tail = b""
    with path.open("rb") as fh:
        for _ in range(256):  # the directory is near the start; 256 MB is plenty
            chunk = fh.read(_CHUNK)
            if not chunk:
                return False
            if _ENCRYPTED_PACKAGE in tail + chunk:
                return True
            tail = chunk[-len(_ENCRYPTED_PACKAGE) :]
    return False


def check_archive(
    path: Path,
    *,
    max_uncompressed: int = DEFAULT_MAX_UNCOMPRESSED,
    max_ratio: float = DEFAULT_MAX_RATIO,
) -> None:
    """Refuse anything that is not a plausible, bounded xlsx, from headers only."""
    try:
        with path.open("rb") as fh:
            head = fh.read(8)
    except FileNotFoundError as exc:
        raise NotFound("file", path, f"{path}: no such file") from exc
    except OSError as exc:
        raise _refuse(path, f"cannot be opened ({exc.strerror or exc})") from exc
    if head.startswith(_OLE_MAGIC):
        if _ole_is_encrypted(path):
            raise _refuse(
                path,
                "the workbook is password-protected. Open it in Excel, remove the password "
                "(File → Info → Protect Workbook → Encrypt with Password, clear it) and "
                "save it as .xlsx.",
            )
        raise _refuse(
            path,
            "this is an old Excel 97-2003 .xls file. Open it in Excel and save it as "
            ".xlsx (File → Save As → Excel Workbook).",
        )
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise _corrupt(path, "it is not a ZIP archive") from exc
    names = {info.filename for info in infos}
    missing = [n for n in ("[Content_Types].xml", "xl/workbook.xml") if n not in names]
    if missing:
        raise _corrupt(path, f"missing part {', '.join(missing)}")
    total = sum(info.file_size for info in infos)
    if total > max_uncompressed:
        raise _refuse(
            path,
            f"unpacks to {total / 2**20:.0f} MB, more than the {max_uncompressed / 2**20:.0f} "
            "MB limit. Split the registry into smaller files or delete unused sheets.",
        )
    for info in infos:
        if info.file_size < _RATIO_MIN_SIZE:
            continue
        ratio = info.file_size / max(info.compress_size, 1)
        if ratio > max_ratio:
            raise _refuse(
                path,
                f"member {info.filename} claims a compression ratio of {ratio:.0f}:1, which "
                "no real workbook has (a zip bomb?). Re-save the file from Excel.",
            )


def sheet_members(zf: zipfile.ZipFile) -> dict[str, str]:
    """Map sheet names to worksheet members, in workbook order, from workbook.xml."""
    workbook = ElementTree.fromstring(zf.read("xl/workbook.xml"))
    targets: dict[str, str] = {}
    with contextlib.suppress(KeyError):
        rels = ElementTree.fromstring(zf.read("xl/_rels/workbook.xml.rels"))
        for rel in rels:
            target = rel.get("Target", "")
            member = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
            targets[rel.get("Id", "")] = posixpath.normpath(member)
    sheets: dict[str, str] = {}
    for element in workbook.iter():
        if element.tag.rsplit("}", 1)[-1] == "sheet":
            rel_id = element.get(f"{{{_REL_NS}}}id") or ""
            sheets[element.get("name", "")] = targets.get(rel_id, "")
    return sheets


@contextlib.contextmanager
def open_sheet(
    path: Path,
    sheet: str | None,
    *,
    max_uncompressed: int = DEFAULT_MAX_UNCOMPRESSED,
    max_ratio: float = DEFAULT_MAX_RATIO,
    fast: bool = True,
) -> Iterator[OpenedSheet]:
    """Check and open one sheet for lazy row streaming; cleans up on exit.

    ``sheet=None`` means the first sheet. Rows are what
    ``load_workbook(read_only=True, data_only=True)`` gives: formulas give their cached
    value and a formula never calculated by Excel gives None. They come from the fast
    reader (:mod:`.xlsx_fast`, which needs no cleaned copy because it never looks at
    ``autoFilter``) and from openpyxl on the cleaned copy for whatever it leaves;
    ``fast=False`` forces openpyxl, for comparisons.
    """
    path = Path(path)
    check_archive(path, max_uncompressed=max_uncompressed, max_ratio=max_ratio)
    try:
        with zipfile.ZipFile(path) as zf:
            members = sheet_members(zf)
    except (ElementTree.ParseError, zipfile.BadZipFile, KeyError, zlib.error) as exc:
        raise _corrupt(path, f"workbook.xml cannot be read: {exc}") from exc
    names = list(members)
    if not names:
        raise _refuse(path, "the workbook has no sheets")
    name = names[0] if sheet is None else sheet
    if name not in members:
        raise _refuse(
            path,
            f"there is no sheet named {name!r}; the sheets are: "
            + ", ".join(repr(n) for n in names)
            + ". Fix the sheet name in the registry settings.",
        )
    with contextlib.ExitStack() as stack:
        opened = _open_fast(path, members, name, stack) if fast else None
        if opened is None:
            scan, max_column, rows = _open_openpyxl(path, members, name, stack)
        else:
            scan, max_column, rows = opened
        yield OpenedSheet(name, names, _guarded_rows(path, rows), max_column, scan)


_Opened = tuple[SheetScan, int, Iterator[tuple[Any, ...]]]
_FAST_FAILURES = (xlsx_fast.Unsupported, zipfile.BadZipFile, zlib.error, EOFError, OSError)


def _open_fast(
    path: Path, members: dict[str, str], name: str, stack: contextlib.ExitStack
) -> _Opened | None:
    """The fast reader over the original archive, or None when openpyxl must read it.

    The scan for merged cells and uncalculated formulas is a pass of its own (merges
    come after the rows, headers are needed before them); it writes nothing.
    """
    try:
        zf = stack.enter_context(zipfile.ZipFile(path))
        member = members[name]
        if member not in zf.NameToInfo:
            return None
        book = xlsx_fast.read_book(zf)
        with zf.open(member) as src:
            scan = scan_sheet(src)
        max_column, rows = xlsx_fast.sheet_rows(stack.enter_context(zf.open(member)), book)
    except (*_FAST_FAILURES, ValueError) as exc:
        _log.info("%s: read by openpyxl (%s)", path.name, exc)
        return None
    return scan, max_column, _finish_with_openpyxl(path, members, name, stack, rows)


def _finish_with_openpyxl(
    path: Path,
    members: dict[str, str],
    name: str,
    stack: contextlib.ExitStack,
    rows: Iterator[tuple[Any, ...]],
) -> Iterator[tuple[Any, ...]]:
    """Fast rows while the fast reader copes; then openpyxl's, from the next row on."""
    done = 0
    while True:
        try:
            row = next(rows)
        except StopIteration:
            return
        except _FAST_FAILURES as exc:
            _log.info("%s: openpyxl reads on from row %d (%s)", path.name, done + 1, exc)
            break
        yield row
        done += 1
    _scan, _max_column, rest = _open_openpyxl(path, members, name, stack)
    yield from itertools.islice(rest, done, None)


def _open_openpyxl(
    path: Path, members: dict[str, str], name: str, stack: contextlib.ExitStack
) -> _Opened:
    """openpyxl read-only over a copy without ``autoFilter``; the copy goes on exit."""
    fd, tmp_name = tempfile.mkstemp(prefix="docbatch-registry-", suffix=path.suffix or ".xlsx")
    os.close(fd)
    tmp = Path(tmp_name)
    stack.callback(lambda: tmp.unlink(missing_ok=True))
    try:
        scans = clean_copy(path, tmp, {m for m in members.values() if m})
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as exc:
        raise _corrupt(path, str(exc)) from exc
    try:
        workbook = openpyxl.load_workbook(tmp, read_only=True, data_only=True)
        stack.callback(workbook.close)
        worksheet = workbook[name]
    except Exception as exc:  # openpyxl raises many unrelated types on bad XML
        raise _corrupt(path, f"{type(exc).__name__}: {exc}") from exc
    if not hasattr(worksheet, "reset_dimensions"):
        raise _refuse(path, f"sheet {name!r} is a chart sheet, not a table")
    max_column = 0
    with contextlib.suppress(Exception):
        max_column = int(worksheet.max_column or 0)
    # A wrong <dimension> would silently truncate rows and columns: ignore it.
    worksheet.reset_dimensions()
    scan = scans.get(members[name], SheetScan())
    return scan, max_column, worksheet.iter_rows(values_only=True)


def _guarded_rows(path: Path, rows: Iterator[tuple[Any, ...]]) -> Iterator[tuple[Any, ...]]:
    """Turn parser failures in the middle of a sheet into an UnsupportedInput."""
    try:
        yield from rows
    except (ElementTree.ParseError, zipfile.BadZipFile, zlib.error, EOFError) as exc:
        raise _corrupt(path, f"{type(exc).__name__}: {exc}") from exc
    except (ValueError, TypeError, KeyError) as exc:
        raise _corrupt(path, f"{type(exc).__name__}: {exc}") from exc
