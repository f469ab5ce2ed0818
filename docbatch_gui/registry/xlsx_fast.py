"""A fast reader of worksheet cell values that gives what openpyxl's read-only mode gives.

openpyxl builds a descriptor object per inline string and several dicts per cell, and
without a ``<dimension>`` it parses the whole sheet once more just to learn that there
is none: four fifths of a 100,000-row import went there. This reader cuts the sheet
XML into runs of whole ``<row>`` elements and lets the C parser build each run as one
small tree, so Python only touches the cells, once.

It mirrors ``load_workbook(read_only=True, data_only=True)`` followed by
``reset_dimensions()`` and ``iter_rows(values_only=True)``: the same row and column
placement (missing rows, cells without ``r``, a row as wide as its last cell), the
same value per cell type (shared, inline and formula strings, booleans, errors, ISO
dates, numbers, dates by cell style) and the same small parts read by openpyxl's own
parsers (content types, workbook properties, styles). Anything it does not handle the
same way raises :class:`Unsupported`, and the caller hands the sheet to openpyxl,
which is slower but the reference: comments, CDATA, processing instructions, other
namespaces, odd attributes, and every parse or archive error (so bad input gets
openpyxl's message, as before).
"""

from __future__ import annotations

import re
import warnings
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import IO, Any
from xml.etree import ElementTree

from openpyxl.packaging.manifest import Manifest
from openpyxl.packaging.workbook import WorkbookPackage

# Private helpers of openpyxl's reader, left out of its stubs (types-openpyxl).
from openpyxl.reader.excel import SHARED_STRINGS, _find_workbook_part  # type: ignore[attr-defined]
from openpyxl.styles.stylesheet import Stylesheet
from openpyxl.utils.cell import coordinate_to_tuple, range_boundaries
from openpyxl.utils.datetime import CALENDAR_MAC_1904, WINDOWS_EPOCH, from_excel, from_ISO8601

__all__ = ["Book", "Unsupported", "read_book", "sheet_rows"]

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_ROW, _C, _V, _IS, _T = (f"{{{MAIN_NS}}}{name}" for name in ("row", "c", "v", "is", "t"))
_CHUNK = 256 << 10  # one run of rows parsed at once: ~2,000 rows, a few MB of tree
_MAX_PENDING = 32 << 20  # bytes without a row end: not a sheet this reader knows
_PREFIX = rb"(?:([A-Za-z_][\w.-]*):)?"
_ROOT_RE = re.compile(rb"<" + _PREFIX + rb"(worksheet|sst)\b[^>]*>")
_DATA_RE = re.compile(rb"<" + _PREFIX + rb"sheetData\b[^>]*?(/?)>")
_DIGITS = "0123456789"


class Unsupported(Exception):
    """The sheet has something this reader does not mirror; openpyxl must read it."""


@dataclass(frozen=True)
class Book:
    """What every cell of a workbook may refer to."""

    shared_strings: list[str]
    date_styles: frozenset[int]
    timedelta_styles: frozenset[int]
    epoch: datetime


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _text_content(element: ElementTree.Element) -> str:
    """``openpyxl.cell.text.Text.from_tree(element).content``: plain text plus runs."""
    if any(not key.startswith("{") for key in element.attrib):
        raise Unsupported("attributes on a string element")  # openpyxl raises TypeError
    plain: str | None = None
    runs: list[str] = []
    for child in element:
        name = _local(child.tag)
        if name == "t":
            plain = child.text  # a repeated element: the last one wins, as in openpyxl
        elif name == "r":
            if any(not key.startswith("{") for key in child.attrib):
                raise Unsupported("attributes on a rich text run")
            text: str | None = None
            for part in child:
                if _local(part.tag) == "t":
                    text = part.text
            if text is not None:
                runs.append(text)
    return "".join(runs) if plain is None else plain + "".join(runs)


def _guard(data: bytes) -> None:
    # Without these, "</row>" and "</si>" can only be markup, so cutting there is safe.
    if b"<!" in data or b"<?" in data:
        raise Unsupported("comment, CDATA, DOCTYPE or processing instruction")


