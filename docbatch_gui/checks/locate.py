"""Where each extracted value stands on its pages, and which values stand nowhere.

A reader (the offline extractor, Claude) gives values without saying where it read
them. Finding each one among the page's words and their boxes does two things: a
person checking a document or a registry match is shown the spot, and a value that
is on none of its pages (a number the model made up, a party taken from another
document) sends the document to review before it reaches a registry.

Values are compared in normal form, through the normalisers the extractor and the
registry use, so "118 000,00", "118000.00" and "118 000 руб. 00 коп." are all
118000.00, and "12.03.2024", "12 марта 2024" and "March 12, 2024" are all
2024-03-12. A name spanning several words is boxed by the union of those words.

Pure: the engine hands over the pages' words (``pipeline/words.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from difflib import SequenceMatcher

from docbatch_gui.domain.models import Document
from docbatch_gui.domain.normalize import (
    find_dates,
    normalize_amount,
    normalize_date,
    normalize_number,
    normalize_text,
)
from docbatch_gui.domain.reasons import ReviewCode
from docbatch_gui.pipeline.profile import Profile
from docbatch_gui.pipeline.textutil import fold
from docbatch_gui.pipeline.words import Word

Box = tuple[float, float, float, float]
Finder = Callable[[str, Sequence[Word]], Box | None]

#: kinds whose value is printed as it is: one found on none of its pages is suspect.
#: A currency is often only implied ("руб." gives RUB, or nothing does); it is
#: located when a marker is printed, never flagged
LITERAL_KINDS = frozenset({"number", "date", "amount", "vat", "party", "tax_id"})
#: a field's confidence once its value was found nowhere on its pages
NOT_ON_PAGE_CONFIDENCE = 0.3
#: fewer words than this on a document's pages cannot tell what is missing (a bad scan)
MIN_WORDS = 10
MAX_AMOUNT_WORDS = 6  # "118 000 руб. 00 коп." is five
MAX_NUMBER_WORDS = 5  # a number or an account printed in groups
FUZZY_NAME = 0.85  # OCR misreads a letter or two of a name
#: legal forms as they are abbreviated and as they are written out
LEGAL_FORMS = {
    "ооо": "общество с ограниченной ответственностью",
    "ао": "акционерное общество",
    "пао": "публичное акционерное общество",
    "зао": "закрытое акционерное общество",
    "оао": "открытое акционерное общество",
    "нао": "непубличное акционерное общество",
    "ип": "индивидуальный предприниматель",
    "llc": "limited liability company",
    "ltd": "limited",
    "inc": "incorporated",
    "corp": "corporation",
}
_NUMBER_MARKS = frozenset({"no", "nr", "n", "number", "номер", "invoice", "счет", "акт"})
_EDGES = re.compile(r"^[^\w$€₽¥₸£(+\-−]+|[^\w.$€₽¥₸£)]+$")
_DIGITS = re.compile(r"\d+")


def located(document: Document, pages: Mapping[int, Sequence[Word]], profile: Profile) -> Document:
    """``document`` with the spot of each value found on its pages (``locations``),
    and a ``not_on_page`` code for each value that should be printed but is on none.

    ``pages`` maps page numbers to their words; a page absent or without words cannot
    tell, so nothing is flagged unless every page of the document has words.
    """
    order = range(document.page_from, document.page_to + 1)
    counts = [len(pages.get(n) or ()) for n in order]
    can_tell = all(counts) and sum(counts) >= MIN_WORDS
    kinds = {f.key: f.kind for f in profile.fields}
    locations = dict(document.locations)
    codes = list(document.review_codes)
    confidence = dict(document.confidence)
    flagged = False
    for name, value in document.fields.items():
        if not isinstance(value, str) or not value.strip():
            continue
        kind = kinds.get(name, "")
        spot = find(value, kind, [(n, pages.get(n) or ()) for n in order], profile)
        if spot is not None:
            page, box = spot
            locations[name] = {"page": page, "box": list(box)}
        elif can_tell and _should_be_printed(kind, value):
            locations.pop(name, None)
            codes.append(ReviewCode("not_on_page", name, {"value": value}))
            confidence[name] = min(confidence.get(name, 1.0), NOT_ON_PAGE_CONFIDENCE)
            flagged = True
    if not flagged:
        return replace(document, locations=locations)
    return replace(
        document,
        locations=locations,
        review_codes=codes,
        confidence=confidence,
        needs_review=True,
    )


def _should_be_printed(kind: str, value: str) -> bool:
    """A zero VAT is what "без НДС" or a blank VAT line is read as: not printed."""
    if kind not in LITERAL_KINDS:
        return False
    if kind == "vat":
        amount = normalize_amount(value)
        return amount is not None and amount.lstrip("-") != "0.00"
    return True


def find(
    value: str, kind: str, pages: Iterable[tuple[int, Sequence[Word]]], profile: Profile
) -> tuple[int, Box] | None:
    """(page, box) of the first place ``value`` stands, pages in the order given."""
    finder: Finder
    if kind == "currency":
        markers = [p for c in profile.currencies if c.code == value.upper() for p in c.marker_re]
        finder = lambda _value, words: find_currency(markers, words)  # noqa: E731
    else:
        finder = _FINDERS.get(kind, find_name)
    for page_no, words in pages:
        if words:
            box = finder(value, words)
            if box is not None:
                return page_no, box
    return None


# ------------------------------------------------------------------------- boxes


def _union(words: Sequence[Word], start: int, end: int) -> Box:
    chosen = words[start:end]
    return (
        min(w[1] for w in chosen),
        min(w[2] for w in chosen),
        max(w[3] for w in chosen),
        max(w[4] for w in chosen),
    )


def _part(word: Word, start: int, end: int) -> Box:
    """The box of characters ``start:end`` of a word, by their share of its width."""
    text, x0, y0, x1, y1 = word
    width = (x1 - x0) / max(1, len(text))
    return (round(x0 + start * width, 4), y0, round(x0 + end * width, 4), y1)


def _has_digit(text: str) -> bool:
    return any(ch.isdigit() for ch in text)


# ------------------------------------------------------------------------ amounts


def _amount(words: Sequence[Word], start: int, end: int) -> str | None:
    """The amount words ``start:end`` read as, without its sign ("(1 200,00)" is a
    refund printed in brackets, the same figure)."""
    text = _EDGES.sub("", " ".join(w[0] for w in words[start:end]))
    value = normalize_amount(text)
    return value.lstrip("-") if value else None


def find_amount(value: str, words: Sequence[Word]) -> Box | None:
    """The first run of words that reads as the amount, and not as part of a larger
    one: "1 000" inside "1 000 000,00" is not 1000."""
    target = normalize_amount(value)
    if target is None:
        return None
    target = target.lstrip("-")
    for start, word in enumerate(words):
        if not _has_digit(word[0]):
            continue
        end = None
        for stop in range(start + 1, min(len(words), start + MAX_AMOUNT_WORDS) + 1):
            read = _amount(words, start, stop)
            if read == target:
                end = stop  # the longest: "118 000 руб. 00 коп." over "118 000"
            elif read is not None and end is not None:
                end = None  # the match goes on into another number
                break
        if end is None:
            continue
        before = _amount(words, start - 1, end) if start else None
        if before is None or before == target:
            return _union(words, start, end)
    return None


# -------------------------------------------------------------------------- dates


def find_date(value: str, words: Sequence[Word]) -> Box | None:
    """The first date on the page that is the same day, however it is written."""
    target = normalize_date(value)
    if target is None:
        return None
    starts, text = [], ""
    for word in words:
        starts.append(len(text) + (1 if text else 0))
        text = f"{text} {word[0]}" if text else word[0]
    for start, end, iso in find_dates(text):
        if iso == target:
            first = max(i for i, s in enumerate(starts) if s <= start)
            last = max(i for i, s in enumerate(starts) if s < end)
            return _union(words, first, last + 1)
    return None


# ----------------------------------------------------------------- numbers, INNs


def _marked(words: Sequence[Word], start: int) -> bool:
    """A number mark before (or on) the first word: "№", "#", "No.", "Invoice"."""
    if words[start][0].lstrip()[:1] in ("№", "#"):
        return True
    if start == 0:
        return False
    previous = words[start - 1][0]
    tokens = normalize_text(previous).split()
    return previous.rstrip(":.").endswith(("№", "#")) or bool(
        tokens and tokens[-1] in _NUMBER_MARKS
    )


def find_number(value: str, words: Sequence[Word]) -> Box | None:
    """Words whose digits are the value's digits ("INV-2024-0042", "2024 - 1000"),
    preferring those with its letters too and those after a number mark; a value
    without digits ("б/н") is looked for as words."""
    digits = normalize_number(value)
    if not digits:
        return find_name(value, words)
    folded = normalize_text(value)
    best: tuple[int, int, int] | None = None  # (score, start, end)
    for start, word in enumerate(words):
        if not _has_digit(word[0]):
            continue
        got = ""
        for stop in range(start, min(len(words), start + MAX_NUMBER_WORDS)):
            got += normalize_number(words[stop][0])
            if not digits.startswith(got):
                break
            if got != digits:
                continue
            if stop > start and stop + 1 < len(words) and words[stop + 1][0].isdigit():
                break  # a number printed in groups goes on: this is only part of it
            shown = normalize_text(" ".join(w[0] for w in words[start : stop + 1]))
            score = 2 * (folded in shown) + _marked(words, start)
            if best is None or score > best[0]:
                best = (score, start, stop + 1)
            break
    return _union(words, best[1], best[2]) if best else None


def find_tax_id(value: str, words: Sequence[Word]) -> Box | None:
    """The digits as a run inside a word ("7707083893/770701001" holds an INN and a
    KPP), else as a number (grouped or with a dash: "12-3456789")."""
    digits = normalize_number(value)
    if not digits:
        return None
    for word in words:
        for run in _DIGITS.finditer(word[0]):
            if run.group() == digits:
                return _part(word, run.start(), run.end())
    return find_number(value, words)


# ---------------------------------------------------------------- names, currency


def _same_token(page: str, value: str) -> bool:
    """Equal, or an initial for a name ("И." for "Иван")."""
    return page == value or (len(page) == 1 and len(value) > 1 and value.startswith(page))


def _abbreviated(tokens: list[str]) -> list[str]:
    """The name with its legal form abbreviated ("общество с ограниченной
    ответственностью" → "ооо")."""
    short = " ".join(tokens)
    for abbreviation, words in LEGAL_FORMS.items():
        short = re.sub(rf"(?<!\S){words}(?!\S)", abbreviation, short)
    return short.split()


def _variants(tokens: list[str]) -> list[list[str]]:
    """The name as given, with its legal form abbreviated, and written out."""
    short = _abbreviated(tokens)
    long = " ".join(LEGAL_FORMS.get(t, t) for t in short).split()
    out: list[list[str]] = []
    for variant in (tokens, short, long):
        if variant not in out:
            out.append(variant)
    return out


def _core(tokens: list[str]) -> list[str]:
    """The name without its legal form, when what is left is a name at all."""
    short = _abbreviated(tokens)
    core = [t for t in short if t not in LEGAL_FORMS]
    return core if core != short and any(len(t) >= 3 for t in core) else []


def find_name(value: str, words: Sequence[Word]) -> Box | None:
    """The words that spell the name: exactly (case, quotes and punctuation aside, a
    legal form abbreviated or written out, initials for first names), then without
    its legal form, then with a letter or two misread."""
    tokens = normalize_text(value).split()
    if not tokens:
        return None
    stream = [
        (token, k) for k, word in enumerate(words) for token in normalize_text(word[0]).split()
    ]
    page = [token for token, _ in stream]
    candidates = _variants(tokens)
    core = _core(tokens)
    for wanted in [*candidates, *([core] if core else [])]:
        at = _sequence_at(page, wanted)
        if at is not None:
            return _union(words, stream[at][1], stream[at + len(wanted) - 1][1] + 1)
    for wanted in [*candidates, *([core] if core else [])]:
        at = _fuzzy_at(page, wanted)
        if at is not None:
            return _union(words, stream[at][1], stream[at + len(wanted) - 1][1] + 1)
    return None


def _sequence_at(page: list[str], wanted: list[str]) -> int | None:
    size = len(wanted)
    for at in range(len(page) - size + 1):
        if all(_same_token(page[at + k], wanted[k]) for k in range(size)):
            return at
    return None


def _fuzzy_at(page: list[str], wanted: list[str]) -> int | None:
    """The window of as many tokens most like the name, if like enough."""
    target = " ".join(wanted)
    if len(target) < 5:  # too short for a misread letter to be told from another word
        return None
    size = len(wanted)
    best, best_at = FUZZY_NAME, None
    matcher = SequenceMatcher(autojunk=False)
    matcher.set_seq2(target)
    for at in range(len(page) - size + 1):
        matcher.set_seq1(" ".join(page[at : at + size]))
        if matcher.real_quick_ratio() >= best and matcher.quick_ratio() >= best:
            ratio = matcher.ratio()
            if ratio >= best:
                best, best_at = ratio + 1e-9, at
    return best_at


def find_currency(markers: Sequence[re.Pattern[str]], words: Sequence[Word]) -> Box | None:
    """The first word (or pair, for "российский рубль") showing one of the currency's
    markers ("руб.", "₽", "$")."""
    for size in (1, 2):  # a word alone first: "рублей", not "тысяч) рублей"
        for start in range(len(words) - size + 1):
            text = fold(" ".join(w[0] for w in words[start : start + size]))
            if any(p.search(text) for p in markers):
                return _union(words, start, start + size)
    return None


_FINDERS: dict[str, Finder] = {
    "amount": find_amount,
    "vat": find_amount,
    "date": find_date,
    "number": find_number,
    "tax_id": find_tax_id,
    "party": find_name,
}
