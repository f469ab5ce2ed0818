"""A document's lines out to a spreadsheet or a CSV file: one row per line.

Each row carries what ties it to its document on the other side (job, file, document
number and date, the seller's INN), then the line's columns. 1C:Бухгалтерия loads a
document's goods table ("Товары") from a tabular document with its own headers
(Номенклатура, Количество, …): a layout's ``lines`` columns name them (the bundled
``1c`` layout does); without them every line column of the profile is written under
its label in the export's language. Quantities and sums are numbers, as in the
sheet of documents.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.lines import NUMERIC_KEYS, Line, decimal
from docbatch_gui.domain.models import Document, Job
from docbatch_gui.i18n import NP_, translation

#: the sheet's name in English, worded in the export's language (a contract: scripts
#: open it by name, "Lines" or "Строки")
SHEET_NAME = NP_("export sheet", "Lines")
#: the columns that tie a line to its document, with their headers (context
#: ``layouts.HEADER_CONTEXT``, as the document columns')
_LEADING: tuple[tuple[str, str], ...] = (
    ("job", NP_("export column", "Job")),
    ("file", NP_("export column", "File")),
    ("document_number", NP_("export column", "Document number")),
    ("document_date", NP_("export column", "Document date")),
    # as the Documents sheet names the seller's INN (the profile's label)
    ("seller_inn", NP_("export column", "Seller tax ID")),
    ("page", NP_("export column", "Page")),
)


def sheet_name(language: str) -> str:
    return translation(language).pgettext("export sheet", SHEET_NAME)


@dataclass(frozen=True)
class LineColumn:
    """A line column: a key (``job``, ``file``, ``document_number``,
    ``document_date``, ``seller_inn``, ``page`` or a profile line key) and the
    header to write instead of the default one."""

    key: str
    header: str | None = None


def default_columns(profile: Profile) -> tuple[LineColumn, ...]:
    keys = [key for key, _ in _LEADING[:-1]] + list(profile.line_keys) + ["page"]
    return tuple(LineColumn(key) for key in keys)


def known_keys(profile: Profile) -> set[str]:
    return {key for key, _ in _LEADING} | set(profile.line_keys)


def title(column: LineColumn, profile: Profile, language: str) -> str:
    if column.header:
        return column.header
    for key, english in _LEADING:
        if key == column.key:
            return translation(language).pgettext("export column", english)
    return profile.line_label(column.key, language)


def _first_of_kind(profile: Profile, kind: str, party: str | None = None) -> str | None:
    return next(
        (f.key for f in profile.fields if f.kind == kind and (party is None or f.party == party)),
        None,
    )


def line_table(
    pairs: Sequence[tuple[Job, Document]], profile: Profile, columns: Sequence[LineColumn]
) -> list[list[Any]]:
    """One row per line of every document, in document and line order; numbers as
    ``Decimal``, the document's date as a ``date``, text as text."""
    number_key = _first_of_kind(profile, "number")
    date_key = _first_of_kind(profile, "date")
    inn_key = _first_of_kind(profile, "tax_id", "seller")
    rows: list[list[Any]] = []
    for job, document in pairs:
        leading: dict[str, Any] = {
            "job": job.id,
            "file": job.file_name,
            "document_number": document.fields.get(number_key or ""),
            "document_date": _date(document.fields.get(date_key or "")),
            "seller_inn": document.fields.get(inn_key or ""),
        }
        rows += ([_cell(c.key, line, leading) for c in columns] for line in document.lines)
    return rows


def _cell(key: str, line: Line, leading: dict[str, Any]) -> Any:
    if key in leading:
        return leading[key]
    if key == "page":
        return line.page
    value = line.value(key)
    if key in NUMERIC_KEYS:
        return decimal(value)
    return value


def _date(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value) if value else None
    except ValueError:
        return None


def as_number(value: Decimal) -> float | int:
    """A Decimal as a spreadsheet number (an integral quantity stays an int)."""
    return int(value) if value == value.to_integral_value() else float(value)