class _Runs:
    """Cuts the children of one container element into parseable runs of whole items.

    ``head`` is everything before the container's content; each run is parsed inside
    a copy of the document's root start tag, so namespace prefixes keep their meaning.
    """

    def __init__(self, src: IO[bytes], container: bytes, item: bytes, root: bytes) -> None:
        self.src = src
        buf = b""
        while (m := _ROOT_RE.search(buf)) is None or m.group(2) != root:
            chunk = src.read(_CHUNK)
            if not chunk or len(buf) > _MAX_PENDING or m is not None:
                raise Unsupported("no root element")
            buf += chunk
        before = buf[: m.start()]
        if b"<!" in before or before.count(b"<?") > 1:  # only an XML declaration may be there
            raise Unsupported("DOCTYPE, comment or processing instruction before the root")
        prefix = m.group(1) + b":" if m.group(1) else b""
        self.root_start = m.group(0)
        self.root_end = b"</" + prefix + root + b">"
        _guard(buf[m.end() :])
        self.item_end = b"</" + prefix + item + b">"
        self.container_end = b"</" + prefix + container + b">"
        self.head = buf[: m.end()]
        self.pending = buf[m.end() :]
        self.done = False
        self.prefix = prefix

    def wrap(self, body: bytes) -> ElementTree.Element:
        try:
            return ElementTree.fromstring(self.root_start + body + self.root_end)
        except ElementTree.ParseError as exc:
            raise Unsupported(str(exc)) from exc

    def __iter__(self) -> Iterator[ElementTree.Element]:
        buf = self.pending
        while not self.done:
            end = buf.find(self.container_end)
            if end >= 0:
                body, self.done = buf[:end], True
            else:
                chunk = self.src.read(_CHUNK)
                if not chunk:
                    raise Unsupported("the container never ends")
                _guard(buf[-1:] + chunk)
                buf += chunk
                if self.container_end in buf:
                    continue
                cut = buf.rfind(self.item_end)
                if cut < 0:
                    if len(buf) > _MAX_PENDING:
                        raise Unsupported("an item never ends")
                    continue
                cut += len(self.item_end)
                body, buf = buf[:cut], buf[cut:]
            yield from self.wrap(body)


def _sheet_runs(src: IO[bytes]) -> tuple[_Runs, int]:
    """Open the runs of ``<row>`` of a worksheet; also its max column, as openpyxl has it."""
    runs = _Runs(src, b"sheetData", b"row", b"worksheet")
    buf = runs.pending
    while (m := _DATA_RE.search(buf)) is None:
        chunk = src.read(_CHUNK)
        if not chunk or len(buf) > _MAX_PENDING:
            raise Unsupported("no sheetData")
        _guard(buf[-1:] + chunk)
        buf += chunk
    if (m.group(1) or b"") + (b":" if m.group(1) else b"") != runs.prefix:
        raise Unsupported("sheetData in another namespace")
    head = runs.wrap(buf[: m.start()] + b"<" + runs.prefix + b"sheetData/>")
    if head.tag != f"{{{MAIN_NS}}}worksheet" or head[-1].tag != f"{{{MAIN_NS}}}sheetData":
        raise Unsupported(f"root {head.tag} is not a worksheet of the main namespace")
    max_column = 0
    for element in head:
        if element.tag == f"{{{MAIN_NS}}}dimension":
            ref = element.get("ref")
            try:  # openpyxl's SheetDimension.boundaries
                max_column = int(range_boundaries(ref or "")[2] or 0)
            except (TypeError, ValueError) as exc:
                raise Unsupported(f"dimension {ref!r}") from exc
            break  # the first one counts, as in openpyxl
    runs.pending = buf[m.end() :]
    runs.done = m.group(2) == b"/"
    return runs, max_column


def _shared_strings(src: IO[bytes]) -> list[str]:
    runs = _Runs(src, b"sst", b"si", b"sst")
    if runs.wrap(b"").tag != f"{{{MAIN_NS}}}sst":
        raise Unsupported("shared strings in another namespace")
    strings: list[str] = []
    append = strings.append
    for si in runs:
        if si.tag != f"{{{MAIN_NS}}}si":
            raise Unsupported(f"{si.tag} in the shared strings")
        append(_text_content(si).replace("x005F_", ""))
    return strings


def _xml(data: bytes) -> Any:
    """An XML part parsed for openpyxl's ``from_tree``. Any: types-openpyxl describes
    that argument as a protocol ElementTree's Element (what openpyxl itself passes)
    does not match."""
    return ElementTree.fromstring(data)


def read_book(zf: zipfile.ZipFile) -> Book:
    """Shared strings, date styles and epoch, found where openpyxl finds them."""
    try:
        package = Manifest.from_tree(_xml(zf.read("[Content_Types].xml")))
        if package is None:  # the stubs allow None; openpyxl's from_tree never returns it
            raise Unsupported("no content types")
        if _find_workbook_part(package).PartName != "/xl/workbook.xml":
            raise Unsupported("the workbook part is not xl/workbook.xml")
        workbook = WorkbookPackage.from_tree(_xml(zf.read("xl/workbook.xml")))
        if workbook is None:
            raise Unsupported("no workbook")
        epoch = CALENDAR_MAC_1904 if workbook.properties.date1904 else WINDOWS_EPOCH
        date_styles: frozenset[int] = frozenset()
        timedelta_styles: frozenset[int] = frozenset()
        if "xl/styles.xml" in zf.NameToInfo:
            # Any: date_formats and timedelta_formats are set in Stylesheet.__init__ and
            # missing from its stubs.
            styles: Any = Stylesheet.from_tree(_xml(zf.read("xl/styles.xml")))
            if styles.cell_styles:
                date_styles = frozenset(styles.date_formats)
                timedelta_styles = frozenset(styles.timedelta_formats)
        strings: list[str] = []
        part = package.find(SHARED_STRINGS)
        if part is not None:
            with zf.open(part.PartName[1:]) as src:
                strings = _shared_strings(src)
    except Unsupported:
        raise
    except Exception as exc:  # openpyxl's parsers raise many types; it will say which
        raise Unsupported(f"{type(exc).__name__}: {exc}") from exc
    return Book(strings, date_styles, timedelta_styles, epoch)


