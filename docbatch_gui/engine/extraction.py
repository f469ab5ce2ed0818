"""Claude extraction of one job in sync mode, with its bookkeeping.

Requests are built and sent a chunk of groups at a time, so a 2,000-page file never
holds all its images in memory. Every group's outcome (usage, cost, validated
answer) is written as it arrives; a retry of the job sends only the groups that have
no good answer yet, so nothing is paid for twice.
"""

from __future__ import annotations

import logging
from dataclasses import asdict
from typing import TYPE_CHECKING

from docbatch_gui.config import Settings
from docbatch_gui.domain.errors import (
    CriticalError,
    DocBatchError,
    ErrorKind,
    RetryableError,
    UnsupportedInput,
)
from docbatch_gui.domain.models import Document, Job, Page, RequestRecord
from docbatch_gui.llm.pricing import Usage, estimate_usage, load_prices
from docbatch_gui.pipeline.profile import Profile
from docbatch_gui.pipeline.prompt import system_prompt
from docbatch_gui.pipeline.requests import (
    ExtractionRequest,
    PagePayload,
    build_request,
    custom_id,
)
from docbatch_gui.pipeline.results import RawDocument, stitch
from docbatch_gui.storage.blobs import BlobStore
from docbatch_gui.storage.store import Store

if TYPE_CHECKING:  # the SDK takes two seconds to import: only when sync mode runs
    from collections.abc import Sequence

    from docbatch_gui.llm.claude import ClaudeSync, RequestOutcome

log = logging.getLogger(__name__)


def page_groups(pages: Sequence[Page], size: int) -> list[list[Page]]:
    """A job's pages in request groups, numbered from 1 by position."""
    return [list(pages[i : i + size]) for i in range(0, len(pages), size)]


def group_request(
    blobs: BlobStore,
    settings: Settings,
    profile: Profile,
    job: Job,
    number: int,
    group: Sequence[Page],
    total_pages: int,
) -> ExtractionRequest:
    """One group's request, reading only this group's page images (sync and batch)."""
    payloads = [PagePayload(p.page_no, blobs.read(p.image_sha or ""), p.text) for p in group]
    return build_request(
        job.id,
        job.file_name,
        number,
        payloads,
        profile,
        total_pages=total_pages,
        model=settings.anthropic_model,
        group_size=settings.group_size,
        max_tokens=settings.max_output_tokens,
        output_mode=settings.claude_output,
    )


class SyncExtraction:
    def __init__(
        self,
        store: Store,
        blobs: BlobStore,
        settings: Settings,
        profile: Profile,
        claude: ClaudeSync,
    ) -> None:
        self.store = store
        self.blobs = blobs
        self.settings = settings
        self.profile = profile
        self.claude = claude
        self.prices = load_prices()
        self.chunk = max(2, 2 * settings.max_concurrency)

    def estimate(self, job: Job, pages: Sequence[Page]) -> float | None:
        """Cost before sending, from page sizes alone (no images read, no network)."""
        prompt_chars = len(system_prompt(self.profile, self.settings.group_size)) + 2600
        usage = Usage()
        for group in page_groups(pages, self.settings.group_size):
            usage += estimate_usage(
                [(p.width, p.height) for p in group],
                sum(len(p.text) + 40 for p in group),
                prompt_chars,
                len(group),
            )
        return self.prices.cost(self.settings.anthropic_model, usage)

    async def extract(self, job: Job, attempt: int) -> list[Document]:
        pages = self.store.list_pages(job.id)
        groups = page_groups(pages, self.settings.group_size)
        done = {
            r.custom_id: r
            for r in self.store.list_requests(job.id)
            if r.state == "succeeded" and r.answer is not None
        }
        answers: dict[int, list[RawDocument]] = {}
        for number, group in enumerate(groups, start=1):
            record = done.get(custom_id(job.id, number))
            if record and record.pages == [p.page_no for p in group]:
                answers[number] = [RawDocument(**d) for d in record.answer or []]
        self.store.update_job(job.id, attempt=attempt, cost_estimate_usd=self.estimate(job, pages))
        todo = [n for n in range(1, len(groups) + 1) if n not in answers]
        if len(todo) < len(groups):
            log.info("job %s: reusing %d answered groups", job.id, len(groups) - len(todo))
        failures: list[DocBatchError] = []
        for start in range(0, len(todo), self.chunk):
            chunk = todo[start : start + self.chunk]
            requests = [
                group_request(
                    self.blobs, self.settings, self.profile, job, n, groups[n - 1], len(pages)
                )
                for n in chunk
            ]
            for outcome in await self.claude.extract(requests):
                self._record(job, outcome)
                if outcome.ok:
                    answers[outcome.request.group] = outcome.documents or []
                else:
                    failures.append(outcome.error)  # type: ignore[arg-type]
            self._update_cost(job, attempt)
            if any(f.kind is ErrorKind.CRITICAL for f in failures):
                break
        if failures:
            raise _summarise(failures, len(groups), job.file_name)
        return stitch(job.id, [answers[n] for n in sorted(answers)], self.profile)

    def _record(self, job: Job, outcome: RequestOutcome) -> None:
        request, usage = outcome.request, outcome.usage
        previous = next(
            (r for r in self.store.list_requests(job.id) if r.custom_id == request.custom_id), None
        )
        if previous is not None:  # a retried group: what was paid before still counts
            usage += Usage(
                previous.input_tokens,
                previous.output_tokens,
                previous.cache_read_tokens,
                previous.cache_write_tokens,
            )
        cost = self.prices.cost(self.settings.anthropic_model, usage)
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
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
                cache_read_tokens=usage.cache_read_tokens,
                cache_write_tokens=usage.cache_write_tokens,
                cost_usd=cost,
                mode="sync",
                answer=[asdict(d) for d in outcome.documents] if outcome.ok else None,
            )
        )

    def _update_cost(self, job: Job, attempt: int) -> None:
        costs = [r.cost_usd for r in self.store.list_requests(job.id) if r.cost_usd is not None]
        self.store.update_job(job.id, attempt=attempt, cost_actual_usd=round(sum(costs), 6))


def _summarise(failures: list[DocBatchError], total: int, file_name: str) -> DocBatchError:
    critical = next((f for f in failures if isinstance(f, CriticalError)), None)
    if critical is not None:
        return critical
    first = failures[0]
    message = (
        f"{file_name}: {len(failures)} of {total} requests to Claude failed; first: {first.message}"
    )
    if all(isinstance(f, UnsupportedInput) for f in failures):
        return UnsupportedInput(message, file=file_name)
    return RetryableError(message + " Retry the job: answered pages are kept.", file=file_name)
