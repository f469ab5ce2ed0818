"""Hints from the file name ("Счет_123_от_12.03.2024_118000.pdf").

Operators and accounting programs name files after the document; those hints are a
cheap cross-check of what was read from the content and the only clue for a scan
without a text layer. They are kept apart (``Document.filename_fields``) because a
name can be stale or belong to the first of several documents in the file.

Scanners, phones and batch exports name files too, with counters and time stamps
("inv_000", "Scan_20240312_0001", "IMG_2024", "invoice (2)"). Read as a number or a
date, those would contradict every correct document and send it to review, so a
value counts only in a recognised document pattern: a number after "№"/"No", or
after a document word when the name also carries a date or the number has the
shape of one ("Счет_123_от_12.03.2024", "Invoice INV-2024-0042"); a date after a
document word or "от", or written the way people write one (12.03.2024).
"""

from __future__ import annotations

import re
from pathlib import PurePath

from docbatch_gui.config.profile import Profile, label_regex
from docbatch_gui.domain.normalize import find_dates, normalize_amount, normalize_text
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
_SEPARATED_RE = re.compile(r"\w[\-/.]\w")


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
        for phrase, pattern in zip(doc_type.filename, doc_type.filename_re, strict=True):
            match = pattern.search(norm)
            if match and (best is None or (match.start(), -len(match.group())) < best[:2]):
                best = (match.start(), -len(match.group()), doc_type.key, phrase)
    return (best[2], best[3]) if best else (None, None)


def _number_ok(token: str, dated: bool) -> bool:
    """A real document number: has a digit, is not all zeros (a counter's start),
    and, after a bare document word, has a number's shape or stands in a dated name."""
    digits = [ch for ch in token if ch.isdigit()]
    if not digits or not any(ch != "0" for ch in digits):
        return False
    return dated or _shaped(token, len(digits))


def _shaped(token: str, digits: int) -> bool:
    """Shaped like a document number, not a counter or a version: separators inside
    ("INV-2024-0042", "7-П", "12/24") or letters with several digits ("A123"); digits
    alone ("000", "12345") and "v2" are not."""
    letters = any(ch.isalpha() for ch in token)
    return bool(_SEPARATED_RE.search(token)) or (letters and digits >= 2)


def _number(
    text: str, phrase: str | None, dated: bool
) -> tuple[str | None, tuple[int, int] | None]:
    mark = _NUMBER_MARK_RE.search(text)
    if mark and _number_ok(_clean(mark.group(1)), dated=True):
        return _clean(mark.group(1)), mark.span(1)
    if phrase:
        label = label_regex(phrase).search(fold(text))
        if label:
            after = re.match(r"[\s\-]*([^\s]+)", text[label.end() :])
            # "(2)" after the word is a copy's counter ("invoice (2).pdf"), not a number
            if after and not after.group(1).startswith(("(", "[")):
                token = _clean(after.group(1))
                start = label.end() + after.start(1)
                if _number_ok(token, dated):
                    return token, (start, start + len(after.group(1)))
    return None, None


def _currency(text: str, profile: Profile) -> str | None:
    folded = fold(text)
    codes = {c.code for c in profile.currencies if any(p.search(folded) for p in c.marker_re)}
    return codes.pop() if len(codes) == 1 else None


def _trusted_date(text: str, found: tuple[int, int, str], typed: bool) -> bool:
    """A date only in a form no counter, version or time stamp takes.

    In a name with a document word, or after "от"/"from": a four-digit year, or a
    dotted short date ("act 45 12.03.24"). "6-2-10-t02" is a part number, not 6
    February 2010. In any other name only a date as a person types it (12.03.2024,
    12 марта 2024): an ISO date there is a scanner's or a phone's time stamp
    ("Scan 2024-03-12 09-45-12"), the day of the scan, not of the document.
    """
    start, end, _iso = found
    raw = text[start:end]
    four_digit_year = bool(re.search(r"\d{4}", raw))
    if typed or _DATE_WORD_RE.search(text[:start]):
        return four_digit_year or "." in raw
    typed_by_hand = "." in raw or any(ch.isalpha() for ch in raw)
    return four_digit_year and typed_by_hand


def parse_filename(file_name: str, profile: Profile) -> dict[str, str | None]:
    """Number, date, amount, currency and a ``doc_type`` hint from a file name.

    Keys are the profile's field keys plus ``doc_type``; anything not clearly in the
    name is None: a number alone is not a field, nor is a counter after a document
    word ("inv_000"). An amount is only taken when exactly one leftover token looks
    like one (with kopecks or a currency sign, or any whole number in a name laid out
    as a document's: a document word with a number or a date), because "(2)", a page
    count or a scanner's counter must not become money.
    """
    result: dict[str, str | None] = dict.fromkeys(profile.field_keys)
    result["doc_type"] = None
    text = _stem(file_name)
    typed = _doc_type(text, profile)[0] is not None
    dates = [d for d in find_dates(text) if _trusted_date(text, d, typed)]
    if dates and "date" in result:
        result["date"] = dates[0][2]
    chars = list(text)
    for start, end, _iso in dates:
        chars[start:end] = " " * (end - start)
    text = "".join(chars)

    doc_type, phrase = _doc_type(text, profile)
    result["doc_type"] = doc_type
    number, span = _number(text, phrase, dated=bool(dates))
    structured = doc_type is not None and (number is not None or bool(dates))
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
