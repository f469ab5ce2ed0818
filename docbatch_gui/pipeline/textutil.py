"""Small text helpers shared by the offline extractor modules.

Label regexes run on a *folded* copy of each line that has exactly the same length
as the original, so a match position can be used to cut the value out of the
original text (which keeps case, "ё" and the document's own spelling).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from docbatch_gui.domain.normalize import find_dates

_SPACES = "\u00a0\u2007\u2009\u202f\u2002\u2003\u2004\u2005\u2006\u2008\u200a\t"

# One amount as printed: RU/EN thousands grouping with an optional 1-2 digit fraction.
AMOUNT_TOKEN_RE = re.compile(
    # a minus sign right before the digits, after a space or a label ("Итого: -100,50",
    # a credit note), is kept; one after a digit or letter is a hyphen ("10-20", "А-100")
    r"(?:(?<![\w.,])[-\u2212](?=\d)|(?<![\d.,]))(?:"
    r"\d{1,3}(?: \d{3})+(?:[.,]\d{1,2})?"
    r"|\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?"
    r"|\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?"
    r"|\d+(?:[.,]\d{1,2})?"
    r")(?![\d]|[.,]\d)"
)
_PERCENT_AFTER_RE = re.compile(r"\s*%")
_WRAP_HEAD_RE = re.compile(r"^\d{3}(?:[.,]\d{1,2})?(?![\d])")
_WRAP_TAIL_RE = re.compile(r"(?<![\d.,])\d{1,3}\s*$")


def _fold_char(ch: str) -> str:
    if ch in _SPACES:
        return " "
    low = ch.lower()
    if len(low) != 1:
        low = ch
    if low == "ё":
        return "е"
    if not low.isascii():
        compat = unicodedata.normalize("NFKC", low)
        if len(compat) == 1 and compat != "№":
            low = compat.lower() if len(compat.lower()) == 1 else compat
    return low


class _FoldTable(dict[int, str]):
    """``str.translate`` table filled on first sight of each character."""

    def __missing__(self, code: int) -> str:
        self[code] = folded = _fold_char(chr(code))
        return folded


_FOLD_TABLE = _FoldTable()


@lru_cache(maxsize=16384)
def fold(text: str) -> str:
    """Lower-case, ё→е, exotic spaces → " ", ligatures undone, all length-preserving.

    It runs on every line several times per document, so it is a cached table
    lookup in C rather than a Python loop over characters.
    """
    return text.translate(_FOLD_TABLE)


def split_lines(text: str) -> list[str]:
    """Non-empty lines with inner whitespace collapsed (PDF text layers pad freely)."""
    lines = []
    for raw in text.splitlines():
        line = " ".join(fold_spaces(raw).split())
        if line:
            lines.append(line)
    return lines


def fold_spaces(text: str) -> str:
    return "".join(" " if ch in _SPACES else ch for ch in text)


def blank_dates(text: str) -> str:
    """Replace date spans with spaces so "12.03.2024" is not read as an amount."""
    chars = list(text)
    for start, end, _iso in find_dates(text):
        chars[start:end] = " " * (end - start)
    return "".join(chars)


@dataclass(frozen=True)
class AmountToken:
    text: str
    start: int
    strong: bool  # has a fraction or thousands grouping, so it is unlikely a count


def amount_tokens(segment: str) -> list[AmountToken]:
    """Amount-looking tokens of a text segment, skipping percentages and dates."""
    clean = blank_dates(segment)
    tokens = []
    for match in AMOUNT_TOKEN_RE.finditer(clean):
        if _PERCENT_AFTER_RE.match(clean, match.end()):
            continue
        text = match.group(0)
        strong = any(ch in text for ch in " ,.")
        tokens.append(AmountToken(text, match.start(), strong))
    return tokens


def join_wrapped_number(line: str, next_line: str | None) -> str:
    """Undo a line break inside a grouped number ("… НДС 20% 83" + "333,33 рубля").

    Narrow PDF columns wrap "83 333,33" after the first group; without this the
    extractor would read 83.00 and be confidently wrong.
    """
    if next_line is None or not _WRAP_TAIL_RE.search(line):
        return line
    head = _WRAP_HEAD_RE.match(next_line)
    if head is None:
        return line
    return f"{line.rstrip()} {head.group(0)}"


def label_at_start(pattern: re.Pattern[str], folded_line: str) -> re.Match[str] | None:
    """Match a label only at the start of a line (after bullets or punctuation).

    A label in the middle of prose ("…именуемое в дальнейшем «Поставщик»…") is a
    mention, not a field; only line-leading labels introduce values.
    """
    start = 0
    while (
        start < len(folded_line)
        and not folded_line[start].isalnum()
        and (folded_line[start] not in "№#$€₽")
    ):
        start += 1
    return pattern.match(folded_line, start)


def page_ranges(pages: list[int]) -> str:
    """Format [1, 2, 3, 5] as "pages 1-3, 5" for a review reason an operator reads."""
    if not pages:
        return ""
    runs: list[tuple[int, int]] = []
    for page in sorted(pages):
        if runs and page == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], page)
        else:
            runs.append((page, page))
    text = ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in runs)
    return f"page {text}" if len(pages) == 1 else f"pages {text}"
