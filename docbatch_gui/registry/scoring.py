"""Phase 2 of the registry search: scoring a candidate document against a row.

Split from ``matcher`` (which plans the lookups, ranks, assigns and builds results):
this is the arithmetic of a score, its upper bound from index hits alone, and the
explanation a result shows. ``RegistryMatcher`` inherits it; the attributes below are
set by its constructor.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from docbatch_gui.registry.index import DocumentIndex, Key
from docbatch_gui.registry.rules import RegistryRow, SubRule, compare

__all__ = ["EXPLAIN_TOP", "Scored", "Scoring"]

# Candidates scored in full even when their upper bound is low, so a row below the
# threshold still explains what its best candidate was.
EXPLAIN_TOP = 2


@dataclass
class Scored:
    score: float
    doc: int
    rule: int
    explanation: list[dict[str, Any]]


class Scoring:
    """Scores (row, document) pairs by the rules; mixed into ``RegistryMatcher``."""

    probes: list[SubRule]
    index: DocumentIndex
    _probe_of: list[list[int]]  # rule index -> probe indices
    _keys: list[Key]
    _limits: list[int]
    _present: list[int]  # per document: bit mask of the probes it has values for
    _bounds: dict[tuple[int, int], float]

    def _row_values(self, row: RegistryRow) -> list[Any]:
        """The row's normalized value per probe (``RegistryMatcher`` provides it)."""
        raise NotImplementedError

    def _bound(self, values: list[Any], doc: int, mask: int) -> float:
        """Upper bound of a candidate's score from its index hits alone.

        Only which probes were hit and which values exist matter, so the bound is
        memoised on those two masks: phase 2 then costs a dict lookup per candidate
        and rapidfuzz runs only for candidates that can still reach the threshold.
        """
        row_mask = sum(1 << p for p, v in enumerate(values) if v is not None)
        return self._bound_masks(mask, self._present[doc] & row_mask)

    def _bound_masks(self, hit: int, present: int) -> float:
        cached = self._bounds.get((hit, present))
        if cached is not None:
            return cached
        best = 0.0
        for probes in self._probe_of:
            num = den = 0.0
            for p in probes:
                weight = self.probes[p].weight
                if hit >> p & 1:
                    num += weight
                    den += weight
                elif self.probes[p].required:
                    num = 0.0
                    break
                elif present >> p & 1:
                    den += weight
            if den and num / den > best:
                best = num / den
        self._bounds[(hit, present)] = best
        return best

    def score(self, row: RegistryRow, doc: int) -> Scored:
        """Score one document by every rule; the best rule wins (first on equality)."""
        return self._score(self._row_values(row), row, doc)

    def _score(self, values: list[Any], row: RegistryRow, doc: int) -> Scored:
        best: Scored | None = None
        for r, probes in enumerate(self._probe_of):
            num = den = 0.0
            failed_required = False
            explanation: list[dict[str, Any]] = []
            for p in probes:
                sub = self.probes[p]
                reg = values[p]
                doc_values = self.index.values[self._keys[p]][doc]
                shown = self.index.display[self._keys[p]][doc]
                entry: dict[str, Any] = {
                    "field": sub.field,
                    "document_field": sub.document_field,
                    "registry_value": row.normalized.get(sub.field),
                    "document_value": shown[0] if shown else None,
                    "comparator": sub.comparator,
                    "score": 0.0,
                    "similarity": 0.0,
                    "weight": sub.weight,
                    "required": sub.required,
                    "passed": False,
                    "missing": None,
                }
                if reg is None or not doc_values:
                    sides = [n for n, v in (("registry", reg), ("document", doc_values)) if not v]
                    entry["missing"] = " and ".join(sides)
                else:
                    results = [compare(sub, reg, v, self._limits[p]) for v in doc_values]
                    pick = max(range(len(results)), key=lambda i: (results[i][1], results[i][0]))
                    sub_score, passed, similarity = results[pick]
                    entry.update(
                        document_value=shown[pick],
                        score=round(sub_score, 4),
                        similarity=round(similarity, 4),
                        passed=passed,
                    )
                    num += sub.weight * sub_score
                    den += sub.weight
                failed_required = failed_required or (sub.required and not entry["passed"])
                explanation.append(entry)
            total = 0.0 if failed_required or not den else num / den
            if best is None or total > best.score:
                best = Scored(round(total, 6), doc, r, explanation)
        assert best is not None
        return best

    def _fast_score(self, values: list[Any], doc: int) -> tuple[float, int]:
        """``_score`` without the explanation: (score, rule), the same arithmetic.

        Most candidates are scored only to be ranked; the explanation (a dict per
        sub-rule) is built later for the few a result shows.
        """
        best, best_rule = -1.0, 0
        for r, probes in enumerate(self._probe_of):
            num = den = 0.0
            failed = False
            for p in probes:
                sub = self.probes[p]
                reg = values[p]
                doc_values = self.index.values[self._keys[p]][doc]
                if reg is None or not doc_values:
                    failed = failed or sub.required
                    continue
                results = [compare(sub, reg, v, self._limits[p]) for v in doc_values]
                sub_score, passed, _ = max(results, key=lambda x: (x[1], x[0]))
                num += sub.weight * sub_score
                den += sub.weight
                failed = failed or (sub.required and not passed)
            total = 0.0 if failed or not den else num / den
            if total > best:  # as in _score: compared with the rounded best so far
                best, best_rule = round(total, 6), r
        return best, best_rule
