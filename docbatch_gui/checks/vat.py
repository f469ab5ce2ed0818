"""VAT arithmetic: is the VAT a document states the VAT of its total?

The rates change with the law (18 % until 2018, 20 % from 2019, 22 % from 2026, and
the reduced and simplified-system rates beside them), so they are data with the
dates they are in force, in ``docbatch_gui/resources/vat_rates.json``; a new rate is
a new row there, not a release. A document is held to the rates in force on its
own date: a 2018 invoice at 18 % is right, a 2024 one is not.

The total includes VAT, so the VAT at rate r is total × r / (100 + r). Invoices sum
VAT line by line, each rounded to kopecks, so a small difference from the formula is
rounding, not an error (:func:`tolerance`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from functools import cache
from pathlib import Path
from typing import Any

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.domain.lines import decimal
from docbatch_gui.domain.normalize import normalize_text
from docbatch_gui.domain.reasons import ReviewCode
from docbatch_gui.resources import resources_dir

__all__ = [
    "RateTable",
    "VatRate",
    "expected_vat",
    "load_rates",
    "rates_path",
    "tolerance",
    "vat_codes",
]

_CENT = Decimal("0.01")
#: the smallest difference that is never rounding: two kopecks
_MIN_TOLERANCE = Decimal("0.02")
#: line-by-line rounding grows with the number of lines; a thousandth of the VAT
#: covers hundreds of lines and still catches a misread digit above the last three
_RELATIVE_TOLERANCE = Decimal("0.001")


@dataclass(frozen=True)
class VatRate:
    """One rate and the days it is in force (``end`` is the last one; None: still)."""

    rate: Decimal
    start: date
    end: date | None
    label: str = ""

    def in_force(self, day: date) -> bool:
        return self.start <= day and (self.end is None or day <= self.end)


@dataclass(frozen=True)
class RateTable:
    """The rates, the currencies they apply to, and what marks a document without VAT."""

    rates: tuple[VatRate, ...]
    currencies: frozenset[str]
    markers: tuple[re.Pattern[str], ...]

    def rates_on(self, day: date) -> list[Decimal]:
        """Every rate in force on ``day``, highest first."""
        return sorted({r.rate for r in self.rates if r.in_force(day)}, reverse=True)

    def applies_to(self, currency: str | None) -> bool:
        """A document in another currency is not held to these rates; one whose
        currency was not read is (the table's country is the usual case)."""
        return currency is None or currency.upper() in self.currencies

    def marked_without_vat(self, text: str) -> bool:
        """Whether a line of ``text`` says the document carries no VAT ("Без НДС",
        "НДС не облагается", "Без налога (НДС)")."""
        for line in text.splitlines():
            folded = normalize_text(line)
            if folded and any(p.search(folded) for p in self.markers):
                return True
        return False


def rates_path() -> Path:
    return resources_dir() / "vat_rates.json"


def _day(value: Any, where: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise ConfigError(f"VAT rate table: {where} {value!r} is not a yyyy-mm-dd date") from None


def _parse(data: Any, source: Path) -> RateTable:
    if not isinstance(data, dict) or not isinstance(data.get("rates"), list):
        raise ConfigError(f"VAT rate table {source}: no 'rates' list", file=str(source))
    rates = []
    for n, row in enumerate(data["rates"], start=1):
        try:
            rate = Decimal(str(row["rate"]))
            start = _day(row["from"], f"row {n} 'from'")
        except (KeyError, TypeError, InvalidOperation):
            raise ConfigError(
                f"VAT rate table {source}: row {n} needs a numeric 'rate' and a 'from' date",
                file=str(source),
            ) from None
        if start is None or not Decimal(0) <= rate < Decimal(100):
            raise ConfigError(
                f"VAT rate table {source}: row {n} needs a rate from 0 to 99 and a 'from' date",
                file=str(source),
            )
        end = _day(row.get("until"), f"row {n} 'until'")
        rates.append(VatRate(rate, start, end, str(row.get("label") or "")))
    try:
        markers = tuple(re.compile(str(m)) for m in data.get("without_vat_markers") or [])
    except re.error as exc:
        raise ConfigError(
            f"VAT rate table {source}: bad marker {exc.pattern!r}: {exc}", file=str(source)
        ) from None
    currencies = frozenset(str(c).upper() for c in data.get("currencies") or [])
    return RateTable(tuple(rates), currencies, markers)


@cache
def _load(source: Path) -> RateTable:
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(
            f"Cannot read the VAT rate table {source}: {exc.strerror or exc}", file=str(source)
        ) from exc
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"VAT rate table {source} is not valid JSON: {exc.msg} at line {exc.lineno}",
            file=str(source),
        ) from exc
    return _parse(data, source)


def load_rates(path: Path | None = None) -> RateTable:
    """The table at ``path`` (the bundled one by default), read once per process."""
    return _load(Path(path) if path is not None else rates_path())


def expected_vat(amount: Decimal, rate: Decimal) -> Decimal:
    """The VAT inside a total that includes it, to the kopeck."""
    return (amount * rate / (Decimal(100) + rate)).quantize(_CENT, rounding=ROUND_HALF_UP)


def tolerance(expected: Decimal) -> Decimal:
    """How far a stated VAT may be from the formula and still be rounding."""
    return max(_MIN_TOLERANCE, abs(expected) * _RELATIVE_TOLERANCE)


def _percent(rates: Sequence[Decimal]) -> str:
    return "/".join(f"{r.normalize():f}%" for r in rates)


def vat_codes(
    field: str,
    vat_value: str | None,
    amount_value: str | None,
    day: date | None,
    currency: str | None,
    text: str,
    table: RateTable,
) -> list[ReviewCode]:
    """What is wrong with a document's VAT, if anything (at most one code).

    ``vat_value`` and ``amount_value`` are normalised amounts ("19666.67"); a VAT
    of zero or none is never wrong by itself. A document marked "без НДС" must not
    state VAT; any other is held to the rates in force on ``day`` when its currency
    is one the table covers (a document without a date only to VAT < total).
    """
    vat, amount = decimal(vat_value), decimal(amount_value)
    if vat is None or vat == 0:
        return []
    vat_abs = abs(vat)
    if table.marked_without_vat(text):
        return [ReviewCode("vat_without", field, {"value": vat_value})]
    if amount is None or amount == 0:
        return []
    total = abs(amount)
    if vat_abs >= total:
        return [ReviewCode("vat_over_total", field, {"value": vat_value, "amount": amount_value})]
    if day is None or not table.applies_to(currency):
        return []
    rates = [r for r in table.rates_on(day) if r > 0]
    if not rates:
        return []
    expected = {rate: expected_vat(total, rate) for rate in rates}
    if any(abs(vat_abs - e) <= tolerance(e) for e in expected.values()):
        return []
    closest = min(rates, key=lambda r: abs(vat_abs - expected[r]))
    return [
        ReviewCode(
            "vat_mismatch",
            field,
            {
                "value": vat_value,
                "amount": amount_value,
                "rates": _percent(rates),
                "date": day.isoformat(),
                "expected": str(expected[closest]),
            },
        )
    ]
