"""Checks between the values the offline reader found, which doubt one of them.

Each value is read by its own label; a misread digit still reads as a value. What a
document prints twice over catches it: the total is the net amount plus the VAT
when both are printed, and a document's date sits near its other dates (a delivery,
a due date, a receipt's time stamp). A value these contradict keeps its place but
goes under the review threshold (``DOUBTED``) with the reason in words.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal, InvalidOperation

from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.reasons import ReviewCode

DOUBTED = 0.5
#: a cent each way of rounding between the net amount, the VAT and the total
SUM_TOLERANCE = Decimal("0.02")
#: a document date this far from the nearest other date on it is doubted
FAR_DAYS = 366


def _decimal(value: str | None) -> Decimal | None:
    """The amount as a number, or None: "NaN" and "Infinity" parse as decimals but
    are not amounts, and a comparison with NaN raises."""
    try:
        number = Decimal(value) if value is not None else None
    except InvalidOperation:
        return None
    return number if number is not None and number.is_finite() else None


def total_fits(total: Decimal, net: Decimal, vat: Decimal) -> bool:
    """Whether ``total`` is ``net`` plus ``vat`` (or the net itself: "subtotal" is the
    total on a document whose VAT is included in its lines)."""
    return abs(total - net - vat) <= SUM_TOLERANCE or abs(total - net) <= SUM_TOLERANCE


def doubt_total(
    profile: Profile,
    values: dict[str, str | None],
    confidence: dict[str, float],
    net: str | None,
) -> list[ReviewCode]:
    """The total doubted (in place) when the net amount and the VAT were read and do
    not add up to it."""
    amount_keys = [f.key for f in profile.fields if f.kind == "amount"]
    vat_keys = [f.key for f in profile.fields if f.kind == "vat"]
    if not amount_keys or not vat_keys:
        return []
    key = amount_keys[0]
    total, vat, net_value = (
        _decimal(values.get(key)),
        _decimal(values.get(vat_keys[0])),
        _decimal(net),
    )
    if total is None or vat is None or net_value is None or total_fits(total, net_value, vat):
        return []
    confidence[key] = min(confidence.get(key, 0.0), DOUBTED)
    return [
        ReviewCode(
            "total_not_sum", key, {"value": values[key], "net": net, "vat": values[vat_keys[0]]}
        )
    ]


def doubt_far_date(
    key: str, values: dict[str, str | None], confidence: dict[str, float], dates: Sequence[str]
) -> list[ReviewCode]:
    """The date doubted (in place) when the document prints other dates, two or more,
    and the nearest of them is more than ``FAR_DAYS`` away (a year misread: "2017" as
    "2011"). One other date proves nothing: an invoice cites the contract of years
    ago."""
    value = values.get(key)
    if value is None:
        return []
    try:
        chosen = date.fromisoformat(value)
        others = sorted({date.fromisoformat(d) for d in dates if d != value})
    except ValueError:
        return []
    if len(others) < 2:
        return []
    nearest = min(others, key=lambda d: abs((d - chosen).days))
    if abs((nearest - chosen).days) <= FAR_DAYS:
        return []
    confidence[key] = min(confidence.get(key, 0.0), DOUBTED)
    return [ReviewCode("date_far", key, {"value": value, "other": nearest.isoformat()})]
