"""Documents that arrive as data: the tax service's УПД / счёт-фактура XML, Factur-X
and ZUGFeRD PDFs (CII inside), plain CII and UBL files, and ЭДО zip packages of them.

Each reader is a pure function over bytes that returns ``DataDocument``s: the header
fields under the profile's names and every line as plain data. Nothing here is
guessed: a value the file does not state is None. ``docs/data-documents.md`` says
which element each value comes from.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

#: the keys of one line, as the document model's lines have them (amounts are
#: decimal strings, None where the file states nothing); ``okei`` is the unit's
#: ОКЕИ code (or the UN/ECE unit code of a CII or UBL invoice)
LINE_KEYS = (
    "no", "name", "code", "unit", "okei", "qty", "price", "net", "vat_rate", "vat", "gross",
    "page", "box",
)  # fmt: skip


@dataclass(frozen=True)
class DataDocument:
    """One document read from data."""

    doc_type: str
    fields: dict[str, str | None]
    lines: list[dict[str, Any]] = field(default_factory=list)
    #: what it was read from: "УПД 5.03 (СЧФДОП)", "Factur-X (CII)", "UBL"
    source: str = ""
    #: the member of an archive it came from ("" for the file itself)
    member: str = ""


def line(**values: Any) -> dict[str, Any]:
    """A line with every key, None for those not given."""
    unknown = set(values) - set(LINE_KEYS)
    assert not unknown, unknown
    return {key: values.get(key) for key in LINE_KEYS}


def decimal_text(text: str | None) -> str | None:
    """A decimal as the formats write it (dot, no spaces; a comma is read too), or
    None: "NaN" and "inf" are floats for Python but no amount on a document."""
    if text is None:
        return None
    value = text.strip().replace(" ", "").replace(",", ".")
    try:
        number = float(value)
    except ValueError:
        return None
    return value if math.isfinite(number) else None