def sheet_rows(src: IO[bytes], book: Book) -> tuple[int, Iterator[tuple[Any, ...]]]:
    """The sheet's max column (0 without ``<dimension>``) and its rows from row 1.

    Raises Unsupported before the first row or while iterating; rows already yielded
    are exactly openpyxl's, so the caller can let openpyxl go on from the next one.
    """
    runs, max_column = _sheet_runs(src)
    return max_column, _rows(runs, book)


def _style_kind(style: str | None, book: Book) -> int:
    """0 a number, 1 a date, 2 a duration, for a cell's ``s`` attribute."""
    try:
        index = int(style) if style else 0
    except ValueError as exc:
        raise Unsupported(f"style {style!r}") from exc
    if index in book.timedelta_styles and index in book.date_styles:
        return 2
    return 1 if index in book.date_styles else 0


def _rows(runs: _Runs, book: Book) -> Iterator[tuple[Any, ...]]:
    strings = book.shared_strings
    kinds: dict[str | None, int] = {}
    columns: dict[str, int] = {}
    counter, row_counter = 1, 0
    for row in runs:
        if row.tag != _ROW:
            raise Unsupported(f"{row.tag} in sheetData")
        r = row.get("r")
        if r is None:
            row_counter += 1
        else:
            try:
                row_counter = int(r)
            except ValueError as exc:
                raise Unsupported(f"row number {r!r}") from exc
        col, dense = 0, True
        cols: list[int] = []
        values: list[Any] = []
        for cell in row:
            if cell.tag != _C:
                raise Unsupported(f"{cell.tag} in a row")
            ref = cell.get("r")
            if ref:
                letters = ref.rstrip(_DIGITS)
                number = columns.get(letters)
                if number is None or len(letters) == len(ref) or ref[len(letters)] == "0":
                    try:
                        number = coordinate_to_tuple(ref)[1]
                    except ValueError as exc:
                        raise Unsupported(f"cell reference {ref!r}") from exc
                    columns[letters] = number
                dense = dense and number == col + 1
                col = number
            else:
                col += 1
            cols.append(col)
            kind = cell.get("t", "n")
            if kind == "inlineStr":
                child = cell.find(_IS)
                if child is None:
                    values.append(None)
                elif len(child) == 1 and child[0].tag == _T and not child.attrib:
                    values.append(child[0].text or "")  # <is><t>…</t></is>, the usual form
                else:
                    values.append(_text_content(child))
                continue
            value: Any = cell.findtext(_V) or None
            if value is not None:
                try:
                    if kind == "n":
                        value = float(value) if "." in value or "E" in value or "e" in value \
                            else int(value)  # fmt: skip
                        style = cell.get("s")
                        date = kinds.get(style)
                        if date is None:
                            date = kinds[style] = _style_kind(style, book)
                        if date:
                            value = _date(value, book, date == 2, ref)
                    elif kind == "s":
                        value = strings[int(value)]
                    elif kind == "b":
                        value = bool(int(value))
                    elif kind == "d":
                        value = from_ISO8601(value)
                except (ValueError, IndexError, TypeError) as exc:
                    raise Unsupported(f"cell {ref}: {exc}") from exc
            values.append(value)
        if not values:
            out: tuple[Any, ...] = ()
        elif dense:
            out = tuple(values)
        else:  # openpyxl's _get_row: as wide as the last cell; later duplicates win
            width = cols[-1]
            placed: list[Any] = [None] * width
            for number, value in zip(cols, values, strict=True):
                if 1 <= number <= width:
                    placed[number - 1] = value
            out = tuple(placed)
        for _ in range(counter, row_counter):  # rows missing from the XML
            counter += 1
            yield ()
        if counter <= row_counter:
            counter += 1
            yield out


def _date(value: float, book: Book, duration: bool, ref: str | None) -> Any:
    try:
        return from_excel(value, book.epoch, timedelta=duration)
    except (OverflowError, ValueError):
        warnings.warn(
            f"Cell {ref} is marked as a date but the serial value {value} is outside the "
            "limits for dates. The cell will be treated as an error.",
            stacklevel=2,
        )
        return "#VALUE!"
