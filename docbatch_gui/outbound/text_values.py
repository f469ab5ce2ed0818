"""Dates and numbers written as text (CSV cells) in the export's language, by Babel.

A spreadsheet opening the CSV reads a cell as a number or a date only when it is
written the way its locale writes one: "118000,00" and "20.05.2024" for Russian Excel,
"118000.00" for English. Babel has each locale's decimal sign and date forms (CLDR),
so the rules are the library's, not a table here. Two choices stay ours:

- numbers never group thousands (a script splitting on the delimiter, or a
  spreadsheet, would read "118 000,00" as text), and amounts keep two decimals,
  rounded half up as accountants do;
- English dates are ISO 8601 (2024-05-20): the English short form (5/20/24) is read
  differently in every other English-speaking country. Other languages use their
  locale's short date, which has the full year.

A decimal sign equal to the CSV delimiter would split the cell, so then the number
is written with a point.
"""

from __future__ import annotations

import decimal
from datetime import date, datetime
from decimal import Decimal

#: the date (and date-time) pattern for a language whose locale form is not used
_ISO_DATES = {"en": ("yyyy-MM-dd", "yyyy-MM-dd HH:mm")}


def date_text(value: date, language: str) -> str:
    """A date, or a date and time to the minute, as the export's language writes it."""
    # deferred: Babel's dates and numbers, 0.47-0.65 s after the export's own modules
    #   (openpyxl included); only a CSV export needs them
    from babel.dates import format_date, format_datetime, get_date_format

    iso = _ISO_DATES.get(language)
    if isinstance(value, datetime):
        pattern = iso[1] if iso else f"{get_date_format('short', language).pattern} HH:mm"
        return format_datetime(value, pattern, locale=language)
    return format_date(value, iso[0] if iso else "short", locale=language)


def number_text(value: float | Decimal, language: str, delimiter: str, places: int | None) -> str:
    """A number in the language's decimal sign, without grouping: ``places`` decimals
    (rounded half up), or every digit it has when None (quantities, prices)."""
    # deferred: Babel's dates and numbers, 0.47-0.65 s after the export's own modules
    #   (openpyxl included); only a CSV export needs them
    from babel.numbers import format_decimal, get_decimal_symbol

    locale = language if get_decimal_symbol(language) != delimiter else "en"
    if places is None:
        return format_decimal(value, "0.#", locale=locale, decimal_quantization=False)
    with decimal.localcontext(rounding=decimal.ROUND_HALF_UP):
        return format_decimal(value, "0." + "0" * places, locale=locale)
