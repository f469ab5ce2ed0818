"""A registry row as kept or filtered: fill-down, the filters, the three representations.

The rows it makes are the store's own records (``domain.registry``), so an import
hands them to the store as they are.

Split from the importer because this is the per-row work of an import, run 100,000
times for a big registry, while the importer does the per-sheet work (headers, chunks,
statistics). The helpers here are shared with search (``normalize_field``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from operator import call
from typing import Any

from docbatch_gui.domain.normalize import (
    normalize_amount,
    normalize_date,
    normalize_number,
    normalize_text,
)
from docbatch_gui.domain.registry import FilteredRowRecord, RegistryRowRecord
from docbatch_gui.domain.text import clean_value
from docbatch_gui.registry.config import RegistryConfig, column_letter
from docbatch_gui.storage.row_json import EncodedRow, dumps_row

__all__ = [
    "REASON_EMPTY",
    "REASON_KEYWORD",
    "REASON_REQUIRED",
    "REASON_TOO_FEW",
    "WIDE_ROW",
    "CellTooLong",
    "KeptRow",
    "RowFilter",
    "as_stored",
    "filled_width",
    "is_empty",
    "json_safe",
    "normalize_field",
]

#: a kept row before its views are built: row number, JSON-safe cells, normalised fields
KeptRow = tuple[int, list[Any], list[str | None]]

REASON_KEYWORD = "skip_word"
REASON_REQUIRED = "required_empty"
REASON_TOO_FEW = "too_few_cells"
REASON_EMPTY = "empty_row"
#: a row wider than this keeps its cells only up to its last value (``limits``)
WIDE_ROW = 256


class CellTooLong(Exception):
    """A text cell over ``max_cell_chars``; the importer words it with the row."""

    def __init__(self, column: int, chars: int, limit: int) -> None:
        super().__init__(f"column {column}: {chars} characters (limit {limit})")
        self.column, self.chars, self.limit = column, chars, limit


def json_safe(value: Any) -> Any:
    """Cell value as JSON can store it; dates become ISO strings."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, datetime):
        if value.time() == time(0) and value.tzinfo is None:
            return value.date().isoformat()
        return value.isoformat()
    if isinstance(value, date | time):
        return value.isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    if isinstance(value, Decimal):
        return str(value)
    return str(value)


_NORMALIZED_CACHE = 20_000  # entries per field; cleared when full, so memory stays bounded
_JSON_PLAIN = frozenset({str, int, bool, type(None)})  # json_safe returns these as they are
_MISSING = object()


def is_empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def normalize_field(name: str, value: Any) -> str | None:
    """Normalise a registry value by field name; empty or unparseable gives None."""
    if is_empty(value):
        return None
    if name == "number":
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # 123.0 from Excel must not become "1230"
        return normalize_number(json_safe(value)) or None
    if name == "date":
        return normalize_date(value)
    if name == "amount":
        return normalize_amount(value)
    return normalize_text(json_safe(value)) or None


def as_stored(kept: KeptRow) -> KeptRow:
    """A kept row's text values without control or direction characters, as stored
    (``domain.text.clean_value``); the views built from it are the cleaned views.

    The usual row has none: one check over all its text, and the row as it is."""
    row, cells, normalized = kept
    texts = [v for v in cells if isinstance(v, str)]
    texts.extend(v for v in normalized if v is not None)
    if "".join(texts).isprintable():
        return kept
    return (
        row,
        [clean_value(v) if isinstance(v, str) else v for v in cells],
        [clean_value(v) if v is not None else v for v in normalized],
    )


def filled_width(values: Sequence[Any]) -> int:
    """Number of columns up to the last non-empty cell (a row's used range)."""
    for i in range(len(values) - 1, -1, -1):
        if not is_empty(values[i]):
            return i + 1
    return 0


_is_text = str.__instancecheck__  # isinstance(v, str), as a C function for filter


def _fold(text: str) -> str:
    return text.casefold().replace("ё", "е")


