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
from functools import cached_property

from docbatch_gui.checks.locate_names import name_at
from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.models import Document
from docbatch_gui.domain.normalize import (
    find_dates,
    normalize_amount,
    normalize_date,
    normalize_number,
    normalize_text,
)
from docbatch_gui.domain.reasons import ReviewCode
from docbatch_gui.pipeline.textutil import fold
from docbatch_gui.pipeline.words import Word

Box = tuple[float, float, float, float]

#: kinds whose value is printed as it is: one found on none of its pages is suspect.
#: A currency is often only implied ("руб." gives RUB, or nothing does); it is
#: located when a marker is printed, never flagged
LITERAL_KINDS = frozenset({"number", "date", "amount", "vat", "party", "tax_id"})
#: a field's confidence once its value was found nowhere on its pages
NOT_ON_PAGE_CONFIDENCE = 0.3
#: fewer words than this on a document's pages cannot tell what is missing (a bad scan)
MIN_WORDS = 10
#: a longer document is searched on its first and last half of this many pages (a
#: total is on the last, parties on the first) and nothing is flagged on it: the
#: engine waits while a document is searched, about 10 ms a page
MAX_PAGES = 60
MAX_AMOUNT_WORDS = 6  # "118 000 руб. 00 коп." is five
MAX_NUMBER_WORDS = 5  # a number or an account printed in groups
_NUMBER_MARKS = frozenset({"no", "nr", "n", "number", "номер", "invoice", "счет", "акт"})
_EDGES = re.compile(r"^[^\w$€₽¥₸£(+\-−]+|[^\w.$€₽¥₸£)]+$")
_DIGITS = re.compile(r"\d+")


class PageWords:
    """One page's words, with the views of them the finders share, each made once:
    a document's nine fields, and the documents of a file, search the same pages."""

    def __init__(self, words: Sequence[Word]) -> None:
        self.words = list(words)

    def __len__(self) -> int:
        return len(self.words)

    @cached_property
    def numbers(self) -> list[str]:
        """Each word's digits."""
        return [normalize_number(w[0]) for w in self.words]

    @cached_property
    def digits(self) -> str:
        """All the page's digits in a row: a value whose digits are not in it is not
        on the page, whatever the words around it."""
        return "".join(self.numbers)

    @cached_property
    def text(self) -> str:
        return " ".join(w[0] for w in self.words)

    @cached_property
    def dates(self) -> list[tuple[int, int, str]]:
        """(first word, end word, ISO date) of every date on the page."""
        starts, at = [], 0
        for word in self.words:
            starts.append(at)
            at += len(word[0]) + 1
        out = []
        for start, end, iso in find_dates(self.text):
            first = max(i for i, s in enumerate(starts) if s <= start)
            last = max(i for i, s in enumerate(starts) if s < end)
            out.append((first, last + 1, iso))
        return out

    @cached_property
    def tokens(self) -> tuple[list[str], list[int]]:
        """``normalize_text`` tokens of the words, and the word each comes from."""
        tokens, owners = [], []
        for index, word in enumerate(self.words):
            for token in normalize_text(word[0]).split():
                tokens.append(token)
                owners.append(index)
        return tokens, owners

    def box(self, start: int, end: int) -> Box:
        """The union box of words ``start:end``."""
        chosen = self.words[start:end]
        return (
            min(w[1] for w in chosen),
            min(w[2] for w in chosen),
            max(w[3] for w in chosen),
            max(w[4] for w in chosen),
        )


Finder = Callable[[str, PageWords], Box | None]


def located(document: Document, pages: Mapping[int, PageWords], profile: Profile) -> Document:
    """``document`` with the spot of each value found on its pages (``locations``),
    and a ``not_on_page`` code for each value that should be printed but is on none.

    ``pages`` maps page numbers to their words; a page absent or without words cannot
    tell, so nothing is flagged unless every page of the document has words.
    """
    order = [
        (n, pages.get(n) or PageWords(())) for n in range(document.page_from, document.page_to + 1)
    ]
    counts = [len(words) for _, words in order]
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
        spot = find(value, kind, order, profile)
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
        document, locations=locations, review_codes=codes, confidence=confidence, needs_review=True
    )


