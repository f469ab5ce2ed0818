"""Routing by difficulty applied to a job: decide, re-ask, choose, account.

Sync and batch mode share these steps (``engine.routing`` holds the rules):

1. ``decide``: the job's first answers, stitched and checked exactly as they would be
   saved, name the request groups to escalate (none when the profile has no
   escalation model, or when the job was escalated before: once, never a loop);
2. ``requests``: those groups' requests, re-targeted to the escalation model, with
   ids of their own (``job_7_batch_1_esc``), so both answers and both costs are kept
   as separate request records;
3. ``assemble``: per escalated group, the escalated answer replaces the first when
   it is better; the job records which models answered and what each tier cost.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TypedDict

from docbatch_gui.domain.models import Document, Job, Page, RequestRecord
from docbatch_gui.domain.text import printable
from docbatch_gui.engine.context import EngineContext
from docbatch_gui.engine.documents import checked_documents
from docbatch_gui.engine.routing import (
    ESCALATION,
    REASONS,
    Route,
    better_groups,
    escalation_id,
    retarget,
    route_for,
    wanted,
)
from docbatch_gui.llm.answers import RawDocument, stitch
from docbatch_gui.llm.caching import cache_control
from docbatch_gui.llm.requests import ExtractionRequest

log = logging.getLogger(__name__)

Answers = Mapping[int, Sequence[RawDocument]]


def group_pages(groups: Sequence[Sequence[Page]]) -> dict[int, list[int]]:
    """Each request group's source pages, by group number (from 1)."""
    return {n: [p.page_no for p in group] for n, group in enumerate(groups, start=1)}


def record_pages(records: Sequence[RequestRecord]) -> dict[int, list[int]]:
    """Each first-tier request group's source pages, by group number."""
    return {r.group: list(r.pages) for r in records if not r.escalation}


def answers_of(
    records: Sequence[RequestRecord], *, escalated: bool
) -> dict[int, list[RawDocument]]:
    """The answered groups of one tier, by group number."""
    return {
        r.group: [RawDocument.from_body(d) for d in r.answer or []]
        for r in records
        if r.escalation == escalated and r.state == "succeeded" and r.answer is not None
    }


class RoutingPatch(TypedDict, total=False):
    """The job columns routing by difficulty sets (a part of ``JobPatch``): typed
    apart so that a patch adding other columns beside it keeps each key once."""

    first_model: str | None
    escalated: bool
    escalation_model: str | None
    escalation_reasons: list[str]
    cost_first_usd: float | None
    cost_escalation_usd: float | None
    answered_by: str | None


