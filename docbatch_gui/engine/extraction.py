"""Claude extraction of one job in sync mode, with its bookkeeping.

Requests are built and sent a chunk of groups at a time, so a 2,000-page file never
holds all its images in memory. Every group's outcome (usage, cost, validated
answer) is written as it arrives; a retry of the job sends only the groups that have
no good answer yet, so nothing is paid for twice.
"""

from __future__ import annotations

import contextlib
import logging
from collections import OrderedDict
from dataclasses import asdict
from typing import TYPE_CHECKING

from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.errors import (
    CriticalError,
    DocBatchError,
    ErrorKind,
    OverBudget,
    RetryableError,
    UnsupportedInput,
)
from docbatch_gui.domain.models import Document, Job, Page, RequestRecord
from docbatch_gui.domain.text import printable
from docbatch_gui.engine.counterparties import request_examples
from docbatch_gui.engine.escalation import Escalation, answers_of, group_pages
from docbatch_gui.engine.estimates import CostEstimator
from docbatch_gui.engine.routing import ESCALATION, FIRST, is_escalation, route_for
from docbatch_gui.engine.separator_step import separator_pages
from docbatch_gui.engine.steps import EXTRACT, JobContext
from docbatch_gui.llm.answers import RawDocument, stitch
from docbatch_gui.llm.catalogue import Usage, load_catalogue
from docbatch_gui.llm.pricing import text_tokens
from docbatch_gui.llm.requests import ExtractionRequest, PagePayload, build_request, custom_id
from docbatch_gui.pipeline.page_plan import PageKind, kind_of, small_size
from docbatch_gui.pipeline.separators import groups_between
from docbatch_gui.pipeline.small_image import image_size
from docbatch_gui.pipeline.table_text import table_key, table_layout
from docbatch_gui.pipeline.words import decode
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.blobs import BlobStore

if TYPE_CHECKING:  # the SDK takes two seconds to import: only when sync mode runs
    from collections.abc import Collection, Sequence

    from docbatch_gui.llm.claude import ClaudeSync, RequestOutcome
    from docbatch_gui.llm.spending import Spending

log = logging.getLogger(__name__)


#: pages' laid-out table text as their render child worked it out (``remember_layout``),
#: by (words blob, ``table_key``): None for a page with no table; the oldest dropped first
_LAYOUTS: OrderedDict[tuple[str, str], str | None] = OrderedDict()
_UNKNOWN = "\0unknown"
#: entries kept: a batch's pages wait here from their render to their request
LAYOUTS_KEPT = 4096


def remember_layout(words_sha: str, key: str, layout: str | None) -> None:
    """What the render child found for the page whose words blob is ``words_sha``,
    judged with the line fields ``key`` names (``table_text.table_key``)."""
    _LAYOUTS[(words_sha, key)] = layout
    _LAYOUTS.move_to_end((words_sha, key))
    while len(_LAYOUTS) > LAYOUTS_KEPT:
        _LAYOUTS.popitem(last=False)


def table_text(page: Page, blobs: BlobStore, profile: Profile) -> str:
    """The text a page is sent with: a page of the file's own text layer that holds a
    table of goods goes laid out as printed (``tables.layout_text``), its columns and
    rows kept, so that Claude reads the table from exact text; any other page, its
    text as it is. The render child's answer, when it judged the page with these line
    fields (``pipeline.table_text``); else worked out here from the words blob."""
    if page.ocr_engine is not None or not page.words_sha or not profile.line_fields:
        return page.text
    layout = _LAYOUTS.get((page.words_sha, table_key(profile)), _UNKNOWN)
    if layout == _UNKNOWN:
        layout = table_layout(decode(blobs.read(page.words_sha)), page.page_no, profile)
    return page.text if layout is None else layout


def page_image(page: Page, kind: PageKind, blobs: BlobStore, profile: Profile) -> bytes:
    """The image bytes a page of ``kind`` is sent from: none for a text-only page; for
    a text page with a small image, the one its render child made
    (``pipeline.small_image``) when it is there and of the plan's size, else the full
    page (shrunk as its request is built: a page stored before, or an edited plan)."""
    if not page.image_sha or kind is PageKind.TEXT:
        return b""
    if kind is PageKind.TEXT_SMALL_IMAGE and page.small_image_sha:
        with contextlib.suppress(OSError):
            small = blobs.read(page.small_image_sha)
            wanted = small_size(profile.page_plan.small_long_edge, page.width, page.height)
            if image_size(small) == wanted:
                return small
    return blobs.read(page.image_sha)


def page_groups(
    pages: Sequence[Page], size: int, separators: Collection[int] = ()
) -> list[list[Page]]:
    """A job's pages in request groups, numbered from 1 by position; no group holds or
    crosses a separator sheet (``pipeline.separators``)."""
    return groups_between(pages, size, separators)


