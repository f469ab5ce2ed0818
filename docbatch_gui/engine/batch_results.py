"""Batch results: stream them into request records, then build finished jobs.

Results are processed from the JSONL stream one line at a time and written per
request, so a crash halfway simply reprocesses the stream (every write is
idempotent). A job is built once all its groups have an answer; groups that
expired or failed for a retryable reason go into a later batch, up to a bound.
Building runs under the result limits (workers, memory budget, size classes).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import asdict, replace
from typing import TYPE_CHECKING, Any

from docbatch_gui.domain.errors import CriticalError, ErrorKind, InvalidTransition
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.domain.models import BatchRecord, Document, Job, RequestRecord
from docbatch_gui.domain.states import JobState
from docbatch_gui.domain.text import printable
from docbatch_gui.engine.context import EngineContext
from docbatch_gui.engine.documents import CheckStep, StoreStep, discard_documents
from docbatch_gui.engine.escalation import Escalation, answers_of, page_span, record_pages
from docbatch_gui.engine.faults import crash_point
from docbatch_gui.engine.limits import ResultLimiter
from docbatch_gui.engine.separator_step import split_of
from docbatch_gui.engine.steps import carried_on, run_steps
from docbatch_gui.llm.answers import InvalidAnswer, parse_answer, stitch
from docbatch_gui.llm.catalogue import Usage, load_catalogue
from docbatch_gui.llm.claude import (
    CutOff,
    answer_payload,
    cut_off_error,
    cut_off_note,
    raised_max_tokens,
    refused_request,
)
from docbatch_gui.llm.requests import parse_custom_id
from docbatch_gui.pipeline.separators import split_documents

if TYPE_CHECKING:
    from docbatch_gui.engine.worker import JobListener
    from docbatch_gui.llm.batches import BatchClient, BatchResult

log = logging.getLogger(__name__)

#: a batch's statuses while its requests wait in it
OPEN = ("in_progress", "canceling")
#: errors of a request DocBatch built: our bug or configuration, so the queue stops
REFUSED_ERRORS = frozenset({"invalid_request_error", "not_found_error", "request_too_large"})


class ResultBuilder:
    def __init__(self, context: EngineContext, listener: JobListener) -> None:
        self.context = context
        self.store = context.store
        self.settings = settings = context.settings
        self.profile = context.profile
        self.listener = listener
        self.catalogue = load_catalogue()
        self.limiter = ResultLimiter(settings.result_workers, settings.max_concurrent_mb)
        self.max_attempts = settings.request_retries + 1
        self.refusal: CriticalError | None = None
        self.escalation = Escalation(context)

    # -- results ------------------------------------------------------------------------

    async def collect(self, batch: BatchRecord, client: BatchClient) -> None:
        assert batch.id is not None and batch.batch_id is not None
        ours = set(batch.request_ids)
        records: dict[int, dict[str, RequestRecord]] = {}
        seen = 0
        paid = Usage()  # the batch's own usage, for its cache hit rate
        async for result in client.results(batch.batch_id):
            if result.custom_id not in ours:
                continue
            if result.kind == "succeeded":
                paid += Usage.from_api(result.message.usage)
            job_id, _group = parse_custom_id(result.custom_id)
            if job_id not in records:
                records[job_id] = {r.custom_id: r for r in self.store.list_requests(job_id)}
            record = records[job_id].get(result.custom_id)
            if record is None or record.batch != batch.id or record.state != "pending":
                continue  # moved on (resubmitted), or recorded before a crash: paid once
            saved = self._record(record, result)
            self.store.save_request(saved)
            records[job_id][result.custom_id] = saved
            seen += 1
            if seen == max(1, len(ours) // 2):
                crash_point("mid_results")
        # the batch's records as just saved (or found saved before a crash): not read again
        mine = [r for by_id in records.values() for r in by_id.values() if r.batch == batch.id]
        actual = round(sum(r.batch_cost_usd or 0.0 for r in mine), 6)
        self.store.update_batch(
            batch.id,
            results_done=True,
            cost_actual_usd=actual,
            thinking_tokens=sum(r.thinking_tokens for r in mine),
            input_tokens=paid.input_tokens,
            cache_read_tokens=paid.cache_read_tokens,
            cache_write_tokens=paid.cache_write_tokens,
        )
        crash_point("after_results_done")
        self.store.release(f"batch:{batch.id}", actual)  # its cost is in the spend ledger
        if paid.prompt_tokens:
            log.info(
                "batch %s: prompt cache hit rate %.0f%% (%s read, %s written, %s uncached input "
                "tokens)",
                batch.batch_id,
                100 * paid.cache_read_tokens / paid.prompt_tokens,
                paid.cache_read_tokens,
                paid.cache_write_tokens,
                paid.input_tokens,
            )

    def _record(self, record: RequestRecord, result: BatchResult) -> RequestRecord:
        if result.kind == "succeeded":
            usage = Usage.from_api(result.message.usage)
            model = record.model or self.settings.anthropic_model
            cost = self.catalogue.cost(model, usage, batch=True)
            spent = round((record.cost_usd or 0.0) + (cost or 0.0), 6)
            fields: dict[str, Any] = {
                **(usage + Usage.of(record)).as_fields(),
                "cost_usd": spent if cost is not None else record.cost_usd,
                "batch_cost_usd": cost,
            }
            try:
                documents = parse_answer(answer_payload(result.message), record.pages, self.profile)
            except CutOff:
                return self._cut_off(record, result, fields)
            except InvalidAnswer as exc:
                return replace(
                    record, state="retry", error_kind="retryable", error=exc.message, **fields
                )
            answer = [asdict(d) for d in documents]
            return replace(
                record, state="succeeded", error_kind=None, error=None, answer=answer, **fields
            )
        if result.kind == "errored" and result.error_type in REFUSED_ERRORS:
            refusal = refused_request(f"{result.error_type}: {result.error_message}")
            return replace(
                record, state="errored", error_kind=ErrorKind.CRITICAL.value, error=refusal.message
            )
        return replace(record, state="retry", error_kind="retryable", error=unanswered(result))

    def _cut_off(
        self, record: RequestRecord, result: BatchResult, fields: dict[str, Any]
    ) -> RequestRecord:
        """An answer cut at ``max_tokens``: the next batch sends the group once more
        with a larger budget; a second cut is final (sending the same again would
        only pay again)."""
        budget = record.max_tokens or self.settings.max_output_tokens
        model = self.catalogue.model(record.model or self.settings.anthropic_model)
        raised = None if record.max_tokens else raised_max_tokens(budget, model.max_output_tokens)
        if raised is None:
            error = cut_off_error(record.pages, budget)
            return replace(
                record, state="errored", error_kind=error.kind.value, error=error.message, **fields
            )
        note = cut_off_note(record.custom_id, record.pages, budget, raised)
        log.warning(
            "%s (pages %s): the answer was cut off at max_tokens %s; sent once more with %s",
            record.custom_id,
            page_span(record.pages),
            budget,
            raised,
        )
        return replace(
            record,
            state="retry",
            error_kind="retryable",
            error=coded("batch_cut_off", budget=budget, raised=raised),
            max_tokens=raised,
            note=note,
            attempts=max(0, record.attempts - 1),  # a larger budget is not a failed try
            **fields,
        )

    # -- jobs ---------------------------------------------------------------------------

    async def finish_jobs(self) -> None:
        """Decide every batch job whose requests have all come back."""
        ready = []
        # a job of a batch still open waits for its answers there: its requests are
        # not read every cycle (that read, per job and cycle, grew with the queue)
        waiting = {j for b in self.store.list_batches(OPEN) for j in b.job_ids}
        for job in self.store.list_jobs(states=[JobState.PROCESSING], mode="batch"):
            if job.id in waiting:
                continue
            records = self.store.list_requests(job.id)
            expected = -(-(job.pages or 0) // self.settings.group_size)
            if len(records) >= expected and not any(r.state == "pending" for r in records):
                ready.append((job, records))
        await asyncio.gather(*(self._decide(job, records) for job, records in ready))
        if self.refusal is not None:  # a request we built was refused: stop the queue
            refusal, self.refusal = self.refusal, None
            raise refusal

    async def finish_answered(self, job: Job) -> None:
        """A job whose groups were all answered before (a retry after a crash); when
        its first answers call for the escalation model, it waits for the next batch."""
        records = self.store.list_requests(job.id)
        escalating = self._escalating(job, records)
        known = self.escalation.take_checked(job.id)
        if escalating:
            self._emit(self.store.transition(job.id, JobState.SUBMITTED))
            return
        await self._build(job, records, known)

    def _escalating(self, job: Job, records: list[RequestRecord]) -> bool:
        """Whether escalated requests of the job still wait for a batch: decided here,
        once, from the first answers (written before the job moves, so a restart finds
        them), or left from before with tries to go. One whose tries are spent, or
        that was rejected, leaves the first answer standing."""
        pages = record_pages(records)
        decided = self.escalation.decide(job, answers_of(records, escalated=False), pages, records)
        for group, reasons in decided.items():
            record = self.escalation.waiting_record(job, group, pages[group], reasons, "batch")
            self.store.save_request(record)
        if decided:
            records = self.store.list_requests(job.id)
            self.store.update_job(job.id, **self.escalation.job_fields(records))
        waiting = [
            r
            for r in records
            if r.escalation and r.state == "retry" and r.attempts < self.max_attempts
        ]
        for record in records:
            if record.escalation and record.state in ("retry", "errored") and record not in waiting:
                log.warning(
                    "job %s (%s): the escalated request of group %s gave no answer (%s); the first"
                    " answer stands",
                    job.id,
                    printable(job.file_name),
                    record.group,
                    record.error,
                )
        return bool(waiting)

    async def _decide(self, job: Job, records: list[RequestRecord]) -> None:
        firsts = [r for r in records if not r.escalation]
        rejected = [r for r in firsts if r.state == "errored"]
        again = [r for r in firsts if r.state == "retry"]
        refused = [r for r in records if r.state == "errored"]
        refused = [r for r in refused if r.error_kind == ErrorKind.CRITICAL.value]
        try:
            if refused:
                self._emit(
                    self.store.transition(
                        job.id,
                        JobState.FAILED,
                        error_kind=ErrorKind.CRITICAL,
                        error=refused[0].error,
                    )
                )
                self.refusal = self.refusal or CriticalError(
                    refused[0].error or coded("claude_request_refused", reason="?")
                )
            elif rejected:
                self._emit(
                    self.store.transition(
                        job.id,
                        JobState.FAILED,
                        error_kind=ErrorKind.UNSUPPORTED,
                        error=coded("file_error", file=job.file_name, error=rejected[0].error),
                    )
                )
            elif again and max(r.attempts for r in again) >= self.max_attempts:
                self._emit(
                    self.store.transition(
                        job.id,
                        JobState.FAILED,
                        error_kind=ErrorKind.RETRYABLE,
                        error=coded(
                            "batch_requests_failed",
                            file=job.file_name,
                            count=len(again),
                            times=self.max_attempts,
                            last=again[0].error,
                        ),
                    )
                )
            elif again or self._escalating(job, records):
                self.escalation.take_checked(job.id)  # escalating: the build checks afresh
                self._emit(
                    self.store.transition(job.id, JobState.SUBMITTED, expected=JobState.PROCESSING)
                )
            else:
                await self._build(job, records, self.escalation.take_checked(job.id))
        except InvalidTransition as exc:  # canceled meanwhile: results are discarded
            log.info("job %s: %s", job.id, exc)
            if self.store.get_job(job.id).state is JobState.CANCELED:
                discard_documents(self.store, job.id)  # stored just before the cancel

    async def _build(
        self,
        job: Job,
        records: list[RequestRecord],
        known: tuple[list[Document], list[Document]] | None = None,
    ) -> None:
        """The batch's answers are the extract step's end; the same check and store
        steps as every job's follow. ``known``: the first answers as the escalation's
        decision checked them (``Escalation.take_checked``), not checked again when
        they are the job's documents."""
        async with self.limiter.admit(job.size):
            groups, winners = self.escalation.assemble(
                job,
                answers_of(records, escalated=False),
                answers_of(records, escalated=True),
                record_pages(records),
            )
            ctx = carried_on(self.context, job, self._emit)
            ctx.documents = split_documents(
                job.id, stitch(job.id, groups, self.profile), split_of(job)
            )
            cost = sum(r.cost_usd or 0.0 for r in records)
            store = StoreStep(
                cost_actual_usd=round(cost, 6), **self.escalation.job_fields(records, winners)
            )
            await run_steps(ctx, job, [CheckStep(known), store])

    def _emit(self, job: Job) -> Job:
        try:
            self.listener(job)
        except Exception:
            log.error("job listener failed", exc_info=True)
        return job


#: what each error type of a batch result means to the operator (the API's
#: ``error.type``); a type not listed is said with the API's own words
_ERRORED = {
    "overloaded_error": "batch_request_overloaded",
    "api_error": "batch_request_api_error",
    "rate_limit_error": "batch_request_rate_limited",
    "authentication_error": "batch_request_key_refused",
    "permission_error": "batch_request_key_refused",
    "billing_error": "batch_request_billing",
}


def unanswered(result: BatchResult) -> Message:
    """Why a batch request came back without an answer, as a coded message: it
    expired (a batch runs at most 24 hours), was canceled, or errored on the API's
    side (overloaded, an internal error, a refused key ...)."""
    if result.kind == "expired":
        return coded("batch_request_expired")
    if result.kind == "canceled":
        return coded("batch_request_canceled")
    if result.kind != "errored":
        return coded("batch_request_unknown", kind=result.kind)
    detail = f"{result.error_type}: {result.error_message}"
    code = _ERRORED.get(result.error_type or "")
    if code is None:
        return coded("batch_request_errored", detail=detail)
    return coded(code, detail=detail)
