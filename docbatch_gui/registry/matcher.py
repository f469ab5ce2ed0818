"""Match registry rows to documents with weighted rules.

Two phases: ``index.DocumentIndex`` finds, per row, the documents that can pass at
least one sub-rule; each candidate is then scored by every rule and the best rule
counts. A document is given to at most one row, greedily by score, and a row whose
best score is below the threshold gets no document: null over wrong. Everything is
pure and deterministic (ties break by document id), so it runs the same in the GUI,
the CLI and a Celery worker.

This module plans the index lookups, ranks the candidates, assigns documents and
builds the results; the rules and comparators live in ``rules``, the scoring
arithmetic in ``scoring``. The names callers use are still importable from here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rapidfuzz import fuzz, process

from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.domain.progress import ProgressSink, report
from docbatch_gui.registry.index import (
    COMPARATOR_KIND,
    DocumentIndex,
    document_value,
    normalize_key,
    tolerance_cents,
)
from docbatch_gui.registry.rules import (
    Comparator,
    Match,
    RegistryRow,
    Rule,
    SubRule,
    amount_warnings,
)
from docbatch_gui.registry.scoring import EXPLAIN_TOP, Scored, Scoring

__all__ = [
    "Comparator",
    "Match",
    "RegistryMatcher",
    "RegistryRow",
    "Rule",
    "SubRule",
    "document_value",
]

PROGRESS_EVERY = 100
#: remembered normalised keys per matcher: dates, amounts and names repeat down a
#: registry; cleared when full, so memory stays bounded
_KEY_MEMO = 50_000


def _id_order(doc_id: Any) -> tuple[int, Any]:
    return (0, doc_id) if isinstance(doc_id, int) else (1, str(doc_id))


def _doc_id(doc: Any) -> Any:
    doc_id = getattr(doc, "id", None)
    return doc_id if doc_id is not None else f"{doc.job_id}:{doc.doc_index}"


class RegistryMatcher(Scoring):
    """Matches registry rows against a fixed set of documents.

    The index is built once in the constructor, so ``candidate_pairs`` (shown to the
    operator before a run) and ``match`` share it.
    """

    def __init__(
        self,
        rules: Sequence[Rule],
        documents: Sequence[Any],
        *,
        threshold: float = 0.7,
        tie_margin: float = 0.02,
        names: Mapping[Any, Any] | None = None,
    ) -> None:
        """``names``: how a warning names a document, by its id (its file and page,
        so an operator can find it); an id without one is named by the id."""
        self.rules = tuple(rules)
        self.names = names or {}
        self.threshold = threshold
        self.tie_margin = tie_margin
        self.documents = sorted(documents, key=lambda d: _id_order(_doc_id(d)))
        self.ids = [_doc_id(d) for d in self.documents]
        self.probes: list[SubRule] = []
        self._probe_of: list[list[int]] = []  # rule index -> probe indices
        for rule in self.rules:
            indices = []
            for sub in rule.subrules:
                if sub.comparator not in COMPARATOR_KIND:
                    raise ValueError(f"unknown comparator: {sub.comparator!r}")
                if sub not in self.probes:
                    self.probes.append(sub)
                indices.append(self.probes.index(sub))
            self._probe_of.append(indices)
        for doc in self.documents[:1]:
            for sub in self.probes:
                document_value(doc, sub.document_field)  # fail early on a bad path
        self.index = DocumentIndex(
            self.documents,
            [s.key for s in self.probes],
            gram_keys=[s.key for s in self.probes if s.comparator in ("fuzzy", "number")],
            amount_widths=[
                (s.key, max(1, tolerance_cents(s.tolerance)))
                for s in self.probes
                if s.comparator == "amount"
            ],
        )

        self._keys = [s.key for s in self.probes]
        self._limits = [
            s.tolerance_days if s.comparator == "date" else tolerance_cents(s.tolerance)
            for s in self.probes
        ]
        self._present = [
            sum(1 << p for p, key in enumerate(self._keys) if self.index.values[key][d])
            for d in range(len(self.documents))
        ]
        self._bounds: dict[tuple[int, int], float] = {}
        self._kinds = [COMPARATOR_KIND[s.comparator] for s in self.probes]
        self._memo: dict[tuple[str, Any], Any] = {}
        self._drivers, self._refiners, self._assumed = self._plan_lookups()
        # Required number sub-rules: a candidate failing one in every rule scores 0,
        # which one rapidfuzz call per row tells for all its candidates at once.
        gates = [p for p, s in enumerate(self.probes) if s.required and s.comparator == "number"]
        self._rule_gates = [[p for p in probes if p in gates] for probes in self._probe_of]
        self._gates = gates if all(self._rule_gates) else []
        #: candidate pairs of the last ``match`` run (the phase-2 workload it had)
        self.last_candidate_pairs = 0

    def _plan_lookups(self) -> tuple[list[int], list[int], int]:
        """Probes that give candidates, probes that only mark them, and the rest's mask.

        A rule with a required sub-rule scores 0 for every document that fails it, so
        looking that one probe up finds all of the rule's candidates; its other probes
        (a date matching 30 documents a day, an amount bucket) would only add pairs
        that cannot score. Those cheap exact-key probes still mark which candidates
        pass them ("refiners"); fuzzy probes that are neither count as "may pass".
        """
        drivers: list[int] = []
        for probes in self._probe_of:
            required = [p for p in probes if self.probes[p].required]
            # the most selective required probe: text and numbers before dates/amounts
            order = {"exact": 0, "number": 1, "fuzzy": 2, "amount": 3, "date": 4}
            chosen = (
                [min(required, key=lambda p: order[self.probes[p].comparator])]
                if required
                else probes
            )
            drivers.extend(p for p in chosen if p not in drivers)
        others = [p for p in range(len(self.probes)) if p not in drivers]
        refiners = [p for p in others if self.probes[p].comparator in ("exact", "date", "amount")]
        assumed = sum(1 << p for p in others if p not in refiners)
        return drivers, refiners, assumed

    # ----------------------------------------------------------------- phase 1

    def _row_values(self, row: RegistryRow) -> list[Any]:
        """The row's comparison key per probe, remembered by (kind, value): a date or
        a counterparty repeats down a registry, and each key is asked for twice (to
        rank the row and to explain its result)."""
        memo = self._memo
        values: list[Any] = []
        for sub, kind in zip(self.probes, self._kinds, strict=True):
            raw = row.normalized.get(sub.field)
            if raw is None:
                values.append(None)
                continue
            key = (kind, raw)
            try:
                value = memo[key]
            except KeyError:
                if len(memo) >= _KEY_MEMO:
                    memo.clear()
                value = memo[key] = normalize_key(kind, raw)
            except TypeError:  # an unhashable value: not what an import stores, but be safe
                value = normalize_key(kind, raw)
            values.append(value)
        return values

    def _lookup(self, p: int, value: Any) -> list[int]:
        """Documents that may pass probe ``p`` for this registry value."""
        sub = self.probes[p]
        if sub.comparator == "exact":
            return self.index.exact(sub.key, value)
        if sub.comparator == "date":
            return self.index.days(sub.key, value, sub.tolerance_days)
        if sub.comparator == "amount":
            return self.index.amounts(sub.key, value, max(1, self._limits[p]))
        docs = self.index.fuzzy(sub.key, value, sub.threshold)
        if sub.comparator == "number":
            docs = [*docs, *self.index.exact(sub.key, value)]
        return docs

    def _hits(self, values: list[Any]) -> dict[int, int]:
        """Candidate documents with a bit mask of the probes each one may pass.

        Candidates come from the driver probes only; the cheap exact-key probes (dates,
        amounts) then mark which candidates pass them, so the bound stays tight.
        """
        hits: dict[int, int] = {}
        for p in self._drivers:
            if values[p] is None:
                continue
            bit = (1 << p) | self._assumed
            for doc in self._lookup(p, values[p]):
                hits[doc] = hits.get(doc, 0) | bit
        if hits:
            for p in self._refiners:
                if values[p] is None:
                    continue
                bit = 1 << p
                for doc in self._lookup(p, values[p]):
                    mask = hits.get(doc)
                    if mask is not None:
                        hits[doc] = mask | bit
        return hits

    def candidate_pairs(self, rows: Sequence[RegistryRow]) -> int:
        """Number of (row, document) pairs phase 1 yields: the work phase 2 will do."""
        return sum(len(self._hits(self._row_values(row))) for row in rows)

    # ----------------------------------------------------------------- phase 2

    def _rank(self, row: RegistryRow, values: list[Any] | None = None) -> list[Scored]:
        """Scored candidates of one row, best first, ties by document id; ``values``
        are its ``_row_values`` when the caller has them."""
        if values is None:
            values = self._row_values(row)
        hits = self._hits(values)
        self.last_candidate_pairs += len(hits)
        floor = self.threshold - self.tie_margin
        row_mask = sum(1 << p for p, v in enumerate(values) if v is not None)
        present, bound = self._present, self._bound_masks
        bounds = sorted((-bound(m, present[d] & row_mask), d) for d, m in hits.items())
        chosen = [d for i, (neg, d) in enumerate(bounds) if -neg >= floor - 1e-6 or i < EXPLAIN_TOP]
        passing = self._passing(values, chosen) if self._gates and chosen else None
        scored = []
        for d in chosen:
            if passing is not None and all(
                any(d not in passing[p] for p in gates) for gates in self._rule_gates
            ):
                score, rule = 0.0, 0  # what _fast_score gives when every rule fails
            else:
                score, rule = self._fast_score(values, d)
            scored.append(Scored(score, d, rule, []))
        scored.sort(key=lambda s: (-s.score, s.doc))
        return scored

    def _passing(self, values: list[Any], docs: list[int]) -> dict[int, set[int]]:
        """Per required number probe, which of ``docs`` pass it: ``compare``'s test
        (the same ``fuzz.ratio`` against the threshold; equal strings score 100) in one
        call over all their values instead of a Python call per value."""
        out: dict[int, set[int]] = {}
        for p in self._gates:
            reg = values[p]
            if reg is None:
                out[p] = set()  # a missing registry value fails a required sub-rule
                continue
            column = self.index.values[self._keys[p]]
            choices: list[str] = []
            owners: list[int] = []
            for d in docs:
                for value in column[d]:
                    choices.append(value)
                    owners.append(d)
            found = process.extract(
                reg, choices, scorer=fuzz.ratio, score_cutoff=self.probes[p].threshold, limit=None
            )
            out[p] = {owners[i] for _choice, _score, i in found}
        return out

    # ------------------------------------------------------------------- match

    def match(
        self, rows: Sequence[RegistryRow], *, progress: ProgressSink | None = None
    ) -> Iterator[Match]:
        """Match every row; results come in row order once all rows are scored.

        All rows are ranked before any is yielded because a document goes to the row
        that scores it highest, which is only known at the end.
        """
        ranked: list[list[Scored]] = []
        keys: list[list[Any]] = []  # each row's values, kept for its explanation
        total = len(rows)
        self.last_candidate_pairs = 0
        for n, row in enumerate(rows, start=1):
            keys.append(self._row_values(row))
            ranked.append(self._rank(row, keys[-1]))
            if n % PROGRESS_EVERY == 0 or n == total:
                report(progress, n, total)
        assigned = self._assign(ranked)
        owner = {doc: pos for pos, doc in assigned.items()}
        for pos in range(total):
            yield self._build(pos, rows, keys[pos], ranked[pos], assigned.get(pos), owner)

    def _assign(self, ranked: list[list[Scored]]) -> dict[int, int]:
        """Greedy by score (then row order, then id): each document to one row."""
        pairs = [
            (-s.score, pos, s.doc)
            for pos, scored in enumerate(ranked)
            for s in scored
            if s.score >= self.threshold
        ]
        pairs.sort()
        by_row: dict[int, int] = {}
        taken: set[int] = set()
        for _, pos, doc in pairs:
            if pos not in by_row and doc not in taken:
                by_row[pos] = doc
                taken.add(doc)
        return by_row

    def _build(
        self,
        pos: int,
        rows: Sequence[RegistryRow],
        values: list[Any],
        scored: list[Scored],
        doc: int | None,
        owner: dict[int, int],
    ) -> Match:
        row = rows[pos]
        if not scored:
            return Match(
                row=row.row, document_id=None, score=0.0, warnings=[coded("match_no_candidates")]
            )
        warnings: list[Message] = []
        best = scored[0]
        if best.score >= self.threshold and owner.get(best.doc) not in (None, pos):
            other = rows[owner[best.doc]].row
            warnings.append(coded("match_taken", row=other, document=self._named(best.doc)))
        chosen = next((s for s in scored if s.doc == doc), None) if doc is not None else None
        shown = chosen or best
        # A document another row took is not a rival: the runner-up must be available.
        others = [s for s in scored if s.doc != shown.doc and owner.get(s.doc, pos) == pos]
        runner = others[0] if others else None
        if chosen is None and best.score < self.threshold:
            warnings.append(
                coded("match_below_threshold", best=best.score, threshold=self.threshold)
            )
        if (
            runner is not None
            and shown.score - runner.score <= self.tie_margin
            and shown.score >= self.threshold - self.tie_margin
        ):
            warnings.append(
                coded(
                    "match_tie",
                    document=self._named(runner.doc),
                    score=runner.score,
                    best=shown.score,
                )
            )
        explanation = self._score(values, row, shown.doc).explanation
        warnings.extend(amount_warnings(explanation))
        return Match(
            row=row.row,
            document_id=self.ids[chosen.doc] if chosen else None,
            score=shown.score,
            explanation=explanation,
            runner_up_id=self.ids[runner.doc] if runner else None,
            runner_up_score=runner.score if runner else None,
            warnings=warnings,
            rule=self.rules[shown.rule].name,
        )

    def _named(self, doc: int) -> Any:
        doc_id = self.ids[doc]
        return self.names.get(doc_id, doc_id)