class Escalation:
    """The routing of one engine context's jobs."""

    def __init__(self, context: EngineContext) -> None:
        self.context = context
        self.route: Route = route_for(context.settings, context.profile)
        self._checked: tuple[int, list[Document], list[Document]] | None = None

    @property
    def routed(self) -> bool:
        return self.route.routed

    def _documents(self, job: Job, answers: Answers) -> list[Document]:
        """The first answers as they would be saved: stitched, cleaned and checked
        (``documents.checked_documents``). Kept for ``take_checked``: when nothing
        escalates, the job's documents are these, and checking them again is a tenth
        of a batch job's own CPU (``bench/batch_engine.py``)."""
        groups = [answers[n] for n in sorted(answers)]
        stitched = stitch(job.id, groups, self.context.profile)
        documents = checked_documents(self.context, job.id, stitched)
        self._checked = (job.id, stitched, documents)
        return documents

    def take_checked(self, job_id: int) -> tuple[list[Document], list[Document]] | None:
        """The documents ``decide`` just checked for ``job_id`` and what the checks
        made of them, once (then forgotten: a later build checks afresh)."""
        kept, self._checked = self._checked, None
        if kept is None or kept[0] != job_id:
            return None
        return kept[1], kept[2]

    def decide(
        self, job: Job, first: Answers, pages: Mapping[int, Sequence[int]],
        records: Sequence[RequestRecord],
    ) -> dict[int, list[str]]:  # fmt: skip
        """The groups to escalate with their reasons; empty without an escalation model
        or once the job has escalation records (escalate at most once)."""
        if not self.routed or any(r.escalation for r in records):
            return {}
        found = wanted(self._documents(job, first), pages)
        for group, reasons in found.items():
            log.info(
                "job %s (%s): group %s (pages %s) goes to %s: %s",
                job.id,
                printable(job.file_name),
                group,
                page_span(pages[group]),
                self.route.escalation,
                ", ".join(reasons) or "?",
            )
        return found

    def request(self, request: ExtractionRequest, cache_ttl: str | None) -> ExtractionRequest:
        """``request`` (built for the first model) as the escalation model's, its shared
        prefix marked with the cache ``cache_ttl`` the escalation model takes (none when
        the prefix is under its minimum: a first model's mark may not suit it)."""
        model = self.route.escalation
        assert model is not None, "only a routed profile escalates"
        new_id = escalation_id(request.job_id, request.group)
        params = retarget(
            request.params, request.custom_id, new_id, model, self.route.params(model)
        )
        system = [{k: v for k, v in b.items() if k != "cache_control"} for b in params["system"]]
        mark = cache_control(cache_ttl)
        if mark is not None and system:
            system[-1]["cache_control"] = mark
        params["system"] = system
        return replace(request, custom_id=new_id, params=params)

    def assemble(
        self, job: Job, first: Answers, escalated: Answers, pages: Mapping[int, Sequence[int]]
    ) -> tuple[list[list[RawDocument]], set[int]]:
        """The answer of every group, each escalated group's replacing the first when
        better; and the groups where it did."""
        if not escalated:
            return [list(first[n]) for n in sorted(first)], set()
        mixed = {**first, **{n: a for n, a in escalated.items() if n in first}}
        winners = better_groups(
            self._documents(job, first),
            self._documents(job, mixed),
            pages,
            mixed.keys() & escalated.keys(),
        )
        for group in sorted(escalated):
            kept = "escalated" if group in winners else "first"
            log.info(
                "job %s (%s): group %s: the %s answer is kept",
                job.id,
                printable(job.file_name),
                group,
                kept,
            )
        chosen = {n: (escalated[n] if n in winners else first[n]) for n in first}
        return [list(chosen[n]) for n in sorted(chosen)], winners

    def job_fields(
        self, records: Sequence[RequestRecord], winners: set[int] | None = None
    ) -> RoutingPatch:
        """What the job shows of its routing: the models, why it escalated, which
        model's answers it holds and what each tier cost."""
        firsts = [r for r in records if not r.escalation]
        escalations = [r for r in records if r.escalation]
        first_model = next((r.model for r in firsts if r.model), None) or self.route.first
        escalation_model = next((r.model for r in escalations if r.model), None)
        reasons = {reason for r in escalations for reason in r.reasons}
        fields: RoutingPatch = {
            "first_model": first_model,
            "escalated": bool(escalations),
            "escalation_model": escalation_model,
            "escalation_reasons": [r for r in REASONS if r in reasons],
            "cost_first_usd": _cost(firsts),
            "cost_escalation_usd": _cost(escalations) if escalations else None,
        }
        if winners is not None:
            groups = {r.group for r in firsts}
            used = {escalation_model if g in winners else first_model for g in groups}
            fields["answered_by"] = ", ".join(sorted(m for m in used if m)) or None
        return fields

    def waiting_record(
        self, job: Job, group: int, pages: Sequence[int], reasons: list[str], mode: str
    ) -> RequestRecord:
        """An escalation request not yet sent: ``retry`` is "for the next batch"."""
        return RequestRecord(
            job_id=job.id,
            custom_id=escalation_id(job.id, group),
            group=group,
            pages=list(pages),
            state="retry",
            mode=mode,
            model=self.route.escalation,
            tier=ESCALATION,
            reasons=list(reasons),
        )


def _cost(records: Sequence[RequestRecord]) -> float | None:
    costs = [r.cost_usd for r in records if r.cost_usd is not None]
    return round(sum(costs), 6) if costs else None


def page_span(pages: Sequence[int]) -> str:
    """A request group's pages as a log line names them: ``3-5``."""
    return f"{pages[0]}-{pages[-1]}" if pages else "?"
