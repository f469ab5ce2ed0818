"""Safe opening and streaming of registry workbooks (.xlsx/.xlsm).

Registries come from accounting systems and colleagues' desktops, so the file is
checked before any reader sees it: an old .xls, a password-protected workbook, a
truncated download or a zip bomb each get a message that tells a person what to do,
instead of a parser traceback or an exhausted machine.

Rows come from python-calamine, or openpyxl's streaming reader for a sheet calamine
cannot hold (``xlsx_read``), after a byte scan that bounds the sheet and finds what
neither reader gives (``xlsx_scan``); on Linux calamine runs in a child beside the
scan (``calamine_process``).
"""

from __future__ import annotations

import contextlib
import logging
import posixpath
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from xml.etree import ElementTree

from docbatch_gui.domain.errors import NotFound, UnsupportedInput
from docbatch_gui.domain.messages import coded
from docbatch_gui.registry.calamine_process import CHILD_FROM, IN_CHILD, CalamineProcess
from docbatch_gui.registry.limits import EXCEL_MAX_ROWS, SheetLimits, bounded_rows, too_many_rows
from docbatch_gui.registry.xlsx_read import (
    CALAMINE_BUDGET,
    Unreadable,
    calamine_estimate,
    open_calamine,
    open_openpyxl,
)
from docbatch_gui.registry.xlsx_scan import SheetScan, scan_sheet

__all__ = [
    "CALAMINE_BUDGET",
    "OpenedSheet",
    "SheetScan",
    "check_archive",
    "open_sheet",
    "sheet_members",
]

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
    max_column: int  # the widest row's width, 0 for an empty sheet
    scan: SheetScan
    reader: str  # "calamine" or "openpyxl"
    #: the child process calamine reads it in, which can also parse it (``importer``)
    child: CalamineProcess | None = None
    #: the caps ``rows`` is read under (``limits``): the parse caps its width too
    limits: SheetLimits = field(default_factory=SheetLimits)


def _said(path: Path, code: str, **params: Any) -> UnsupportedInput:
    """A refusal worded from its message code (``domain.texts_registry``)."""
    return UnsupportedInput.coded(code, {"file": path.name, **params}, file=str(path))


def _corrupt(path: Path, detail: str) -> UnsupportedInput:
    return _said(path, "xlsx_damaged", detail=detail)


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
        raise _said(path, "xlsx_cannot_open", reason=exc.strerror or str(exc)) from exc
    if head.startswith(_OLE_MAGIC):
        if _ole_is_encrypted(path):
            raise _said(path, "xlsx_password")
        raise _said(path, "xlsx_old_xls")
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
        raise _said(path, "xlsx_too_big", size_mb=total / 2**20, max_mb=max_uncompressed / 2**20)
    for info in infos:
        if info.file_size < _RATIO_MIN_SIZE:
            continue
        ratio = info.file_size / max(info.compress_size, 1)
        if ratio > max_ratio:
            raise _said(path, "xlsx_zip_bomb", member=info.filename, ratio=ratio)


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
    reader: Literal["auto", "openpyxl"] = "auto",
    limits: SheetLimits | None = None,
) -> Iterator[OpenedSheet]:
    """Check and open one sheet for row streaming; cleans up on exit.

    ``sheet=None`` means the first sheet. Rows are tuples of cell values from row 1
    and column A: formulas give their cached value and a formula never calculated
    by Excel gives None. ``reader="openpyxl"`` skips calamine, for comparisons.
    """
    path = Path(path)
    check_archive(path, max_uncompressed=max_uncompressed, max_ratio=max_ratio)
    try:
        with zipfile.ZipFile(path) as zf:
            members = sheet_members(zf)
            sizes = {info.filename: info.file_size for info in zf.infolist()}
    except (ElementTree.ParseError, zipfile.BadZipFile, KeyError, zlib.error) as exc:
        raise _corrupt(path, f"workbook.xml cannot be read: {exc}") from exc
    names = list(members)
    if not names:
        raise _said(path, "xlsx_no_sheets")
    name = names[0] if sheet is None else sheet
    if name not in members:
        raise _said(
            path, "xlsx_no_such_sheet", sheet=name, sheets=", ".join(repr(n) for n in names)
        )
    with contextlib.ExitStack() as stack:
        child = None
        if reader == "auto" and IN_CHILD and sizes.get(members[name], 0) >= CHILD_FROM:
            child = CalamineProcess.start(path, name)  # parses next to the scan
            if child is not None:
                stack.callback(child.close)  # killed if the scan refuses the sheet
        scan, strings = _scan(path, members[name])
        limits = limits or SheetLimits()
        if scan.last_row > EXCEL_MAX_ROWS:  # no workbook Excel wrote: refused before reading
            raise too_many_rows(path, name, scan.last_row, limits)
        opened = None
        estimate = calamine_estimate(scan, strings)
        if reader == "auto" and scan.regular and estimate <= CALAMINE_BUDGET:
            opened = child.open() if child is not None else open_calamine(path, name, stack)
        elif reader == "auto":
            if child is not None:
                child.close()  # at once: its memory and processor go to openpyxl
            why = (
                coded("log_reason_calamine_memory", mb=estimate >> 20)
                if scan.regular
                else coded("log_reason_irregular_sheet")
            )
            _log.info("%s: streamed by openpyxl (%s)", path.name, why)
        used = "calamine"
        if opened is None:
            used = "openpyxl"
            try:
                opened = open_openpyxl(path, members[name], name, scan, stack)
            except Unreadable as exc:
                raise _corrupt(path, str(exc)) from exc
            except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as exc:  # the copy
                raise _corrupt(path, str(exc)) from exc
            if opened is None:
                raise _said(path, "xlsx_chart_sheet", sheet=name)
        max_column, rows = opened
        reading = child if used == "calamine" else None
        bounded = _guarded_rows(path, bounded_rows(path, name, rows, limits))
        yield OpenedSheet(name, names, bounded, max_column, scan, used, reading, limits)


def _scan(path: Path, member: str) -> tuple[SheetScan, int]:
    """The scan of one sheet and the size of the shared strings calamine would load."""
    try:
        with zipfile.ZipFile(path) as zf:
            strings = sum(
                info.file_size
                for info in zf.infolist()
                if info.filename.lower().endswith("sharedstrings.xml")
            )
            if member not in zf.NameToInfo:  # openpyxl finds it, or says what is wrong
                return SheetScan(regular=False), strings
            with zf.open(member) as src:
                return scan_sheet(src), strings
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as exc:
        raise _corrupt(path, f"{type(exc).__name__}: {exc}") from exc


def _guarded_rows(path: Path, rows: Iterator[tuple[Any, ...]]) -> Iterator[tuple[Any, ...]]:
    """Turn parser failures in the middle of a sheet into an UnsupportedInput."""
    try:
        yield from rows
    except (ElementTree.ParseError, zipfile.BadZipFile, zlib.error, EOFError) as exc:
        raise _corrupt(path, f"{type(exc).__name__}: {exc}") from exc
    except (ValueError, TypeError, KeyError) as exc:
        raise _corrupt(path, f"{type(exc).__name__}: {exc}") from exc