def searched_pages(document: Document) -> list[int]:
    """The pages a document's values are looked for on (``MAX_PAGES``)."""
    numbers = list(range(document.page_from, document.page_to + 1))
    if len(numbers) <= MAX_PAGES:
        return numbers
    return numbers[: MAX_PAGES // 2] + numbers[-MAX_PAGES // 2 :]


def _should_be_printed(kind: str, value: str) -> bool:
    """A zero VAT is what "без НДС" or a blank VAT line is read as: not printed."""
    if kind not in LITERAL_KINDS:
        return False
    if kind == "vat":
        amount = normalize_amount(value)
        return amount is not None and amount.lstrip("-") != "0.00"
    return True


def find(
    value: str, kind: str, pages: Iterable[tuple[int, PageWords]], profile: Profile
) -> tuple[int, Box] | None:
    """(page, box) of the first place ``value`` stands, pages in the order given."""
    finder: Finder
    if kind == "currency":
        markers = [p for c in profile.currencies if c.code == value.upper() for p in c.marker_re]
        finder = lambda _value, page: find_currency(markers, page)  # noqa: E731
    else:
        finder = _FINDERS.get(kind, find_name)
    for page_no, page in pages:
        if len(page):
            box = finder(value, page)
            if box is not None:
                return page_no, box
    return None


# ------------------------------------------------------------------------ amounts


def _amount(page: PageWords, start: int, end: int) -> str | None:
    """The amount words ``start:end`` read as, without its sign ("(1 200,00)" is a
    refund printed in brackets, the same figure)."""
    text = _EDGES.sub("", " ".join(w[0] for w in page.words[start:end]))
    value = normalize_amount(text)
    return value.lstrip("-") if value else None


def find_amount(value: str, page: PageWords) -> Box | None:
    """The first run of words that reads as the amount, and not as part of a larger
    one: "1 000" inside "1 000 000,00" is not 1000. Runs whose digits cannot spell
    the amount are never read."""
    target = normalize_amount(value)
    if target is None:
        return None
    target = target.lstrip("-")
    whole, _, cents = target.partition(".")
    spelt = whole + cents
    if whole not in page.digits:
        return None
    size = len(page)
    for start in range(size):
        got = page.numbers[start]
        if not got or not spelt.startswith(got):
            continue
        end = None
        for stop in range(start + 1, min(size, start + MAX_AMOUNT_WORDS) + 1):
            got = got if stop == start + 1 else got + page.numbers[stop - 1]
            if not spelt.startswith(got):
                if end is not None and _amount(page, start, stop) not in (None, target):
                    end = None  # the match goes on into a larger number
                break
            if len(got) >= len(whole) and _amount(page, start, stop) == target:
                end = stop  # the longest: "118 000 руб. 00 коп." over "118 000"
        if end is None:
            continue
        before = _amount(page, start - 1, end) if start and page.numbers[start - 1] else None
        if before is None or before == target:
            return page.box(start, end)
    return None


# -------------------------------------------------------------------------- dates


def find_date(value: str, page: PageWords) -> Box | None:
    """The first date on the page that is the same day, however it is written."""
    target = normalize_date(value)
    for start, end, iso in page.dates if target else ():
        if iso == target:
            return page.box(start, end)
    return None


# ----------------------------------------------------------------- numbers, INNs


def _marked(page: PageWords, start: int) -> bool:
    """A number mark before (or on) the first word: "№", "#", "No.", "Invoice"."""
    if page.words[start][0].lstrip()[:1] in ("№", "#"):
        return True
    if start == 0:
        return False
    previous = page.words[start - 1][0]
    tokens = normalize_text(previous).split()
    marked = previous.rstrip(":.").endswith(("№", "#"))
    return marked or bool(tokens and tokens[-1] in _NUMBER_MARKS)


def find_number(value: str, page: PageWords) -> Box | None:
    """Words whose digits are the value's digits ("INV-2024-0042", "2024 - 1000"),
    preferring those with its letters too and those after a number mark; a value
    without digits ("б/н") is looked for as words."""
    digits = normalize_number(value)
    if not digits:
        return find_name(value, page)
    if digits not in page.digits:
        return None
    folded = normalize_text(value)
    best: tuple[int, int, int] | None = None  # (score, start, end)
    size = len(page)
    for start in range(size):
        got = page.numbers[start]
        if not got or not digits.startswith(got):
            continue
        for stop in range(start, min(size, start + MAX_NUMBER_WORDS)):
            got = got if stop == start else got + page.numbers[stop]
            if not digits.startswith(got):
                break
            if got != digits:
                continue
            if stop > start and stop + 1 < size and page.words[stop + 1][0].isdigit():
                break  # a number printed in groups goes on: this is only part of it
            shown = normalize_text(" ".join(w[0] for w in page.words[start : stop + 1]))
            score = 2 * (folded in shown) + _marked(page, start)
            if best is None or score > best[0]:
                best = (score, start, stop + 1)
            break
    return page.box(best[1], best[2]) if best else None


def find_tax_id(value: str, page: PageWords) -> Box | None:
    """The digits as a run inside a word ("7707083893/770701001" holds an INN and a
    KPP), else as a number (grouped or with a dash: "12-3456789")."""
    digits = normalize_number(value)
    if not digits or digits not in page.digits:
        return None
    for index, number in enumerate(page.numbers):
        if digits in number:
            for run in _DIGITS.finditer(page.words[index][0]):
                if run.group() == digits:
                    return _part(page.words[index], run.start(), run.end())
    return find_number(value, page)


def _part(word: Word, start: int, end: int) -> Box:
    """The box of characters ``start:end`` of a word, by their share of its width."""
    text, x0, y0, x1, y1 = word
    width = (x1 - x0) / max(1, len(text))
    return (round(x0 + start * width, 4), y0, round(x0 + end * width, 4), y1)


# ---------------------------------------------------------------- names, currency


def find_name(value: str, page: PageWords) -> Box | None:
    """The words that spell the name (``locate_names``); their union box."""
    tokens, owners = page.tokens
    span = name_at(tokens, value)
    return page.box(owners[span[0]], owners[span[1] - 1] + 1) if span else None


def find_currency(markers: Sequence[re.Pattern[str]], page: PageWords) -> Box | None:
    """The first word (or pair, for "российский рубль") showing one of the currency's
    markers ("руб.", "₽", "$")."""
    if not any(p.search(fold(page.text)) for p in markers):
        return None
    for size in (1, 2):  # a word alone first: "рублей", not "тысяч) рублей"
        for start in range(len(page) - size + 1):
            text = fold(" ".join(w[0] for w in page.words[start : start + size]))
            if any(p.search(text) for p in markers):
                return page.box(start, start + size)
    return None


_FINDERS: dict[str, Finder] = {
    "amount": find_amount,
    "vat": find_amount,
    "date": find_date,
    "number": find_number,
    "tax_id": find_tax_id,
    "party": find_name,
}