def group_request(
    blobs: BlobStore,
    settings: Settings,
    profile: Profile,
    job: Job,
    number: int,
    group: Sequence[Page],
    total_pages: int,
    max_tokens: int | None = None,
    examples: str = "",
    cache_ttl: str | None = "5m",
) -> ExtractionRequest:
    """One group's request, reading only this group's page images (sync and batch).

    ``max_tokens`` is raised for a group whose earlier answer was cut off; ``examples``
    are the seller's confirmed documents (``counterparties.request_examples``). It goes
    to the route's first model (``engine.routing``): the profile's ``models.first``,
    else the settings' model."""
    route = route_for(settings, profile)
    payloads = []
    for page in group:
        kind = kind_of(profile.page_plan, page)
        image = page_image(page, kind, blobs, profile)
        payloads.append(PagePayload(page.page_no, image, table_text(page, blobs, profile), kind))
    return build_request(
        job.id,
        job.file_name,
        number,
        payloads,
        profile,
        total_pages=total_pages,
        model=route.first,
        group_size=settings.group_size,
        max_tokens=max_tokens or settings.max_output_tokens,
        output_mode=settings.claude_output,
        options=route.params(route.first),
        examples=examples,
        cache_ttl=cache_ttl,
    )


class SyncExtraction:
    def __init__(self, ctx: JobContext, claude: ClaudeSync) -> None:
        """``ctx.purse`` reserves each paid request's money first (``reservations``);
        the bar moves as requests are answered (``ctx.report``)."""
        self.ctx = ctx
        self.purse: Spending | None = ctx.purse
        self.store = ctx.store
        self.blobs = ctx.blobs
        self.settings = ctx.settings
        self.profile = ctx.profile
        self.claude = claude
        self.catalogue = load_catalogue()
        self.estimator = CostEstimator(self.store, self.settings, self.profile)
        self.escalation = Escalation(ctx.engine)
        self.chunk = max(2, 2 * self.settings.max_concurrency)
        self._examples: dict[tuple[int, int], str] = {}

    def estimate(self, job: Job, pages: Sequence[Page]) -> float | None:
        """Cost before sending, from page sizes, text and the seller's examples (no
        images read)."""
        groups = page_groups(pages, self.settings.group_size, separator_pages(job))
        extra = [len(self.examples(job, n, g)) for n, g in enumerate(groups, start=1)]
        if any(extra):
            tokens = sum(text_tokens(chars) for chars in extra)
            log.info(
                "job %s: the seller's confirmed examples add about %s input tokens", job.id, tokens
            )
        return self.estimator.for_pages(groups, batch=False, extra_chars=extra)

    def examples(self, job: Job, number: int, group: Sequence[Page]) -> str:
        """The group's examples, found once per run (the estimate and the request)."""
        key = (job.id, number)
        if key not in self._examples:
            self._examples[key] = request_examples(
                self.store, self.profile, job, group, self.settings
            )
        return self._examples[key]

    async def extract(self, job: Job) -> list[Document]:
        attempt = self.ctx.attempt
        pages = self.store.list_pages(job.id)
        groups = page_groups(pages, self.settings.group_size, separator_pages(job))
        records = {r.custom_id: r for r in self.store.list_requests(job.id)}
        done = {k: r for k, r in records.items() if r.state == "succeeded" and r.answer is not None}
        answers: dict[int, list[RawDocument]] = {}
        for number, group in enumerate(groups, start=1):
            record = done.get(custom_id(job.id, number))
            if record and record.pages == [p.page_no for p in group]:
                answers[number] = [RawDocument.from_body(d) for d in record.answer or []]
        todo = [n for n in range(1, len(groups) + 1) if n not in answers]
        if todo and not self.estimator.measured:  # free count_tokens, once per prompt
            sample = self._request(job, todo[0], groups, len(pages), records)
            await self.estimator.measure(self.claude.client, sample)
        self.store.update_job(job.id, attempt=attempt, cost_estimate_usd=self.estimate(job, pages))
        if len(todo) < len(groups):
            reused = len(groups) - len(todo)
            log.info("job %s: reusing %s answered groups", job.id, reused)
        failures: list[DocBatchError] = []
        for start in range(0, len(todo), self.chunk):
            self.ctx.check_canceled()  # no paid request after a cancel
            chunk = todo[start : start + self.chunk]
            requests = [self._request(job, n, groups, len(pages), records) for n in chunk]
            for outcome in await self.claude.extract(requests, self.purse):
                self._record(job, outcome)
                if outcome.ok:
                    answers[outcome.request.group] = outcome.documents or []
                else:
                    failures.append(outcome.error)  # type: ignore[arg-type]
            self._update_cost(job, attempt)
            answered = len(groups) - len(todo) + start + len(chunk)
            self.ctx.report(job.id, EXTRACT, answered, len(groups))
            if any(f.kind is ErrorKind.CRITICAL for f in failures):
                break
        over = next((f for f in failures if isinstance(f, OverBudget)), None)
        if over is not None:  # what was answered is kept; the job waits under the cap
            raise over
        if failures:
            raise _summarise(failures, len(groups), job.file_name)
        pages_of = group_pages(groups)
        if self.escalation.routed:
            await self._escalate(job, attempt, groups, len(pages), answers, records)
        now = self.store.list_requests(job.id)
        escalated = answers_of(now, escalated=True)
        chosen, winners = self.escalation.assemble(job, answers, escalated, pages_of)
        self.store.update_job(job.id, attempt=attempt, **self.escalation.job_fields(now, winners))
        return stitch(job.id, chosen, self.profile)

    async def _escalate(
        self,
        job: Job,
        attempt: int,
        groups: list[list[Page]],
        total_pages: int,
        answers: dict[int, list[RawDocument]],
        records: dict[str, RequestRecord],
    ) -> None:
        """Send the groups the first answers left in doubt to the escalation model, at
        once and once: a group escalated before is asked again only when its escalated
        request failed (a retry of the job); its answer is never judged again."""
        now = self.store.list_requests(job.id)
        reasons = self.escalation.decide(job, answers, group_pages(groups), now) or {
            r.group: r.reasons for r in now if r.escalation and r.state != "succeeded"
        }
        if not reasons:
            return
        ttl = self.estimator.cache_ttl(batch=False, model=self.escalation.route.escalation)
        requests = [
            self.escalation.request(self._request(job, n, groups, total_pages, records), ttl)
            for n in sorted(reasons)
        ]
        for outcome in await self.claude.extract(requests, self.purse):
            self._record(job, outcome, reasons.get(outcome.request.group, []))
            if outcome.error is not None:
                if outcome.error.kind is ErrorKind.CRITICAL or isinstance(
                    outcome.error, OverBudget
                ):
                    self._update_cost(job, attempt)
                    raise outcome.error
                log.warning(
                    "job %s (%s): the escalated request of group %s failed (%s); the first answer "
                    "stands",
                    job.id,
                    printable(job.file_name),
                    outcome.request.group,
                    outcome.error,
                )
        self._update_cost(job, attempt)

    def _request(
        self,
        job: Job,
        number: int,
        groups: list[list[Page]],
        total_pages: int,
        records: dict[str, RequestRecord],
    ) -> ExtractionRequest:
        """A group's request, with the larger budget an earlier cut-off answer earned."""
        record = records.get(custom_id(job.id, number))
        budget = record.max_tokens if record else None
        group = groups[number - 1]
        examples = self.examples(job, number, group)
        return group_request(
            self.blobs,
            self.settings,
            self.profile,
            job,
            number,
            group,
            total_pages,
            budget,
            examples,
            self.estimator.cache_ttl(batch=False),
        )

    def _record(self, job: Job, outcome: RequestOutcome, reasons: list[str] | None = None) -> None:
        request, usage = outcome.request, outcome.usage
        previous = next(
            (r for r in self.store.list_requests(job.id) if r.custom_id == request.custom_id), None
        )
        if previous is not None:  # a retried group: what was paid before still counts
            usage += Usage.of(previous)
        model = str(request.params.get("model") or self.settings.anthropic_model)
        cost = self.catalogue.cost(model, usage)
        self.store.save_request(
            RequestRecord(
                job_id=job.id,
                custom_id=request.custom_id,
                group=request.group,
                pages=list(request.pages),
                state="succeeded" if outcome.ok else "errored",
                attempts=(previous.attempts if previous else 0) + outcome.attempts,
                error_kind=outcome.error.kind.value if outcome.error else None,
                error=outcome.error.message if outcome.error else None,
                cost_usd=cost,
                mode="sync",
                answer=(
                    [asdict(d) for d in outcome.documents]
                    if outcome.ok and outcome.documents is not None
                    else None
                ),
                max_tokens=outcome.max_tokens,
                note=outcome.note or (previous.note if previous else None),
                example_tokens=text_tokens(request.example_chars),
                model=model,
                tier=ESCALATION if is_escalation(request.custom_id) else FIRST,
                reasons=list(reasons or (previous.reasons if previous else [])),
                **usage.as_fields(),
            )
        )
        if self.purse is not None:  # the cost is in the spend ledger: release the money
            grown = (cost or 0.0) - ((previous.cost_usd or 0.0) if previous else 0.0)
            for n, key in enumerate(outcome.reservations):
                self.purse.release(key, grown if n == 0 else 0.0)

    def _update_cost(self, job: Job, attempt: int) -> None:
        costs = [r.cost_usd for r in self.store.list_requests(job.id) if r.cost_usd is not None]
        self.store.update_job(job.id, attempt=attempt, cost_actual_usd=round(sum(costs), 6))


def _summarise(failures: list[DocBatchError], total: int, file_name: str) -> DocBatchError:
    critical = next((f for f in failures if isinstance(f, CriticalError)), None)
    if critical is not None:
        return critical
    first = failures[0]
    params = {"file": file_name, "failed": len(failures), "total": total, "first": first.message}
    if all(isinstance(f, UnsupportedInput) for f in failures):
        return UnsupportedInput.coded("claude_requests_failed", params, file=file_name)
    return RetryableError.coded("claude_requests_failed_retry", params, file=file_name)
