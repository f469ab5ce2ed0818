"""Which column's header phrase the words of a line are part of.

A profile's line fields have some sixty header phrases, each a pattern
(``config.profile.label_regex``). Every pattern is made of the phrase's words and
symbols, lower-cased with ё folded, put literally, with separators between them; so a
line can hold a match of a phrase only when it holds each of those pieces as plain
text. Testing the pieces first (a substring search each) rules out nearly every
phrase of a line before any pattern runs: a goods row that names two columns ("qty
3, price 7.50") used to run every pattern over the line, the largest part of the
batch engine's own CPU (``docs/batch-speed.md``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from docbatch_gui.config.profile import LineFieldProfile

_PIECES_RE = re.compile(r"\w+|[^\w\s]")
_WORD_CHAR_RE = re.compile(r"\w")


@dataclass(frozen=True)
class HeaderPhrase:
    """One header phrase of a line field: its pattern, the literal pieces every match
    of it holds, and its length (a longer phrase wins a word two phrases claim)."""

    key: str
    length: int
    pattern: re.Pattern[str]
    pieces: tuple[str, ...]


#: words whose pieces are remembered, at most (then forgotten at once)
WORDS_KEPT = 50_000


class HeaderPhrases:
    """Every header phrase of a profile's line fields, in the fields' order, each of
    their pieces once (phrases share words: "сумма", "ндс", "без") with the phrases
    that hold it, and which pieces each word seen so far holds."""

    def __init__(self, phrases: tuple[HeaderPhrase, ...]) -> None:
        self.phrases = phrases
        holding: dict[str, list[int]] = {}
        for index, phrase in enumerate(phrases):
            for piece in phrase.pieces:
                holding.setdefault(piece, []).append(index)
        self.pieces = tuple(holding)
        self.holding = {piece: tuple(indexes) for piece, indexes in holding.items()}
        self._in_word: dict[str, frozenset[str]] = {}

    def _pieces_of(self, word: str) -> frozenset[str]:
        found = self._in_word.get(word)
        if found is None:
            found = frozenset(piece for piece in self.pieces if piece in word)
            if len(self._in_word) >= WORDS_KEPT:
                self._in_word.clear()
            self._in_word[word] = found
        return found

    def most_claimed(self, words: Sequence[str]) -> int:
        """At most how many of a line's ``words`` (folded) its header phrases claim:
        a match begins and ends with a piece and no piece holds a space, so a word a
        match takes holds a piece of that phrase or is all punctuation between two.
        A line whose count is under a header's share is no header, and its claims
        need not be worked out (a row of goods names two or three columns)."""
        found = self.candidates(words)
        pieces = frozenset().union(*(phrase.pieces for phrase in found))
        return sum(
            1 for word in words if not _WORD_CHAR_RE.search(word) or self._pieces_of(word) & pieces
        )

    def candidates(self, words: Iterable[str]) -> list[HeaderPhrase]:
        """The phrases that may match the line of ``words`` (folded, ``fold``): those
        each of whose pieces it holds; the others cannot. No piece holds a space, so
        the line holds a piece when one of its words does; what a word holds is
        worked out once per distinct word (a page's words repeat page after page)."""
        present: set[str] = set()
        for word in words:
            found = self._pieces_of(word)
            if found:
                present |= found
        if not present:
            return []
        indexes = sorted({i for piece in present for i in self.holding[piece]})
        phrases = (self.phrases[i] for i in indexes)
        return [phrase for phrase in phrases if present.issuperset(phrase.pieces)]


def fold(text: str) -> str:
    """``text`` as the header patterns read it."""
    return text.lower().replace("ё", "е")


#: the phrases of the last ``fields`` asked about (a profile's fields stay the same
#: object for its life; another profile replaces them)
_PHRASES: list[tuple[Sequence[LineFieldProfile], HeaderPhrases]] = []


def header_phrases(fields: Sequence[LineFieldProfile]) -> HeaderPhrases:
    """The header phrases of ``fields``, made once per ``fields``."""
    if not _PHRASES or _PHRASES[0][0] is not fields:
        phrases = tuple(
            HeaderPhrase(spec.key, len(phrase), pattern, tuple(_PIECES_RE.findall(fold(phrase))))
            for spec in fields
            for phrase, pattern in zip(spec.headers, spec.header_re, strict=True)
        )
        _PHRASES[:] = [(fields, HeaderPhrases(phrases))]
    return _PHRASES[0][1]


def claims_of(texts: Sequence[str], fields: Sequence[LineFieldProfile]) -> list[str | None]:
    """Which field's header phrase each of a line's words ``texts`` is part of: the
    longest phrases claim their words first."""
    folded = [fold(t) for t in texts]
    line = " ".join(folded)
    found = header_phrases(fields).candidates(folded)
    claims: list[str | None] = [None] * len(texts)
    if not found:
        return claims
    starts, ends, position = [], [], 0
    for text in folded:
        starts.append(position)
        ends.append(position + len(text))
        position += len(text) + 1
    matches = []
    for phrase in found:
        for match in phrase.pattern.finditer(line):
            # the words that overlap the match: ends and starts both increase
            first = bisect.bisect_right(ends, match.start())
            last = bisect.bisect_left(starts, match.end())
            matches.append((phrase.length, range(first, last), phrase.key))
    for _length, taken, key in sorted(matches, key=lambda m: -m[0]):
        if all(claims[i] is None for i in taken):
            for i in taken:
                claims[i] = key
    return claims


def best_field_of(text: str, fields: Sequence[LineFieldProfile]) -> tuple[str, int] | None:
    """The field whose header phrase matches a cell's text longest, and its length."""
    words = fold(text).split()
    folded = " ".join(words)
    best: tuple[str, int] | None = None
    for phrase in header_phrases(fields).candidates(words):
        longer = best is None or phrase.length > best[1]
        if longer and phrase.pattern.search(folded):
            best = (phrase.key, phrase.length)
    return best
