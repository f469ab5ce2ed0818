"""Registry rows from a workbook, step by step.

autoFilter ignored → headers (``header_row`` with per-column ``column_header_row``
overrides, merged header cells resolved) → data from ``data_start_row`` → fill-down →
filters (keywords, empty required column, too few filled cells) → kept rows in
chunks → up to ``max_filtered_samples`` filtered rows with their reason.

Only the current chunk and the header rows are held here (the sheet's reader is
``excel``'s), so a million rows import in bounded memory. The caller persists the
chunks; the ``force`` guard (do not overwrite rows that already have search results)
belongs to it too.

A row skipped for a keyword ("ИТОГО по группе") does not feed fill-down, so a
subtotal label never leaks into the next group; and entirely empty rows are counted
under ``empty_row`` but not kept as samples, so the 50 samples show rows a person
may want back rather than blank lines.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

from docbatch_gui.domain.errors import ConfigError, UnsupportedInput
from docbatch_gui.domain.registry import FilteredRowRecord, RegistryRowRecord
from docbatch_gui.registry.config import RegistryConfig, column_letter
from docbatch_gui.registry.excel import OpenedSheet, SheetScan, open_sheet
from docbatch_gui.registry.layout import header_names
from docbatch_gui.registry.limits import SheetLimits
from docbatch_gui.registry.rows import (
    REASON_EMPTY,
    CellTooLong,
    RowFilter,
    filled_width,
    is_empty,
    json_safe,
    normalize_field,
)
from docbatch_gui.storage.row_json import EncodedRow

__all__ = [
    "ImportRun",
    "ImportStats",
    "Preview",
    "json_safe",
    "normalize_field",
    "parse_rows",
    "preview",
    "read_registry",
]

Item = TypeVar("Item")


@dataclass
class ImportStats:
    total_rows: int = 0  # data rows seen from data_start_row on
    kept: int = 0
    filtered: int = 0
    by_reason: dict[str, int] = field(default_factory=dict)
    formula_without_value: int = 0  # formula cells Excel never calculated (read as None)
    headers: list[str] = field(default_factory=list)
    sheet: str = ""
    autofilters_removed: int = 0

    def count(self, item: object) -> None:
        """One data row as parsed: filtered, or kept (as a record or its views)."""
        self.total_rows += 1
        if isinstance(item, FilteredRowRecord):
            self.filtered += 1
            self.by_reason[item.reason] = self.by_reason.get(item.reason, 0) + 1
        else:
            self.kept += 1


def _header_name(value: Any) -> str:
    return " ".join(str(json_safe(value)).split())


def build_headers(
    header_rows: dict[int, tuple[Any, ...]],
    config: RegistryConfig,
    width: int,
    merged: list[tuple[int, int, int, int]],
) -> list[str]:
    """One unique name per column; an empty cell inside a merge takes its top-left value.

    The readers give no merged ranges, so they come from the sheet scan. An
    empty header with no merge is named by its column letter; a duplicate name gets
    its letter appended, so raw_data never loses a column.
    """

    def cell(row: int, col: int) -> Any:
        values = header_rows.get(row, ())
        return values[col] if col < len(values) else None

    headers: list[str] = []
    seen: set[str] = set()
    bottom = [config.column_header_row.get(col, config.header_row) for col in range(width)]
    top = config.header_top_row  # a multi-row header: its texts joined per column
    joined = header_names(header_rows, top, bottom, merged) if top is not None else None
    for col in range(width):
        row = bottom[col]
        value = joined[col] if joined is not None else cell(row, col)
        if is_empty(value):
            for c0, r0, c1, r1 in merged:
                if r0 <= row <= r1 and c0 <= col <= c1:
                    value = cell(r0, c0)
                    break
        name = _header_name(value) if not is_empty(value) else column_letter(col)
        if name in seen:
            name = f"{name} ({column_letter(col)})"
        seen.add(name)
        headers.append(name)
    return headers


def _check_columns(config: RegistryConfig, width: int, sheet: str) -> None:
    last = column_letter(width - 1) if width else "none"
    problems = [
        f"mapping.{name}: column {column_letter(col)} does not exist"
        for name, col in config.mapping.items()
        if col >= width
    ]
    required = config.required_column_index
    if required is not None and required >= width:
        problems.append(f"required_column_index: column {column_letter(required)} does not exist")
    if problems:
        raise ConfigError(
            "; ".join(problems) + f" (sheet {sheet!r} has columns A..{last})", file=None
        )


def _parse(
    sheet: OpenedSheet, config: RegistryConfig, stats: ImportStats, path: Path
) -> Generator[RegistryRowRecord | FilteredRowRecord, None, None]:
    """Yield every data row as kept or filtered; fills ``stats`` as it goes."""
    return parse_rows(sheet, config, stats, path, RowFilter.__call__)


def parse_rows(
    sheet: OpenedSheet,
    config: RegistryConfig,
    stats: ImportStats,
    path: Path,
    step: Callable[[RowFilter, int, tuple[Any, ...]], Item],
) -> Generator[Item, None, None]:
    """``_parse`` with each data row made by ``step``: ``RowFilter.__call__`` gives
    records, ``RowFilter.views`` what the calamine child sends of them."""
    header_row_numbers = {config.header_row, *config.column_header_row.values()}
    needed = set(header_row_numbers)
    if config.header_top_row is not None:
        needed.update(range(config.header_top_row, config.header_row + 1))
    for _c0, r0, _c1, r1 in sheet.scan.merged:
        if any(r0 <= r <= r1 for r in tuple(needed)):
            needed.add(r0)
    first_data = config.first_data_row
    header_rows: dict[int, tuple[Any, ...]] = {}
    row_filter: RowFilter | None = None
    last_row, any_value = 0, False

    def start() -> RowFilter:
        used = [filled_width(v) for v in header_rows.values()]
        # the columns a cell names, at most REGISTRY_MAX_COLUMNS (rows past it are refused)
        width = min(max([sheet.max_column, *used, 0]), limits.max_columns)
        _check_columns(config, width, sheet.name)
        stats.headers = build_headers(header_rows, config, width, sheet.scan.merged)
        return RowFilter(config, stats.headers, limits.max_cell_chars)

    limits = sheet.limits
    for number, values in enumerate(sheet.rows, start=1):
        last_row = number
        if not any_value and any(not is_empty(v) for v in values):
            any_value = True
        if number < first_data:
            if number in needed:
                header_rows[number] = tuple(values)
            continue
        if row_filter is None:
            row_filter = start()
        try:
            result = step(row_filter, number, values)
        except CellTooLong as exc:
            raise UnsupportedInput.coded(
                "registry_cell_too_long",
                {"file": path.name, "sheet": sheet.name, "row": number,
                 "column": column_letter(exc.column), "chars": exc.chars, "max": exc.limit},
                file=str(path),
            ) from None  # fmt: skip
        stats.count(result)
        yield result
    if not any_value:
        raise UnsupportedInput.coded(
            "sheet_empty", {"file": path.name, "sheet": sheet.name}, file=str(path)
        )
    highest_header = max(header_row_numbers)
    if highest_header > last_row:
        raise UnsupportedInput.coded(
            "header_beyond_end",
            {"file": path.name, "header": highest_header, "last": last_row, "sheet": sheet.name},
            file=str(path),
        )
    if row_filter is None:
        start()  # headers for a sheet with no data rows, and the column checks


#: what each kept row becomes: ``RowFilter``'s method of that name (a record, a
#: record as stored, or the stored row as JSON)
Made = Literal["__call__", "stored", "encoded"]


def _items(
    sheet: OpenedSheet, config: RegistryConfig, stats: ImportStats, path: Path, made: Made
) -> Generator[RegistryRowRecord | EncodedRow | FilteredRowRecord, None, None]:
    """``_parse`` with each kept row ``made`` so, run by the calamine child when one
    reads the sheet: the rows are then parsed next to the importer's own work, not
    before it."""
    if sheet.child is not None:
        return sheet.child.parse(sheet.scan, config, stats, path, made=made, limits=sheet.limits)
    return parse_rows(sheet, config, stats, path, getattr(RowFilter, made))


class ImportRun:
    """One streaming import: iterate it for chunks of kept rows, then read the stats.

    ``stats`` fills while iterating and is complete once ``finished`` is True;
    ``filtered`` holds the first filtered rows (empty rows excepted) with reasons.
    The workbook is closed (and any temporary copy removed) when iteration ends or
    is abandoned.
    """

    def __init__(
        self,
        path: Path,
        config: RegistryConfig,
        *,
        chunk_size: int,
        max_filtered_samples: int,
        stored: bool = False,
        encoded: bool = False,
        limits: SheetLimits | None = None,
    ) -> None:
        if chunk_size < 1:
            raise ValueError("chunk_size must be at least 1")
        self.path = Path(path)
        self.config = config
        self.made: Made = "encoded" if encoded else "stored" if stored else "__call__"
        self.limits = limits or SheetLimits()
        self.chunk_size = chunk_size
        self.max_filtered_samples = max_filtered_samples
        self.stats = ImportStats()
        self.filtered: list[FilteredRowRecord] = []
        self.finished = False
        self._started = False

    def __iter__(self) -> Iterator[list[Any]]:
        return self.chunks()

    def chunks(self) -> Iterator[list[Any]]:
        """Lists of kept rows: records, or ``EncodedRow`` tuples when ``encoded``."""
        if self._started:
            raise RuntimeError("an ImportRun can be iterated only once; start a new one")
        self._started = True
        return self._chunks()

    def _chunks(self) -> Iterator[list[Any]]:
        with open_sheet(self.path, self.config.sheet, limits=self.limits) as sheet:
            self._note_scan(sheet.name, sheet.scan)
            chunk: list[Any] = []
            for item in _items(sheet, self.config, self.stats, self.path, self.made):
                if not isinstance(item, FilteredRowRecord):
                    chunk.append(item)
                    if len(chunk) >= self.chunk_size:
                        yield chunk
                        chunk = []
                elif item.reason != REASON_EMPTY and len(self.filtered) < (
                    self.max_filtered_samples
                ):
                    self.filtered.append(item)
            if chunk:
                yield chunk
        self.finished = True

    def _note_scan(self, name: str, scan: SheetScan) -> None:
        self.stats.sheet = name
        self.stats.formula_without_value = scan.formulas_without_value
        self.stats.autofilters_removed = scan.autofilters_removed


def read_registry(
    path: Path,
    config: RegistryConfig,
    *,
    chunk_size: int = 500,
    max_filtered_samples: int = 50,
    stored: bool = False,
    encoded: bool = False,
    limits: SheetLimits | None = None,
) -> ImportRun:
    """Start a streaming import; ``for chunk in read_registry(...)`` yields kept rows,
    with ``stored`` as the store keeps them (``rows.as_stored``), and with ``encoded``
    as the store writes them (``RowFilter.encoded``: ``add_encoded_registry_rows``)."""
    return ImportRun(
        path,
        config,
        chunk_size=chunk_size,
        max_filtered_samples=max_filtered_samples,
        stored=stored,
        encoded=encoded,
        limits=limits,
    )


@dataclass(frozen=True)
class Preview:
    """The first data rows as parsed, for the wizard's live preview."""

    sheet: str
    sheet_names: list[str]
    headers: list[str]
    rows: list[RegistryRowRecord | FilteredRowRecord]  # in sheet order, kept and filtered mixed


def preview(
    path: Path, config: RegistryConfig, *, rows: int = 20, limits: SheetLimits | None = None
) -> Preview:
    """Parse only the first ``rows`` data rows (the scan still reads the whole sheet,
    and refuses what is past ``limits`` as the import would)."""
    stats = ImportStats()
    items: list[RegistryRowRecord | FilteredRowRecord] = []
    path = Path(path)
    with open_sheet(path, config.sheet, limits=limits or SheetLimits()) as sheet:
        parsed = _items(sheet, config, stats, path, "__call__")
        try:
            for item in parsed:
                assert not isinstance(item, tuple)  # "__call__" makes records, not JSON
                items.append(item)
                if len(items) >= rows:
                    break
        finally:
            parsed.close()
        return Preview(sheet.name, sheet.sheet_names, stats.headers, items)