class _FieldNormalizer:
    """normalize_field for one field, remembered: dates, amounts and counterparties
    repeat down a registry, and one table per field keeps a column of unique numbers
    from evicting the values that do repeat.

    Text cells, the usual kind, are looked up by the string itself; other values by
    (type, value), so 1, 1.0 and True (equal as dict keys) stay apart.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._text: dict[str, str | None] = {}
        self._other: dict[tuple[type, Any], str | None] = {}

    def __call__(self, value: Any) -> str | None:
        if value is None:
            return None
        if value.__class__ is str:
            if self.name == "number":
                # What normalize_field gives, without the lookup: numbers rarely
                # repeat, and a blank text has no digits either.
                return normalize_number(value) or None
            found = self._text.get(value, _MISSING)
            if found is not _MISSING:
                return found  # type: ignore[return-value]  # the sentinel is ruled out
            if len(self._text) >= _NORMALIZED_CACHE:
                self._text.clear()
            result = self._text[value] = normalize_field(self.name, value)
            return result
        key = (value.__class__, value)
        try:
            found = self._other.get(key, _MISSING)
        except TypeError:  # unhashable: not a cell value a reader gives, but be safe
            return normalize_field(self.name, value)
        if found is not _MISSING:
            return found  # type: ignore[return-value]
        if len(self._other) >= _NORMALIZED_CACHE:
            self._other.clear()
        result = self._other[key] = normalize_field(self.name, value)
        return result


class RowFilter:
    """Turns raw value tuples into kept or filtered row records, keeping fill-down state."""

    def __init__(
        self, config: RegistryConfig, headers: list[str], max_cell_chars: int = 32_767
    ) -> None:
        self.config = config
        self.headers = headers
        self.width = len(headers)
        self.max_cell_chars = max_cell_chars
        self.words = [(w, _fold(w)) for w in config.skip_rows_containing]
        self.fill_columns = [c for c in config.fill_down_columns if c < self.width]
        self.last_values: dict[int, Any] = {}
        self.required = config.required_column_index
        self.min_filled = config.min_filled_cells
        self.fields = list(config.mapping)
        self.columns = list(config.mapping.values())
        self.normalizers = [_FieldNormalizer(f) for f in self.fields]

    def __call__(self, row: int, raw: tuple[Any, ...]) -> RegistryRowRecord | FilteredRowRecord:
        parsed = self.views(row, raw)
        return parsed if isinstance(parsed, FilteredRowRecord) else self.record(parsed)

    def views(self, row: int, raw: tuple[Any, ...]) -> KeptRow | FilteredRowRecord:
        """The row filtered, or kept as ``(row, cells, normalized)``: its cells as JSON
        can store them and its mapped fields normalised, in mapping order, which is all
        ``record`` needs (the calamine child sends this over, not the dicts)."""
        # Called once per data row, 100,000 times for a big registry: the cells are
        # counted and typed with C-level calls (count, map, filter) instead of a Python
        # loop over them, and the row's text is folded once, joined, not once per cell
        # and skip word (a word holds no NUL, so it cannot match across two cells).
        width = self.width
        values = list(raw[:width])
        if len(values) < width:
            values.extend([None] * (width - len(values)))
        texts = list(filter(_is_text, values))
        blank = 0
        if texts:
            if max(map(len, texts)) > self.max_cell_chars:
                self._too_long(values)
            blank = texts.count("") + sum(map(str.isspace, texts))
        filled = width - values.count(None) - blank
        if not filled:
            return FilteredRowRecord(row, REASON_EMPTY, [], "empty row")
        if self.words and texts:
            folded_text = _fold("\0".join(texts))
            for word, folded in self.words:
                if folded in folded_text:
                    return FilteredRowRecord(
                        row, REASON_KEYWORD, [json_safe(v) for v in values], f"contains {word!r}"
                    )
        for col in self.fill_columns:
            if is_empty(values[col]):
                values[col] = self.last_values.get(col)
                filled += not is_empty(values[col])
            else:
                self.last_values[col] = values[col]
        required = self.required
        if required is not None and is_empty(values[required]):
            return FilteredRowRecord(
                row,
                REASON_REQUIRED,
                [json_safe(v) for v in values],
                f"required column {column_letter(required)} is empty",
            )
        if filled < self.min_filled:
            return FilteredRowRecord(
                row,
                REASON_TOO_FEW,
                [json_safe(v) for v in values],
                f"{filled} filled cells, fewer than {self.min_filled}",
            )
        picked = [values[c] for c in self.columns]
        normalized = list(map(call, self.normalizers, picked))
        if not {*map(type, values)} <= _JSON_PLAIN:  # the usual row needs no json_safe
            values = [v if v.__class__ in _JSON_PLAIN else json_safe(v) for v in values]
        if width > WIDE_ROW:  # its used range: an empty column XFD stores nothing
            del values[filled_width(values) :]
        return row, values, normalized

    def _too_long(self, values: list[Any]) -> None:
        for column, value in enumerate(values):
            if isinstance(value, str) and len(value) > self.max_cell_chars:
                raise CellTooLong(column, len(value), self.max_cell_chars)

    def stored_views(self, row: int, raw: tuple[Any, ...]) -> KeptRow | FilteredRowRecord:
        """``views`` with the text as the store keeps it (``as_stored``)."""
        parsed = self.views(row, raw)
        return parsed if isinstance(parsed, FilteredRowRecord) else as_stored(parsed)

    def stored(self, row: int, raw: tuple[Any, ...]) -> RegistryRowRecord | FilteredRowRecord:
        """The record as the store keeps it, or the row filtered."""
        parsed = self.stored_views(row, raw)
        return parsed if isinstance(parsed, FilteredRowRecord) else self.record(parsed)

    def encoded(self, row: int, raw: tuple[Any, ...]) -> EncodedRow | FilteredRowRecord:
        """The row as the store keeps it, its views already JSON (``row_json``): what
        an import hands the store, encoded where the row is parsed (in the calamine
        child for a big sheet), so the importer builds no dicts; or the row filtered.

        The usual row needs no cleaning (``as_stored``), which its JSON shows at once:
        with no escape in it and every character printable, no value has a control or
        direction character."""
        parsed = self.views(row, raw)
        if isinstance(parsed, FilteredRowRecord):
            return parsed
        encoded = self._encode(parsed)
        text = encoded[1] + encoded[3]
        if "\\" not in text and text.isprintable():
            return encoded
        cleaned = as_stored(parsed)
        return encoded if cleaned is parsed else self._encode(cleaned)

    def _encode(self, kept: KeptRow) -> EncodedRow:
        row, cells, normalized = kept
        return (
            row,
            dumps_row(dict(zip(self.headers, cells, strict=False))),
            dumps_row(dict(zip(self.fields, self._picked(cells), strict=True))),
            dumps_row(dict(zip(self.fields, normalized, strict=True))),
        )

    def _picked(self, cells: list[Any]) -> list[Any]:
        """The mapped fields' cells, in mapping order."""
        if len(cells) < self.width:  # a wide row kept to its used range
            return [cells[c] if c < len(cells) else None for c in self.columns]
        return [cells[c] for c in self.columns]

    def record(self, kept: KeptRow) -> RegistryRowRecord:
        """The stored views of a kept row. A mapped field is the JSON-safe cell of its
        column, as in ``raw_data``."""
        # cells holds one value per header and normalized one per field, so zip needs
        # no strict check; the record is built positionally: keywords cost a tenth here.
        row, cells, normalized = kept
        fields = self.fields
        return RegistryRowRecord(
            row,
            dict(zip(self.headers, cells, strict=False)),
            dict(zip(fields, self._picked(cells), strict=False)),
            dict(zip(fields, normalized, strict=False)),
        )
