"""Names found among a page's words: a party spans several words, is written with or
without its legal form spelt out, with initials for first names, and OCR misreads a
letter or two of it. Part of locating values (``locate.py``)."""

from __future__ import annotations

import functools
import re
from difflib import SequenceMatcher

from docbatch_gui.domain.normalize import normalize_text

#: a name found with this similarity or more, letter for letter, is the name
FUZZY_NAME = 0.85
#: how alike a page's word must be to the name's longest word to try a window there
ANCHOR_ALIKE = 0.7
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


def name_at(tokens: list[str], value: str) -> tuple[int, int] | None:
    """(first, end) token positions of the name ``value`` among a page's ``tokens``
    (``normalize_text`` of its words): exactly (case, quotes and punctuation aside,
    its legal form abbreviated or written out, initials for first names), then
    without its legal form, then with a letter or two misread."""
    candidates = _candidates(value)
    for search in (_sequence_at, _fuzzy_at):
        for candidate in candidates:
            at = search(tokens, list(candidate))
            if at is not None:
                return at, at + len(candidate)
    return None


@functools.lru_cache(maxsize=256)
def _candidates(value: str) -> tuple[tuple[str, ...], ...]:
    """The ways the name may be printed, worked out once per name (a document's pages
    are searched one after the other)."""
    wanted = normalize_text(value).split()
    if not wanted:
        return ()
    core = _core(wanted)
    return tuple(tuple(c) for c in [*_variants(wanted), *([core] if core else [])])


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


def _same_token(page: str, wanted: str) -> bool:
    """Equal, or an initial for a name ("И." for "Иван")."""
    return page == wanted or (len(page) == 1 and len(wanted) > 1 and wanted.startswith(page))


def _sequence_at(tokens: list[str], wanted: list[str]) -> int | None:
    """Where the tokens stand in a row; the first one as it is (an initial alone, "д."
    for "дом", would stand for anything), the others perhaps as initials."""
    first, size = wanted[0], len(wanted)
    last = len(tokens) - size
    for at in [i for i, t in enumerate(tokens) if t == first]:
        if at <= last and all(_same_token(tokens[at + k], wanted[k]) for k in range(1, size)):
            return at
    return None


def _fuzzy_at(tokens: list[str], wanted: list[str]) -> int | None:
    """The window of as many tokens most like the name, if like enough.

    Only windows around a word like the name's longest word are compared, cheap
    bounds first: a whole page of windows, for every name on every page, would hold
    up the engine."""
    target = " ".join(wanted)
    if len(target) < 5:  # too short to tell a misread letter from another word
        return None
    anchor = max(range(len(wanted)), key=lambda k: len(wanted[k]))
    longest = wanted[anchor]
    size = len(wanted)
    word = SequenceMatcher(None, "", longest)
    window = SequenceMatcher(None, "", target)
    alike: dict[str, bool] = {}
    best, best_at = FUZZY_NAME, None
    near = len(longest)
    for index in [i for i, t in enumerate(tokens) if near - 2 <= len(t) <= near + 2]:
        token, at = tokens[index], index - anchor
        if at < 0 or at + size > len(tokens):
            continue
        if token not in alike:
            word.set_seq1(token)
            alike[token] = word.quick_ratio() >= ANCHOR_ALIKE and word.ratio() >= ANCHOR_ALIKE
        if not alike[token]:
            continue
        window.set_seq1(" ".join(tokens[at : at + size]))
        if window.real_quick_ratio() < best or window.quick_ratio() < best:
            continue
        ratio = window.ratio()
        if ratio >= best:
            best, best_at = ratio + 1e-9, at
    return best_at
