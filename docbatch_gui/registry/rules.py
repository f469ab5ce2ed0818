"""The matcher's rules and results, and how one registry value compares with one
document value.

These dataclasses are the matcher's own inputs and outputs; the pydantic rule
configuration is translated into them by the caller so that matching does not depend
on it. ``compare`` is the one definition of what a comparator accepts, used by
phase 2's scoring.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from rapidfuzz import fuzz

from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.registry.index import COMPARATOR_KIND, Key, tolerance_cents

__all__ = ["Comparator", "Match", "RegistryRow", "Rule", "SubRule", "amount_warnings", "compare"]

Comparator = Literal["exact", "fuzzy", "number", "date", "amount"]


@dataclass(frozen=True)
class SubRule:
    """One comparison: registry column ``field`` against a document field path."""

    field: str
    document_field: str  # "from_content.X" | "from_filename.X" | "handwritten_numbers"
    comparator: Comparator
    weight: float = 1.0
    required: bool = False
    threshold: float = 85.0  # fuzzy and number similarity, 0..100
    tolerance_days: int = 0  # date
    tolerance: float = 0.01  # amount, absolute

    @property
    def key(self) -> Key:
        return (self.document_field, COMPARATOR_KIND[self.comparator])


@dataclass(frozen=True)
class Rule:
    name: str
    subrules: tuple[SubRule, ...]


@dataclass(frozen=True)
class RegistryRow:
    """A registry row: its sheet row number and its normalised values by column."""

    row: int
    normalized: Mapping[str, str | None]


@dataclass(frozen=True)
class Match:
    row: int
    document_id: Any | None
    score: float
    explanation: list[dict[str, Any]] = field(default_factory=list)
    runner_up_id: Any | None = None
    runner_up_score: float | None = None
    warnings: list[Message] = field(default_factory=list)
    rule: str | None = None


def compare(
    sub: SubRule, registry: Any, document: Any, limit: int | None = None
) -> tuple[float, bool, float]:
    """(sub-score, passed, similarity) for two normalised values.

    A failed fuzzy or number comparison scores 0, not its raw similarity: unrelated
    strings are 40-50 % similar, and that partial credit would lift wrong documents
    towards the threshold. It also lets phase 1 skip documents that pass nothing.
    """
    kind = sub.comparator
    if kind == "exact":
        ok = registry == document
        return (1.0 if ok else 0.0), ok, (1.0 if ok else 0.0)
    if kind in ("fuzzy", "number"):
        if registry == document:
            return 1.0, True, 1.0
        sim = fuzz.ratio(registry, document)
        if kind == "fuzzy":
            sim = max(sim, fuzz.token_sort_ratio(registry, document))
        ok = sim >= sub.threshold
        return (sim / 100 if ok else 0.0), ok, sim / 100
    if limit is None:
        limit = sub.tolerance_days if kind == "date" else tolerance_cents(sub.tolerance)
    ok = abs(registry - document) <= limit
    return (1.0 if ok else 0.0), ok, (1.0 if ok else 0.0)


def amount_warnings(explanation: list[dict[str, Any]]) -> list[Message]:
    """ "amount differs" when the document matched on other fields but not on amount."""
    if not any(e["passed"] and e["comparator"] != "amount" for e in explanation):
        return []
    return [
        coded("match_amount_differs", registry=e["registry_value"], document=e["document_value"])
        for e in explanation
        if e["comparator"] == "amount" and e["missing"] is None and not e["passed"]
    ]
