"""Hints from the file name ("Счет_123_от_12.03.2024_118000.pdf").

Operators and scanners name files after the document; those hints are a cheap
cross-check of what was read from the content and the only clue for a scan without
a text layer. They are kept apart (``Document.filename_fields``) because a name can
be stale or belong to the first of several documents in the file.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from docbatch_gui.domain.normalize import find_dates, normalize_amount, normalize_text
from docbatch_gui.pipeline.profile import Profile, label_regex
from docbatch_gui.pipeline.textutil import fold

_NUMBER_MARK_RE = re.compile(
    r"(?:№|#|(?<![^\W\d_])(?:no|nr|n)(?![^\W\d_]))\.?\s*([0-9A-Za-zА-Яа-яЁё][\w\-/.]*)",
    re.IGNORECASE,
)
_FILLER_RE = re.compile(r"^(?:от|from|dated|на|сумму|sum|amount|копия|copy|scan|скан)$", re.I)
_CURRENCY = r"(?:руб|р|rub|usd|eur|₽|\$|€)"
# an amount shows itself as one: kopecks/cents, or a currency sign right after it
_AMOUNT_FILE_RE = re.compile(
    rf"^(?:\d+[.,]\d{{2}}{_CURRENCY}?|\d{{3,}}{_CURRENCY})\.?$", re.IGNORECASE
)
# a bare whole number is an amount only in a name that is laid out as a document's
# ("Счет_123_от_12.03.2024_118000"), never alone ("test_4423")
_BARE_AMOUNT_RE = re.compile(r"^\d{3,}$")
_DATE_WORD_RE = re.compile(r"(?:^|[\s_])(?:от|from|dated|date|дата)[\s_.]*$", re.IGNORECASE)


def _stem(file_name: str) -> str:
    name = PurePath(file_name.replace("\\", "/")).name
    stem, dot, ext = name.rpartition(".")
    if dot and stem and 1 <= len(ext) <= 5 and ext.isalnum():
        name = stem
    return name.replace("_", " ").replace("+", " ")


def _clean(token: str) -> str:
    return token.strip(".,;:-_()[]{}")


def _doc_type(text: str, profile: Profile) -> tuple[str | None, str | None]:
    """Earliest type word in the name; returns (type key, matched phrase)."""
    norm = normalize_text(text)
    best: tuple[int, int, str, str] | None = None
    for doc_type in profile.doc_types:
        for keyword in doc_type.filename:
            match = keyword.pattern.search(norm)
            if match and (best is None or (match.start(), -len(match.group())) < best[:2]):
                best = (match.start(), -len(match.group()), doc_type.key, keyword.source)
    return (best[2], best[3]) if best else (None, None)


def _number(text: str, phrase: str | None) -> tuple[str | None, tuple[int, int] | None]:
    mark = _NUMBER_MARK_RE.search(text)
    if mark and any(ch.isdigit() for ch in mark.group(1)):
        return _clean(mark.group(1)), mark.span(1)
    if phrase:
        label = label_regex(phrase).search(fold(text))
        if label:
            after = re.match(r"[\s\-]*([^\s]+)", text[label.end() :])
            if after:
                token = _clean(after.group(1))
                start = label.end() + after.start(1)
                if any(ch.isdigit() for ch in token):
                    return token, (start, start + len(after.group(1)))
    return None, None


def _currency(text: str, profile: Profile) -> str | None:
    folded = fold(text)
    codes = {c.code for c in profile.currencies if any(p.search(folded) for p in c.marker_re)}
    return codes.pop() if len(codes) == 1 else None


def _trusted_date(text: str, found: tuple[int, int, str], structured: bool) -> bool:
    """A date only in a form no counter or version takes: a four-digit year, or a
    dotted short date in a document's name or after "от"/"from" ("act 45 12.03.24").
    "6-2-10-t02" is a part number, not 6 February 2010."""
    start, end, _iso = found
    raw = text[start:end]
    if re.search(r"\d{4}", raw):
        return True
    return "." in raw and (structured or bool(_DATE_WORD_RE.search(text[:start])))


def parse_filename(file_name: str, profile: Profile) -> dict[str, str | None]:
    """Number, date, amount, currency and a ``doc_type`` hint from a file name.

    Keys are the profile's field keys plus ``doc_type``; anything not clearly in the
    name is None: a number alone is not a field. An amount is only taken when exactly
    one leftover token looks like one (with kopecks or a currency sign, or any whole
    number in a name laid out as a document's), because "(2)", a page count or a
    scanner's counter must not become money.
    """
    result: dict[str, str | None] = dict.fromkeys(profile.field_keys)
    result["doc_type"] = None
    text = _stem(file_name)
    structured = _doc_type(text, profile)[0] is not None
    dates = [d for d in find_dates(text) if _trusted_date(text, d, structured)]
    if dates and "date" in result:
        result["date"] = dates[0][2]
    chars = list(text)
    for start, end, _iso in dates:
        chars[start:end] = " " * (end - start)
    text = "".join(chars)

    doc_type, phrase = _doc_type(text, profile)
    result["doc_type"] = doc_type
    number, span = _number(text, phrase)
    if "number" in result:
        result["number"] = number
    if span:
        text = text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :]
    if phrase:
        label = label_regex(phrase).search(fold(text))
        if label:
            text = text[: label.start()] + " " * (label.end() - label.start()) + text[label.end() :]

    leftovers = [_clean(t) for t in text.split()]
    amounts = [
        t
        for t in leftovers
        if t
        and not _FILLER_RE.match(t)
        and (_AMOUNT_FILE_RE.match(t) or (structured and _BARE_AMOUNT_RE.match(t)))
    ]
    if len(amounts) == 1 and "amount" in result:
        result["amount"] = normalize_amount(amounts[0])
    if "currency" in result:
        result["currency"] = _currency(text, profile)
    return result
