"""A registry row as kept or filtered: fill-down, the filters, the three representations.

The rows it makes are the store's own records (``domain.registry``), so an import
hands them to the store as they are.

Split from the importer because this is the per-row work of an import, run 100,000
times for a big registry, while the importer does the per-sheet work (headers, chunks,
statistics). The helpers here are shared with search (``normalize_field``).
"""

from __future__ import annotations

import math
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from docbatch_gui.domain.normalize import (
    normalize_amount,
    normalize_date,
    normalize_number,
    normalize_text,
)
from docbatch_gui.domain.registry import FilteredRowRecord, RegistryRowRecord
from docbatch_gui.registry.config import RegistryConfig, column_letter

__all__ = [
    "REASON_EMPTY",
    "REASON_KEYWORD",
    "REASON_REQUIRED",
    "REASON_TOO_FEW",
    "RowFilter",
    "is_empty",
    "json_safe",
    "normalize_field",
]

REASON_KEYWORD = "skip_word"
REASON_REQUIRED = "required_empty"
REASON_TOO_FEW = "too_few_cells"
REASON_EMPTY = "empty_row"


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


_NORMALIZED_CACHE = 20_000  # entries; cleared when full, so memory stays bounded
_JSON_PLAIN = frozenset({str, int, bool, type(None)})  # json_safe returns these as they are


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


def _fold(text: str) -> str:
    return text.casefold().replace("ё", "е")


class RowFilter:
    """Turns raw value tuples into kept or filtered row records, keeping fill-down state."""

    def __init__(self, config: RegistryConfig, headers: list[str]) -> None:
        self.config = config
        self.headers = headers
        self.width = len(headers)
        self.words = [(w, _fold(w)) for w in config.skip_rows_containing]
        self.fill_columns = [c for c in config.fill_down_columns if c < self.width]
        self.last_values: dict[int, Any] = {}
        self._normalized: dict[tuple[str, type, Any], str | None] = {}

    def __call__(self, row: int, raw: tuple[Any, ...]) -> RegistryRowRecord | FilteredRowRecord:
        # Called once per data row: the emptiness test is inlined and each text cell is
        # folded once, not once per skip word.
        values = list(raw[: self.width])
        values.extend([None] * (self.width - len(values)))
        filled = sum(
            1 for v in values if v is not None and not (isinstance(v, str) and not v.strip())
        )
        if not filled:
            return FilteredRowRecord(row, REASON_EMPTY, [], "empty row")
        if self.words:
            texts = [_fold(v) for v in values if isinstance(v, str)]
            for word, folded in self.words:
                if any(folded in text for text in texts):
                    return FilteredRowRecord(
                        row, REASON_KEYWORD, [json_safe(v) for v in values], f"contains {word!r}"
                    )
        for col in self.fill_columns:
            if is_empty(values[col]):
                values[col] = self.last_values.get(col)
                filled += not is_empty(values[col])
            else:
                self.last_values[col] = values[col]
        required = self.config.required_column_index
        if required is not None and is_empty(values[required]):
            return FilteredRowRecord(
                row,
                REASON_REQUIRED,
                [json_safe(v) for v in values],
                f"required column {column_letter(required)} is empty",
            )
        if filled < self.config.min_filled_cells:
            return FilteredRowRecord(
                row,
                REASON_TOO_FEW,
                [json_safe(v) for v in values],
                f"{filled} filled cells, fewer than {self.config.min_filled_cells}",
            )
        mapping = self.config.mapping
        return RegistryRowRecord(
            row=row,
            raw_data={
                h: v if v.__class__ in _JSON_PLAIN else json_safe(v)
                for h, v in zip(self.headers, values, strict=True)
            },
            mapped_data={f: json_safe(values[c]) for f, c in mapping.items()},
            normalized={f: self._normalize(f, values[c]) for f, c in mapping.items()},
        )

    def _normalize(self, name: str, value: Any) -> str | None:
        """normalize_field, remembered: dates and counterparties repeat down a registry.

        The key holds the type, so 1, 1.0 and True (equal as dict keys) stay apart.
        """
        key = (name, value.__class__, value)
        try:
            return self._normalized[key]
        except KeyError:
            pass
        except TypeError:  # unhashable: not a cell value openpyxl gives, but be safe
            return normalize_field(name, value)
        if len(self._normalized) >= _NORMALIZED_CACHE:
            self._normalized.clear()
        result = self._normalized[key] = normalize_field(name, value)
        return result
