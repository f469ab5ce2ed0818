"""The OCR's own doubt, carried over to the values the offline reader took from it.

A value read next to its label gets a high confidence from the reader's rules, but
on a scan those rules only see the text Tesseract wrote: "112.46" may be "112.45"
read badly, and Tesseract says so itself with a low confidence of that word. So a
value read from OCR text is capped by the recognition confidence of the words it
came from (the least sure of them), and a value whose digits the engine was unsure
of goes under the review threshold with the reason in words.

The words are found back by what they give once read the same way: a run of up to
``MAX_RUN`` consecutive words (a grouped amount "588 618,54" is two) whose digits
are the amount's, whose date is the date, whose digits are the number's. When several
runs give the value, the least sure counts: a receipt prints its total twice or three
times, and the one reading the OCR doubted may be where the misread is (measured:
with the surest counting instead, a total misread "112.46" for "112.45" kept 0.8).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from docbatch_gui.domain.normalize import find_dates, normalize_number
from docbatch_gui.domain.reasons import ReviewCode

#: words of one value at most ("1 234 567,89" is three)
MAX_RUN = 3
#: under this Tesseract confidence (0..100) a word's digits are doubted outright:
#: receipts' dates misread "22" as "29" at 80, while the clean scans' digits read at
#: 91..97 (bench/accuracy.py)
DOUBTFUL = 85
#: the confidence a doubted value keeps: under any review threshold worth the name
DOUBTED = 0.5
#: the field kinds whose values are read from digits
KINDS = ("number", "date", "amount", "vat")

OcrWord = tuple[str, int]  # (text, Tesseract's confidence 0..100)


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def _amount_keys(value: str) -> set[str]:
    """The digit strings an amount may be printed as ("1234.00" as "1234" too)."""
    digits = _digits(value)
    keys = {digits}
    if value.endswith(".00"):
        keys.add(digits[:-2])
    return keys


def _matcher(kind: str, value: str) -> Callable[[str], bool] | None:
    if kind in ("amount", "vat"):
        keys = _amount_keys(value)
        return lambda text: _digits(text) in keys
    if kind == "date":
        return lambda text: any(
            iso == value and start == 0 and end >= len(text.rstrip(".,;:")) - 1
            for start, end, iso in find_dates(text)
        )
    if kind == "number":
        key = normalize_number(value)
        return (lambda text: normalize_number(text) == key) if key else None
    return None


def word_confidence(kind: str, value: str, words: Sequence[OcrWord]) -> int | None:
    """The OCR confidence of the least sure run of words that reads as ``value`` (the
    least sure word of the run); None when no run of ``words`` gives it."""
    matches = _matcher(kind, value)
    if matches is None:
        return None
    least: int | None = None
    for start in range(len(words)):
        if not any(ch.isdigit() for ch in words[start][0]):
            continue
        for size in range(1, MAX_RUN + 1):
            run = words[start : start + size]
            if len(run) < size:
                break
            if not any(ch.isdigit() for ch in run[-1][0]):
                continue  # a run ends with a word of the value: "руб." is not read
            if matches(" ".join(text for text, _c in run)):
                run_confidence = min(c for _t, c in run)
                least = run_confidence if least is None else min(least, run_confidence)
                break
    return least


def capped(confidence: float, ocr: int) -> float:
    """``confidence`` no higher than the OCR's own (``ocr`` 0..100), and under
    ``DOUBTED`` when the OCR doubted the word."""
    cap = ocr / 100
    if ocr < DOUBTFUL:
        cap = min(cap, DOUBTED)
    return round(min(confidence, cap), 2)


def apply_ocr_doubt(
    values: dict[str, str | None],
    confidence: dict[str, float],
    kinds: Mapping[str, str],
    words: Sequence[OcrWord],
    threshold: float,
) -> list[ReviewCode]:
    """Cap in place the confidence of every value read from ``words`` (the OCR words
    of the document's scanned pages) by theirs; the reason for each value the cap
    put under the review ``threshold`` (a value left above it needs no person).
    ``kinds``: field key → its kind."""
    notes: list[ReviewCode] = []
    if not words:
        return notes
    for key, value in values.items():
        kind = kinds.get(key, "")
        if value is None or kind not in KINDS:
            continue
        ocr = word_confidence(kind, value, words)
        if ocr is None:
            continue
        new = capped(confidence.get(key, 0.0), ocr)
        if new < confidence.get(key, 0.0):
            confidence[key] = new
            if new < threshold:
                notes.append(ReviewCode("ocr_unsure", key, {"value": value, "ocr": ocr}))
    return notes
