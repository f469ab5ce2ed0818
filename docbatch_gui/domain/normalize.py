"""Pure normalisation helpers shared by the offline extractor and the registry matcher.

Values read from documents, file names and Excel registries are written in many
styles ("1 234,56 руб.", "$1,234.56", "12 марта 2024 г.", an Excel serial). Both
sides of a comparison must go through the same functions, otherwise a match fails on
formatting instead of content. Every helper returns None (or "") rather than a guess:
a wrong value that looks right is worse for an operator than an empty cell.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

__all__ = [
    "find_dates",
    "inn_is_valid",
    "normalize_amount",
    "normalize_date",
    "normalize_number",
    "normalize_text",
]

# Spaces that PDF text layers and Excel exports use as thousands separators.
_SPACE_CHARS = "\u00a0\u2007\u2009\u202f\u2002\u2003\u2004\u2005\u2006\u2008\u200a"
_SPACE_TABLE = str.maketrans(dict.fromkeys(_SPACE_CHARS, " "))
_MINUS_CHARS = "\u2212\u2012\u2013\u2014"


def normalize_text(s: object) -> str:
    """Fold text so that labels and names compare regardless of case and punctuation.

    "Счёт-фактура №12" and "счет фактура 12" must be equal for keyword matching and
    for matching a counterparty against a registry, so everything that is not a
    letter or digit becomes a single space.
    """
    if s is None:
        return ""
    # "№" must not become "No" under NFKC: "№12" would then read as the word "no12".
    text = unicodedata.normalize("NFKC", str(s).replace("№", " ")).lower().replace("ё", "е")
    folded = "".join(ch if ch.isalnum() else " " for ch in text)
    return " ".join(folded.split())


def normalize_number(s: object) -> str:
    """Keep only the digits of a document number.

    Registries and documents disagree on prefixes and separators ("АБ-0123/24" vs
    "0123/24" vs "012324"); the digit sequence is the part both sides agree on.
    Leading zeros are kept because they are part of what was printed.
    """
    if s is None:
        return ""
    # filter with the bound str method: one C loop, this runs once per registry row
    return "".join(filter(str.isdigit, unicodedata.normalize("NFKC", str(s))))


# --------------------------------------------------------------------------- dates

# Stems, longest matched first: "мар" (март/марта/мар.) vs "ма" (май/мая).
_RU_MONTHS = {
    **dict.fromkeys(("январ", "янв"), 1),
    **dict.fromkeys(("феврал", "фев"), 2),
    **dict.fromkeys(("март", "мар"), 3),
    **dict.fromkeys(("апрел", "апр"), 4),
    "ма": 5,
    "июн": 6,
    "июл": 7,
    **dict.fromkeys(("август", "авг"), 8),
    **dict.fromkeys(("сентябр", "сент", "сен"), 9),
    **dict.fromkeys(("октябр", "окт"), 10),
    **dict.fromkeys(("ноябр", "ноя"), 11),
    **dict.fromkeys(("декабр", "дек"), 12),
}
_EN_MONTH_NAMES = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
_EN_MONTHS = {
    **{name: i for i, name in enumerate(_EN_MONTH_NAMES, start=1)},
    **{name[:3]: i for i, name in enumerate(_EN_MONTH_NAMES, start=1)},
    "sept": 9,
}
_RU_MONTH_RE = (
    r"(?:января|январь|янв|февраля|февраль|фев|марта|март|мар|апреля|апрель|апр|мая|май"
    r"|июня|июнь|июн|июля|июль|июл|августа|август|авг|сентября|сентябрь|сент|сен"
    r"|октября|октябрь|окт|ноября|ноябрь|ноя|декабря|декабрь|дек)"
)
_EN_MONTH_RE = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)"
)
_MONTH_RE = rf"(?:{_RU_MONTH_RE}|{_EN_MONTH_RE})\.?"
_DAY_RE = r"(?P<d>\d{1,2})"
_YEAR4 = r"(?P<y>(?:19|20)\d{2})"

# Order matters: the ISO form must be tried before the day-first form.
_DATE_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(r"(?<!\d)(?P<y>(?:19|20)\d{2})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?!\d)"),
    re.compile(
        r"(?<![\d.,/])(?P<d>\d{1,2})(?P<sep>[./-])(?P<m>\d{1,2})(?P=sep)"
        r"(?P<y>(?:19|20)\d{2}|\d{2})(?![\d,]|\.\d)"
    ),
    re.compile(
        rf"(?<![\w.,])[«\"“']?{_DAY_RE}[»\"”']?\s*(?P<mon>{_MONTH_RE})\s+{_YEAR4}(?!\d)",
        re.IGNORECASE,
    ),
    re.compile(
        rf"(?<![\w])(?P<mon>{_EN_MONTH_RE})\.?\s+{_DAY_RE}(?:st|nd|rd|th)?,?\s+{_YEAR4}(?!\d)",
        re.IGNORECASE,
    ),
    re.compile(
        rf"(?<![\w.,]){_DAY_RE}(?:st|nd|rd|th)?\s+(?P<mon>{_EN_MONTH_RE})\.?,?\s+{_YEAR4}(?!\d)",
        re.IGNORECASE,
    ),
)
# What may surround a date in a cell without making it something else.
_DATE_NOISE_RE = re.compile(
    r"^\s*(?:от|dated|date|дата)?\s*[:\s]*|\s*(?:г\.?|года|год|y\.?)?\s*"
    r"(?:\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?\s*$",
    re.IGNORECASE,
)
_ISO_TIME_RE = re.compile(
    r"^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$"
)

_EXCEL_EPOCH = date(1899, 12, 30)
# Serial 61 is 1900-03-01, the first day after Excel's fictitious 1900-02-29.
_EXCEL_MIN = 61
_EXCEL_MAX = (date(2100, 12, 31) - _EXCEL_EPOCH).days


def _month_from_name(name: str) -> int | None:
    key = name.lower().rstrip(".").replace("ё", "е")
    if key in _EN_MONTHS:
        return _EN_MONTHS[key]
    for stem in sorted(_RU_MONTHS, key=len, reverse=True):
        if key.startswith(stem):
            return _RU_MONTHS[stem]
    return None


def _to_iso(year: int, month: int, day: int) -> str | None:
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def _match_to_iso(match: re.Match[str]) -> str | None:
    groups = match.groupdict()
    year_text = groups["y"]
    year = int(year_text)
    if len(year_text) == 2:
        # POSIX pivot: 00-68 → 20xx, 69-99 → 19xx. Fixed so results never drift.
        year += 2000 if year < 69 else 1900
    if groups.get("mon"):
        month = _month_from_name(groups["mon"])
        if month is None:
            return None
    else:
        month = int(groups["m"])
    return _to_iso(year, month, int(groups["d"]))


def find_dates(text: str) -> list[tuple[int, int, str]]:
    """Find every valid date in free text as ``(start, end, iso)``, in text order.

    The extractor needs positions to prefer a date next to a label or in a title;
    invalid calendar dates (31.02.2024) are dropped instead of being "fixed".
    """
    found: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = []
    for pattern in _DATE_PATTERNS:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < t_end and t_start < end for t_start, t_end in taken):
                continue
            iso = _match_to_iso(match)
            taken.append((start, end))
            if iso is not None:
                found.append((start, end, iso))
    found.sort()
    return found


def _iter_date_candidates(text: str) -> Iterator[str | None]:
    for pattern in _DATE_PATTERNS:
        match = pattern.fullmatch(text)
        if match is not None:
            yield _match_to_iso(match)


def normalize_date(s: object) -> str | None:
    """Return an ISO ``YYYY-MM-DD`` date, or None when the value is not clearly a date.

    Numeric dates are read day first (the Russian and European convention), so an
    American "12/31/2024" is rejected rather than swapped. Ints and floats are Excel
    serial numbers, accepted only between 1900-03-01 and 2100-12-31 so that an
    amount or a document number in the wrong column is not turned into a date.
    """
    if s is None or isinstance(s, bool):
        return None
    if isinstance(s, datetime):
        return s.date().isoformat()
    if isinstance(s, date):
        return s.isoformat()
    if isinstance(s, int | float | Decimal):
        try:
            serial = float(s)
        except (ValueError, OverflowError):
            return None
        if not _EXCEL_MIN <= serial < _EXCEL_MAX + 1:
            return None
        return (_EXCEL_EPOCH + timedelta(days=int(serial))).isoformat()
    text = unicodedata.normalize("NFKC", str(s)).translate(_SPACE_TABLE).strip()
    if not text:
        return None
    iso_time = _ISO_TIME_RE.match(text)
    if iso_time:
        text = iso_time.group(1)
    text = " ".join(_DATE_NOISE_RE.sub("", text).split())
    for iso in _iter_date_candidates(text):
        return iso
    return None


# ------------------------------------------------------------------------- amounts

# Currency words and symbols that may surround an amount in a cell ("118 000 руб.").
_CURRENCY_WORDS = frozenset(
    [
        "р",
        "руб",
        "рубль",
        "рубля",
        "рублей",
        "rub",
        "rur",
        "₽",
        "usd",
        "us$",
        "$",
        "долл",
        "дол",
        "доллар",
        "доллара",
        "долларов",
        "eur",
        "€",
        "евро",
    ]
) | {""}
_KOPEKS_RE = re.compile(
    r"^(?P<rub>[\d ]+?)\s*(?:руб\w*|р)\.?\s*(?P<kop>\d{2})\s*коп\w*\.?$", re.IGNORECASE
)
_NUMBER_CORE_RE = re.compile(r"^(?P<pre>[^\d]*?)(?P<num>\d[\d ',.]*\d|\d)(?P<post>[^\d]*)$")
_GROUPED_RE = re.compile(r"^\d{1,3}(?:(?P<sep>[ ',.])\d{3})(?:(?P=sep)\d{3})*$")
_CENTS = Decimal("0.01")
#: no document total reaches a quadrillion; more digits are a misread or an attack
MAX_AMOUNT = Decimal(10) ** 15


def _is_currency_noise(text: str) -> bool:
    return text.strip().lower().replace(".", "").replace(" ", "") in _CURRENCY_WORDS


def _parse_integer_part(text: str) -> str | None:
    """Accept a plain integer or one grouped in threes with a single separator kind."""
    if text.isdigit():
        return text
    if _GROUPED_RE.match(text):
        return "".join(ch for ch in text if ch.isdigit())
    return None


def _quantize(value: Decimal) -> str | None:
    """Cents, or None for what no document total is: not finite, or 10^15 and more
    (a run of digits misread as one number; Decimal's 28 digits would overflow)."""
    if not value.is_finite() or abs(value) >= MAX_AMOUNT:
        return None
    try:
        return str(value.quantize(_CENTS, rounding=ROUND_HALF_UP))
    except InvalidOperation:
        return None


def _parse_core(num: str) -> Decimal | None:
    last_dot, last_comma = num.rfind("."), num.rfind(",")
    decimal_pos = max(last_dot, last_comma)
    if decimal_pos == -1:
        integer = _parse_integer_part(num)
        return Decimal(integer) if integer is not None else None
    sep = num[decimal_pos]
    integer_text, fraction = num[:decimal_pos], num[decimal_pos + 1 :]
    other = "," if sep == "." else "."
    if other in fraction or " " in fraction or "'" in fraction or not fraction.isdigit():
        return None
    if num.count(sep) > 1:
        # "1.234.567" or "1,234,567": the only separator kind is a thousands separator.
        if other in num:
            return None
        integer = _parse_integer_part(num)
        return Decimal(integer) if integer is not None else None
    if other not in integer_text and len(fraction) == 3:
        # "1,234" / "1.234": thousands in one convention, decimals in the other.
        return None
    integer = _parse_integer_part(integer_text)
    if integer is None:
        return None
    if len(fraction) > 2 and fraction[2:].strip("0"):
        # More than cents ("12.3456") is a price or a misread, not a document total.
        return None
    return Decimal(f"{integer}.{fraction}")


def normalize_amount(s: object) -> str | None:
    """Return a dot-decimal string with exactly two decimals, or None if unsure.

    Both "1 234,56" (RU) and "1,234.56" (EN) are common; the last separator is the
    decimal one and the other must group digits in threes. "1,234" alone is refused
    because it is 1234 in one convention and 1.234 in the other. Floats and Decimals
    (Excel cells) are rounded half-up to cents, which hides binary float noise.
    """
    if s is None or isinstance(s, bool):
        return None
    if isinstance(s, Decimal):
        return _quantize(s)
    if isinstance(s, int):
        return _quantize(Decimal(s))
    if isinstance(s, float):
        return _quantize(Decimal(repr(s))) if s == s and abs(s) != float("inf") else None
    text = unicodedata.normalize("NFKC", str(s)).translate(_SPACE_TABLE)
    for ch in _MINUS_CHARS:
        text = text.replace(ch, "-")
    text = " ".join(text.split())
    negative = False
    if text.startswith("(") and text.endswith(")"):
        negative, text = True, text[1:-1].strip()
    kopeks = _KOPEKS_RE.match(text)
    if kopeks:
        rub = kopeks.group("rub").strip()
        text = f"{rub},{kopeks.group('kop')}"
    match = _NUMBER_CORE_RE.match(text)
    if match is None:
        return None
    pre, num, post = match.group("pre"), match.group("num"), match.group("post")
    pre = pre.strip()
    if pre.endswith(("-", "+")):
        negative = negative or pre.endswith("-")
        pre = pre[:-1]
    elif pre.startswith(("-", "+")):
        negative = negative or pre.startswith("-")
        pre = pre[1:]
    if not (_is_currency_noise(pre) and _is_currency_noise(post)):
        return None
    try:
        value = _parse_core(num)
    except InvalidOperation:
        return None
    if value is None:
        return None
    return _quantize(-value if negative else value)


# ---------------------------------------------------------------------- tax ids


def inn_is_valid(inn: str) -> bool:
    """Check a Russian INN (10 digits for companies, 12 for individuals) by its
    control digits (python-stdnum's ``stdnum.ru.inn``).

    OCR and typing errors in an INN are common and the checksum catches almost all
    of them, so an INN that fails it must not reach the registry as if it were read.
    The value must be digits only (stdnum would strip spaces; digits of any script
    count, stdnum reads ASCII ones) and not all zeros (whose control digits are zeros).
    """
    # deferred: python-stdnum imports pydoc and ssl, 0.27-0.43 s after the pipeline's
    #   modules; a child that only renders never checks one
    from stdnum.ru import inn as stdnum_inn

    if not inn.isdecimal():
        return False
    digits = "".join(str(int(ch)) for ch in inn)  # any script's digits, as the sum reads them
    return bool(digits.strip("0")) and stdnum_inn.is_valid(digits)
