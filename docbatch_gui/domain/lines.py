"""A document's table of goods: one :class:`Line` per row, in the order printed.

Every reader fills the same shape (the offline table reader, Claude's answers, the
readers of documents that arrive as data: УПД XML, Factur-X), so the checks, the
Review grid and the exports never ask where a line came from.

Amounts and quantities are dot-decimal strings, as a document's fields are; a value
the document does not print is None (null over wrong). ``page`` is the page of the
file the row stands on (from 1) and ``box`` its ``[x0, y0, x1, y1]`` in fractions of
that page, origin top-left (as ``Document.locations``); both None when unknown.
Columns a profile adds (the УПД's country of origin, customs declaration number)
are kept in ``extra`` under their profile keys.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

#: the columns every line has, in the order the contract lists them
LINE_KEYS: tuple[str, ...] = (
    "no",
    "name",
    "code",
    "unit",
    "qty",
    "price",
    "net",
    "vat_rate",
    "vat",
    "gross",
)
#: the columns that hold numbers (dot-decimal strings)
NUMERIC_KEYS: frozenset[str] = frozenset({"qty", "price", "net", "vat", "gross"})


@dataclasses.dataclass(frozen=True)
class Line:
    """One row of a document's table of goods."""

    no: str | None = None
    name: str | None = None
    code: str | None = None
    unit: str | None = None
    qty: str | None = None
    price: str | None = None
    net: str | None = None
    #: the rate as printed and normalised: "20", "10", "0", "без НДС"
    vat_rate: str | None = None
    vat: str | None = None
    gross: str | None = None
    page: int | None = None
    box: list[float] | None = None
    #: the profile's own columns (keys beyond :data:`LINE_KEYS`)
    extra: dict[str, str | None] = dataclasses.field(default_factory=dict)

    def value(self, key: str) -> str | None:
        """A column by its profile key, standard or extra."""
        if key in LINE_KEYS:
            value: str | None = getattr(self, key)
            return value
        return self.extra.get(key)

    def with_value(self, key: str, value: str | None) -> Line:
        """This line with one column set (a person's edit, a reader's fill)."""
        if key in LINE_KEYS:
            changes: dict[str, object] = {key: value}
            return dataclasses.replace(self, **changes)  # type: ignore[arg-type]
        return dataclasses.replace(self, extra={**self.extra, key: value})

    def as_dict(self) -> dict[str, Any]:
        """The stored and exported form: the contract's keys, then the extra ones."""
        body: dict[str, Any] = {key: getattr(self, key) for key in LINE_KEYS}
        body["page"] = self.page
        body["box"] = list(self.box) if self.box is not None else None
        body.update(self.extra)
        return body

    @classmethod
    def from_dict(cls, body: Mapping[str, Any]) -> Line:
        """A stored line; unknown keys are the profile's extra columns."""
        known = {k: _text(body.get(k)) for k in LINE_KEYS}
        page = body.get("page")
        box = body.get("box")
        extra = {
            str(k): _text(v)
            for k, v in body.items()
            if k not in LINE_KEYS and k not in ("page", "box", "extra")
        }
        nested = body.get("extra")
        if isinstance(nested, Mapping):
            extra.update({str(k): _text(v) for k, v in nested.items()})
        return cls(
            **known,
            page=_page(page),
            box=[float(v) for v in box]
            if isinstance(box, list | tuple) and len(box) == 4
            else None,
            extra=extra,
        )


def _page(value: object) -> int | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return int(value)
    return None


def _text(value: object) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def as_lines(raw: object) -> list[Line]:
    """Lines from what a store or a pipe holds (dicts), or already lines."""
    if not isinstance(raw, Sequence) or isinstance(raw, str | bytes):
        return []
    return [item if isinstance(item, Line) else Line.from_dict(item) for item in raw if item]


def decimal(value: str | None) -> Decimal | None:
    """A stored dot-decimal value as a number; None for an empty or broken one."""
    if value is None:
        return None
    try:
        number = Decimal(value)
    except (InvalidOperation, ValueError):
        return None
    return number if number.is_finite() else None


def total(lines: Sequence[Line], key: str) -> Decimal | None:
    """The sum of one column over the lines that print it; None when none does."""
    values = [decimal(line.value(key)) for line in lines]
    present = [v for v in values if v is not None]
    return sum(present, Decimal(0)) if present else None
