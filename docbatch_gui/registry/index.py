"""Phase 1 of registry matching: an inverted index over normalised document values.

Scoring every registry row against every document is quadratic (20,000 × 20,000 is
400 million rapidfuzz calls). The index returns, per row, only the documents that can
pass at least one sub-rule; a document that passes none scores 0 and never needs to be
looked at. Every lookup here is a superset of "passes": exact keys for exact, number,
date and amount comparators, and a q-gram count filter for fuzzy text whose bound is
derived from the fuzzy threshold, so the index loses no pair that would score.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from datetime import date
from decimal import ROUND_FLOOR, Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, Literal

from docbatch_gui.domain.normalize import (
    normalize_amount,
    normalize_date,
    normalize_number,
    normalize_text,
)

__all__ = [
    "COMPARATOR_KIND",
    "DocumentIndex",
    "Kind",
    "document_value",
    "grams",
    "min_shared_grams",
    "normalize_key",
    "tolerance_cents",
]

Kind = Literal["text", "digits", "date", "amount"]
# Which normalised form a comparator compares; sub-rules sharing it share an index.
COMPARATOR_KIND: dict[str, Kind] = {
    "exact": "text",
    "fuzzy": "text",
    "number": "digits",
    "date": "date",
    "amount": "amount",
}
GRAM = 3
# A gram found in more than this share of documents ("ооо", "201") selects nothing and
# costs a long posting list; small collections keep every gram so recall stays exact.
STOP_FRACTION = 0.05
STOP_MIN_DOCS = 50

Key = tuple[str, Kind]  # (document_field path, kind)


def document_value(doc: Any, path: str) -> str | list[str] | None:
    """The raw value a sub-rule reads from a document, or None when there is none.

    Content wins over the file name: "from_filename.X" is
    None whenever the content has a value for X, so a stale or generic file name never
    outvotes what the document itself says. "from_content.X" never falls back.
    """
    if path == "handwritten_numbers":
        values = [str(v) for v in (getattr(doc, "handwritten_numbers", None) or []) if v]
        return values or None
    source, _, name = path.partition(".")
    if source == "from_content":
        value = doc.fields.get(name)
    elif source == "from_filename":
        if doc.fields.get(name) not in (None, ""):
            return None
        value = doc.filename_fields.get(name)
    else:
        raise ValueError(f"unknown document field path: {path!r}")
    return None if value in (None, "") else str(value)


def tolerance_cents(tolerance: float) -> int:
    """Amount tolerance in whole cents, floored so 0.01 is one cent, not 0.99 of one."""
    cents = Decimal(str(tolerance)) * 100
    return max(0, int(cents.to_integral_value(rounding=ROUND_FLOOR)))


def normalize_key(kind: Kind, raw: object) -> Any:
    """Normalise a value for comparison; both sides go through this, so formats agree.

    Dates become day ordinals and amounts integer cents so tolerances are integer
    arithmetic with no float edge cases.
    """
    if raw is None:
        return None
    if kind == "text":
        return normalize_text(raw) or None
    if kind == "digits":
        return normalize_number(raw) or None
    if kind == "date":
        iso = normalize_date(raw)
        return date.fromisoformat(iso).toordinal() if iso else None
    amount = normalize_amount(raw)
    if amount is None:
        return None
    try:
        return int(Decimal(amount) * 100)
    except InvalidOperation:
        return None


def grams(text: str) -> list[str]:
    """Character 3-grams of each space-padded token, with repetitions.

    Per token (not over the whole string) so that token order does not matter: the
    fuzzy comparator also accepts token_sort_ratio.
    """
    out: list[str] = []
    for token in text.split():
        padded = f" {token} "
        out.extend(padded[i : i + GRAM] for i in range(len(padded) - GRAM + 1))
    return out


def min_shared_grams(text: str, threshold: float) -> int:
    """Lower bound on grams a string must share with ``text`` to reach ``threshold``.

    fuzz.ratio is 200·m/(la+lb) with m the longest common subsequence. Turning a into
    b deletes la−m characters (each kills at most 3 grams of a) and inserts lb−m
    (each kills at most 2), so at least la − 3(la−m) − 2(lb−m) grams survive; the
    bound is the minimum over every (lb, m) that still reaches the threshold. Per-token
    padding drops one gram per token boundary, hence the subtraction.
    """
    return max(1, _whole_string_bound(len(text), threshold) - (len(text.split()) - 1))


@lru_cache(maxsize=4096)
def _whole_string_bound(la: int, threshold: float) -> int:
    if la == 0 or threshold <= 0:
        return 0
    worst = la
    for lb in range(1, 2 * la + 2):
        for m in range(min(la, lb), -1, -1):
            # a little slack on the float comparison errs towards more candidates
            if 200 * m < threshold * (la + lb) - 1e-6:
                break
            worst = min(worst, la - 3 * (la - m) - 2 * (lb - m))
    return worst


class DocumentIndex:
    """Normalised values of every document plus the postings that phase 1 looks up.

    Documents are addressed by their position in ``documents``; the caller sorts them
    by id so that position order is id order and ties break deterministically.
    """

    def __init__(
        self,
        documents: Sequence[Any],
        keys: Iterable[Key],
        *,
        gram_keys: Iterable[Key] = (),
        amount_widths: Iterable[tuple[Key, int]] = (),
    ) -> None:
        self.size = len(documents)
        self.values: dict[Key, list[tuple[Any, ...]]] = {}
        self.display: dict[Key, list[tuple[str, ...]]] = {}
        self._exact: dict[Key, dict[Any, list[int]]] = {}
        for key in set(keys):
            self._build_values(documents, key)
        self._grams: dict[Key, dict[str, list[int]]] = {}
        self._stop: dict[Key, set[str]] = {}
        for key in set(gram_keys):
            self._build_grams(key)
        self._buckets: dict[tuple[Key, int], dict[int, list[int]]] = {}
        for key, width in set(amount_widths):
            buckets: dict[int, list[int]] = defaultdict(list)
            for i, values in enumerate(self.values[key]):
                for value in set(values):
                    buckets[value // width].append(i)
            self._buckets[(key, width)] = dict(buckets)

    def _build_values(self, documents: Sequence[Any], key: Key) -> None:
        path, kind = key
        values: list[tuple[Any, ...]] = []
        display: list[tuple[str, ...]] = []
        postings: dict[Any, list[int]] = defaultdict(list)
        for i, doc in enumerate(documents):
            raw = document_value(doc, path)
            raws = raw if isinstance(raw, list) else ([raw] if raw is not None else [])
            pairs = [(normalize_key(kind, r), r) for r in raws]
            pairs = [(v, r) for v, r in pairs if v is not None]
            values.append(tuple(v for v, _ in pairs))
            display.append(tuple(r for _, r in pairs))
            for value in {v for v, _ in pairs}:
                postings[value].append(i)
        self.values[key] = values
        self.display[key] = display
        self._exact[key] = dict(postings)

    def _build_grams(self, key: Key) -> None:
        postings: dict[str, list[int]] = defaultdict(list)
        for i, values in enumerate(self.values[key]):
            for value in values:
                for gram in grams(value):
                    postings[gram].append(i)
        limit = max(STOP_MIN_DOCS, STOP_FRACTION * self.size)
        stop = {g for g, docs in postings.items() if len(set(docs)) > limit}
        self._grams[key] = {g: docs for g, docs in postings.items() if g not in stop}
        self._stop[key] = stop

    def has_value(self, key: Key, doc: int) -> bool:
        return bool(self.values[key][doc])

    def exact(self, key: Key, value: Any) -> list[int]:
        return self._exact[key].get(value, [])

    def days(self, key: Key, day: int, tolerance_days: int) -> list[int]:
        """Documents dated within ±tolerance_days: one lookup per day of the window."""
        postings = self._exact[key]
        out: list[int] = []
        for d in range(day - tolerance_days, day + tolerance_days + 1):
            out.extend(postings.get(d, ()))
        return out

    def amounts(self, key: Key, cents: int, width: int) -> list[int]:
        """Documents in the neighbouring buckets: bucket width ≥ tolerance, so a value
        within tolerance is at most one bucket away; phase 2 checks the exact distance."""
        buckets = self._buckets[(key, width)]
        bucket = cents // width
        out: list[int] = []
        for b in (bucket - 1, bucket, bucket + 1):
            out.extend(buckets.get(b, ()))
        return out

    def fuzzy(self, key: Key, text: str, threshold: float) -> list[int]:
        """Documents sharing enough grams with ``text`` to possibly reach ``threshold``.

        Occurrences are counted with repetitions on both sides, which over-counts the
        multiset intersection and so keeps the bound safe. Stop-listed grams cannot be
        counted, so the required count drops by as many of them as the query has.
        """
        postings = self._grams[key]
        stop = self._stop[key]
        query = grams(text)
        kept = [g for g in query if g not in stop]
        need = max(1, min_shared_grams(text, threshold) - (len(query) - len(kept)))
        counts: Counter[int] = Counter()
        for gram in kept:
            docs = postings.get(gram)
            if docs:
                counts.update(docs)
        if need == 1:
            return list(counts)
        return [doc for doc, n in counts.items() if n >= need]
