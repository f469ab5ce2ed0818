"""Batch mode: one worker loop that submits and polls, made crash-safe.

One cycle: prepare up to ``BATCH_SIZE`` queued jobs under ``OCR_WORKERS`` render
lanes while polling (retrieve every open batch, write progress, stream the results of
ended ones, build the documents of finished jobs), then submit (build the prepared
jobs' requests and those waiting to be sent again, split them into batches, create
them). The caller sleeps ``POLL_INTERVAL`` between cycles;
``batch_worker_paused`` in the store skips both phases.

Nothing is paid twice: a batch's *intent* (its request ids, jobs and a creation
window) is written before ``create``. An intent found without an id on a later
cycle, after a crash, is resolved by listing the batches created in its window and
matching them by request count before anything is sent again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime, timedelta

from docbatch_gui.domain.errors import DocBatchError, ErrorKind, InvalidTransition, OverBudget
from docbatch_gui.domain.models import BatchRecord, Job, Page, RequestRecord
from docbatch_gui.domain.states import BATCH_READY_STATES, PAUSED_SETTING, JobState
from docbatch_gui.engine.batch_holds import hold_batch_jobs, reachable_again
from docbatch_gui.engine.batch_results import OPEN, ResultBuilder
from docbatch_gui.engine.context import EngineContext
from docbatch_gui.engine.counterparties import request_examples
from docbatch_gui.engine.estimates import CostEstimator
from docbatch_gui.engine.extraction import group_request, page_groups
from docbatch_gui.engine.faults import crash_point
from docbatch_gui.engine.holds import did_not_reach_claude
from docbatch_gui.engine.reservations import Purse, batch_key
from docbatch_gui.engine.routing import ESCALATION, FIRST, is_escalation
from docbatch_gui.engine.separator_step import separator_pages
from docbatch_gui.engine.steps import EXTRACT, RenderLane, carried_on
from docbatch_gui.engine.worker import LocalWorker, run_job
from docbatch_gui.llm.batches import BatchClient
from docbatch_gui.llm.catalogue import Usage
from docbatch_gui.llm.pricing import text_tokens
from docbatch_gui.llm.requests import ExtractionRequest, custom_id, parse_custom_id

log = logging.getLogger(__name__)

PAUSED = PAUSED_SETTING
WINDOW_SKEW = timedelta(minutes=2)  # clock difference tolerated between us and the API
BATCH = "batch"
READY = BATCH_READY_STATES  # rendered (and OCR'd), not yet submitted
#: job ids per store read of a batch's jobs (well under SQLite's bound parameters)
JOBS_PER_READ = 500


def _now() -> datetime:
    return datetime.now(UTC)


class BatchEngine:
    def __init__(
        self,
        context: EngineContext,
        client: BatchClient,
        worker: LocalWorker,
    ) -> None:
        self.context = context
        self.store = context.store
        self.blobs = context.blobs
        self.settings = context.settings
        self.profile = context.profile
        self.client = client
        self.worker = worker
        self.estimator = CostEstimator(self.store, self.settings, self.profile)
        self.results = ResultBuilder(context, worker.emit)
        self.escalation = self.results.escalation
        self.purse = Purse(context, worker.gate)
        self.halted: DocBatchError | None = None

    # -- the loop -----------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        return bool(self.store.get_setting(PAUSED, False))

    def has_work(self) -> bool:
        active = [JobState.QUEUED, JobState.PREPARING, JobState.SUBMITTED, JobState.PROCESSING]
        return bool(self.store.list_jobs(states=active, mode=BATCH, limit=1)) or bool(
            self.store.list_batches(["intent", *OPEN])
        )

    async def cycle(self) -> None:
        if self.paused:
            log.info("batch worker paused: skipping submit and poll")
            return
        try:
            if not await reachable_again(self.store, self.client, self._emit):
                return  # held (``engine.batch_holds``): nothing is created
            await self.resolve_intents()
            await self._poll_while_preparing()
        except DocBatchError as exc:
            if did_not_reach_claude(exc.message):
                hold_batch_jobs(self.store, self.settings, exc, self._emit)
            elif exc.kind is ErrorKind.CRITICAL:
                self.halted = exc
                log.error("%s", exc)
            else:
                log.warning("batch cycle: %s (will try again next cycle)", exc)

    async def _poll_while_preparing(self) -> None:
        """Render the queued jobs while the open batches are polled and the ended ones'
        results built, then submit: the results' checks run on this process's core
        while the render children use theirs. The two touch different jobs (queued and
        preparing ones here, submitted and processing ones in the poll). The rendered
        jobs are submitted even when the poll failed (a job left prepared and unsent
        would wait for the next start's recovery), unless it failed critically: a
        request DocBatch built was refused and the queue stops, so they wait queued,
        their pages kept, and nothing more is sent."""
        preparing = asyncio.create_task(self.prepare())
        try:
            await self.poll()
        except asyncio.CancelledError:
            preparing.cancel()
            with contextlib.suppress(BaseException):
                await preparing
            raise
        except DocBatchError as exc:
            if exc.kind is ErrorKind.CRITICAL:
                self._requeue(await preparing)
            else:
                await self.submit(await preparing)
            raise
        except Exception:
            await self.submit(await preparing)
            raise
        await self.submit(await preparing)

    # -- submit -------------------------------------------------------------------------

    async def prepare(self) -> list[Job]:
        """Up to ``BATCH_SIZE`` queued jobs, rendered under ``OCR_WORKERS`` render
        lanes: the ones ready to be sent."""
        queued = self.store.list_jobs(
            states=[JobState.QUEUED], mode=BATCH, limit=self.settings.batch_size
        )
        if self.worker.gate is not None:  # a run over a budget cap is not prepared or sent
            queued = self.worker.gate.admit(queued)
        if self.worker.ocr_held:  # Vision without credentials: held (``engine.holds``)
            queued = []
        prepared: list[Job] = []
        if queued:
            slots = asyncio.Semaphore(self.settings.ocr_workers)

            async def prepare(job: Job) -> Job | None:  # submit_multiple_jobs
                async with RenderLane(slots) as lane:
                    return await run_job(
                        self.worker.context,
                        job.id,
                        worker=self.worker,
                        prepare_only=True,
                        lane=lane,
                    )

            async with self.worker.opened(warm=len(queued)):
                results = await asyncio.gather(*(prepare(j) for j in queued))
            prepared = [j for j in results if j is not None and j.state in READY]
        return prepared

    async def submit(self, prepared: list[Job]) -> None:
        """Send the ``prepared`` jobs, the submitted ones waiting for a later batch, and
        the later parts of a split job a kill kept from its intent."""
        resubmit = self.store.list_jobs(states=[JobState.SUBMITTED], mode=BATCH)
        if self.worker.gate is not None:  # held by a cap reached mid-run: not tried again
            resubmit = [j for j in resubmit if j.id not in self.worker.gate.reached]
        # a job split over batches whose later part a kill kept from its intent (a job
        # of one group is never split: it became processing with its one request)
        group = self.settings.group_size
        split = [
            job
            for job in self.store.list_jobs(states=[JobState.PROCESSING], mode=BATCH)
            if (groups := -(-(job.pages or 0) // group)) > 1
            and len(self.store.list_requests(job.id)) < groups
        ]
        entries: list[tuple[Job, ExtractionRequest]] = []
        for job in [*prepared, *resubmit, *split]:
            requests = self._requests(job, missing_only=job.state is JobState.PROCESSING)
            if not requests and job.state in READY:
                await self.results.finish_answered(job)  # every group answered already
            entries.extend((job, r) for r in requests)
        for chunk in self._split([r for _, r in entries]):
            ids = {r.custom_id for r in chunk}
            await self._submit_chunk([(j, r) for j, r in entries if r.custom_id in ids])

    def _requests(
        self, job: Job, wanted: set[str] | None = None, *, missing_only: bool = False
    ) -> list[ExtractionRequest]:
        """The job's groups that still need an answer and are not in an open batch;
        or exactly the ``wanted`` ones (an intent being created again); or, with
        ``missing_only``, those never planned at all (no record)."""
        records = {r.custom_id: r for r in self.store.list_requests(job.id)}
        pages = self.store.list_pages(job.id)
        requests = []
        groups = page_groups(pages, self.settings.group_size, separator_pages(job))
        if missing_only:
            wanted = {custom_id(job.id, n) for n in range(1, len(groups) + 1)} - set(records)
            if not wanted:
                return []
        for number, group in enumerate(groups, start=1):
            request_id = custom_id(job.id, number)
            record = records.get(request_id)
            if wanted is not None:
                if request_id not in wanted:
                    continue
            elif record is not None and record.state in ("succeeded", "pending"):
                continue
            requests.append(
                group_request(
                    self.blobs,
                    self.settings,
                    self.profile,
                    job,
                    number,
                    group,
                    len(pages),
                    record.max_tokens if record else None,
                    request_examples(self.store, self.profile, job, group, self.settings),
                    self.estimator.cache_ttl(batch=True),
                )
            )
        return requests + self._escalated(job, records, groups, len(pages), wanted)

    def _escalated(
        self,
        job: Job,
        records: dict[str, RequestRecord],
        groups: list[list[Page]],
        total_pages: int,
        wanted: set[str] | None,
    ) -> list[ExtractionRequest]:
        """The job's escalated groups waiting for a batch (``retry``, tries left), or
        the ``wanted`` ones: the escalation model's requests join the next batch."""
        requests = []
        for record in records.values():
            if not record.escalation or not 1 <= record.group <= len(groups):
                continue
            if wanted is not None:
                if record.custom_id not in wanted:
                    continue
            elif record.state != "retry" or record.attempts >= self.results.max_attempts:
                continue
            group = groups[record.group - 1]
            first = group_request(
                self.blobs,
                self.settings,
                self.profile,
                job,
                record.group,
                group,
                total_pages,
                record.max_tokens,
                request_examples(self.store, self.profile, job, group, self.settings),
            )
            ttl = self.estimator.cache_ttl(batch=True, model=self.escalation.route.escalation)
            requests.append(self.escalation.request(first, ttl))
        return requests

    def _split(self, requests: list[ExtractionRequest]) -> list[list[ExtractionRequest]]:
        """Batches of at most BATCH_MAX_REQUESTS requests and BATCH_MAX_MB bytes."""
        limit_bytes = int(self.settings.batch_max_mb * 2**20)
        chunks: list[list[ExtractionRequest]] = []
        size = 0
        for request in requests:
            weight = request.size_bytes + 4096
            if (
                not chunks
                or len(chunks[-1]) >= self.settings.batch_max_requests
                or size + weight > limit_bytes
            ):
                chunks.append([])
                size = 0
            chunks[-1].append(request)
            size += weight
        return chunks

    async def _submit_chunk(self, entries: list[tuple[Job, ExtractionRequest]]) -> None:
        """Write the intent, its jobs' moves and its request records in one store
        transaction, then create the batch: a kill before the commit leaves nothing to
        resolve, a kill after it an intent whose every request its records hold."""
        requests = [r for _, r in entries]
        jobs = {j.id: j for j, _ in entries}
        if not self.estimator.measured:
            await self.estimator.measure(self.client.client, requests[0])
        estimate = self._estimate(requests)
        records = {(r.job_id, r.custom_id): r for j in jobs for r in self.store.list_requests(j)}
        by_job: dict[int, list[ExtractionRequest]] = {}
        for request in requests:
            by_job.setdefault(request.job_id, []).append(request)
        estimates = {job_id: self._estimate(by_job[job_id]) for job_id in jobs}
        try:
            money = self.purse.reserve(requests, batch=True)
        except OverBudget as exc:
            self._hold(list(jobs.values()), exc)
            return
        try:
            intent = self._open(jobs, requests, records, estimate, estimates)
        except BaseException:
            self.purse.release(money)
            raise
        assert intent.id is not None
        self.purse.hand_to_batch(money, intent.id)
        for job in self._jobs(intent.job_ids):
            self._emit(job)
        crash_point("after_intent")
        await self._create(intent, requests)

    def _open(
        self,
        jobs: dict[int, Job],
        requests: list[ExtractionRequest],
        records: dict[tuple[int, str], RequestRecord],
        estimate: float | None,
        estimates: dict[int, float | None],
    ) -> BatchRecord:
        return self.store.open_intent(
            BatchRecord(
                request_ids=[r.custom_id for r in requests],
                job_ids=sorted(jobs),
                window_start=(_now() - WINDOW_SKEW).isoformat(),
                cost_estimate_usd=estimate,
                model=", ".join(sorted({str(r.params["model"]) for r in requests})),
                effort=self.settings.thinking_choice.label,
            ),
            [
                pending_record(request, records.get((request.job_id, request.custom_id)))
                for request in requests
            ],
            estimates,
            checkpoint=crash_point,
        )

    def _hold(self, jobs: list[Job], exc: OverBudget) -> None:
        """A cap refused the chunk's reservation: nothing of it is sent. Jobs prepared
        for it wait queued (their pages kept), resubmissions wait submitted, all under
        the gate's hold in the admission's words."""
        self._requeue(jobs)
        if self.worker.gate is not None:
            self.worker.gate.hold_over([j.id for j in jobs], exc.refusal)
        else:
            log.warning(
                "a budget cap was reached during the run; what was answered is kept, the rest "
                "waits: %s",
                exc,
            )

    def _requeue(self, jobs: list[Job]) -> None:
        """The prepared ``jobs`` back in the queue unsent, their pages kept (a job
        another worker moved meanwhile is left where it is)."""
        for job in jobs:
            if job.state in READY:
                with contextlib.suppress(InvalidTransition):
                    self._emit(self.store.transition(job.id, JobState.QUEUED, expected=job.state))

    async def _create(self, intent: BatchRecord, requests: list[ExtractionRequest]) -> None:
        try:
            created = await self.client.create(requests)
        except DocBatchError as exc:
            if exc.kind is ErrorKind.UNSUPPORTED:
                self._fail_batch(intent, exc)
                return
            raise  # retryable: the intent stays and is resolved next cycle
        crash_point("after_create")
        self._adopt(intent, created.batch_id, created.created_at)

    def _adopt(self, intent: BatchRecord, batch_id: str, created_at: datetime) -> None:
        assert intent.id is not None
        self.store.update_batch(
            intent.id,
            batch_id=batch_id,
            status="in_progress",
            created_at=created_at.isoformat(),
            window_end=_now().isoformat(),
        )
        crash_point("after_batch_id_saved")
        self._attach(intent)
        requests, jobs = len(intent.request_ids), len(intent.job_ids)
        log.info("batch %s: %s requests for %s jobs", batch_id, requests, jobs)

    def _attach(self, batch: BatchRecord) -> list[Job]:
        """Jobs whose requests wait in this batch are ``processing``. Also run from
        the poll phase, so a crash between saving the id and this leaves no job behind.
        Returns the batch's jobs as they stand after (the poll reads them once)."""
        jobs = self._jobs(batch.job_ids)
        for n, job in enumerate(jobs):
            job_id = job.id
            if job.state is not JobState.SUBMITTED or job_id is None:
                continue
            if any(
                r.state == "pending" and r.batch == batch.id
                for r in self.store.list_requests(job_id)
            ):
                jobs[n] = self._emit(
                    self.store.transition(
                        job_id,
                        JobState.PROCESSING,
                        expected=JobState.SUBMITTED,
                    )
                )
                crash_point("mid_attach")
        return jobs

    def _fail_batch(self, intent: BatchRecord, error: DocBatchError) -> None:
        assert intent.id is not None
        self.store.update_batch(intent.id, status="failed")
        self.store.release(batch_key(intent.id))  # never created: nothing paid
        for job_id in intent.job_ids:
            try:
                self._emit(
                    self.store.transition(
                        job_id, JobState.FAILED, error_kind=error.kind, error=error.message
                    )
                )
            except InvalidTransition:
                continue

    def _estimate(self, requests: list[ExtractionRequest]) -> float | None:
        return self.estimator.for_requests(requests, batch=True)

    # -- recovery of intents ------------------------------------------------------------

    async def resolve_intents(self) -> None:
        """An intent without an API id: created before a crash, or never created?

        Only requests the intent still holds (their record waits ``pending`` in it) are
        ever sent again: one another intent or batch holds, or that was answered, is
        dropped from it first, and an intent left with none is closed unsent."""
        self.store.settle_intents()
        intents = self.store.list_batches(["intent"])
        if not intents:
            return
        adopted = {b.batch_id for b in self.store.list_batches() if b.batch_id}
        for intent in intents:
            start = datetime.fromisoformat(intent.window_start)
            candidates = [
                b
                for b in await self.client.created_between(start, _now() + WINDOW_SKEW)
                if b.batch_id not in adopted and b.total == len(intent.request_ids)
            ]
            if candidates:
                match = min(candidates, key=lambda b: b.created_at)  # intents are made in order
                log.warning(
                    "recovered batch %s for intent %s after a crash",
                    match.batch_id,
                    intent.id,
                )
                self._adopt(intent, match.batch_id, match.created_at)
                adopted.add(match.batch_id)
                continue
            intent = self._held_only(intent)
            if not intent.request_ids:
                continue
            log.warning("intent %s was never created; creating it now", intent.id)
            requests = [
                r for job_id in intent.job_ids for r in self._intent_requests(job_id, intent)
            ]
            assert intent.id is not None  # committed before the kill: its money is too
            key = batch_key(intent.id)
            self.purse.reserve(requests, batch=True, key=key, owner=key, forced=True)
            await self._create(intent, requests)

    def _intent_requests(self, job_id: int, intent: BatchRecord) -> list[ExtractionRequest]:
        return self._requests(self.store.get_job(job_id), set(intent.request_ids))

    def _held_only(self, intent: BatchRecord) -> BatchRecord:
        """The intent reduced to the requests whose records it holds; closed
        (``void``) when it holds none."""
        assert intent.id is not None
        held = {
            r.custom_id
            for job_id in intent.job_ids
            for r in self.store.list_requests(job_id)
            if r.batch == intent.id and r.state == "pending"
        }
        kept = [r for r in intent.request_ids if r in held]
        if kept == intent.request_ids:
            return intent
        jobs = sorted({parse_custom_id(r)[0] for r in kept})
        status = "intent" if kept else "void"
        if not kept:
            self.store.release(batch_key(intent.id))
        log.warning(
            "intent %s keeps the %s request(s) it still holds; the others are held elsewhere or "
            "answered and are not sent again",
            intent.id,
            len(kept),
        )
        return self.store.update_batch(intent.id, request_ids=kept, job_ids=jobs, status=status)

    # -- poll ---------------------------------------------------------------------------

    async def poll(self) -> None:
        for batch in self.store.list_batches(OPEN):
            assert batch.id is not None and batch.batch_id is not None
            # the batch's jobs, read once for the three uses (they were read three times)
            jobs = self._attach(batch)
            await self._cancel_if_abandoned(batch, jobs)
            status = await self.client.retrieve(batch.batch_id)
            crash_point("during_polling")
            batch = self.store.update_batch(
                batch.id,
                request_counts=status.counts,
                status="ended" if status.status == "ended" else status.status,
                ended_at=status.ended_at.isoformat() if status.ended_at else None,
            )
            crash_point("after_poll_saved")
            for job in jobs:
                self._progress(job, status.finished_share)
        for batch in self.store.list_batches(["ended"]):
            if not batch.results_done:
                await self.results.collect(batch, self.client)
        await self.results.finish_jobs()

    def _jobs(self, job_ids: list[int]) -> list[Job]:
        """A batch's jobs, read a chunk of ids per statement (not one per job)."""
        return [
            job
            for start in range(0, len(job_ids), JOBS_PER_READ)
            for job in self.store.list_jobs(ids=job_ids[start : start + JOBS_PER_READ])
        ]

    def _progress(self, job: Job, share: float) -> None:
        """The batch's answered share is the extract step's; never back (a job sent
        again with a later batch keeps its bar)."""
        if job.state is JobState.PROCESSING:
            assert job.id is not None
            carried_on(self.context, job, self._emit).report(job.id, EXTRACT, share, 1)

    async def _cancel_if_abandoned(self, batch: BatchRecord, jobs: list[Job]) -> None:
        """Cancel a batch once every job in it (``jobs``) was canceled by the operator."""
        if batch.status != "in_progress" or batch.batch_id is None:
            return
        states = {job.state for job in jobs}
        if states == {JobState.CANCELED}:
            await self.client.cancel(batch.batch_id)
            log.info("batch %s canceled: all its jobs were canceled", batch.batch_id)

    def _emit(self, job: Job) -> Job:
        return self.worker.emit(job)


def pending_record(request: ExtractionRequest, previous: RequestRecord | None) -> RequestRecord:
    """The record of ``request`` about to be sent: pending, one try more than before
    (the store puts it in the intent); what it cost and learned before is kept."""
    return RequestRecord(
        job_id=request.job_id,
        custom_id=request.custom_id,
        group=request.group,
        pages=list(request.pages),
        state="pending",
        error_kind=None,  # pending: no error and no answer yet
        error=None,
        answer=None,
        attempts=(previous.attempts if previous else 0) + 1,
        mode=BATCH,
        batch=None,
        cost_usd=previous.cost_usd if previous else None,
        max_tokens=previous.max_tokens if previous else None,
        note=previous.note if previous else None,
        example_tokens=text_tokens(request.example_chars),
        model=str(request.params["model"]),
        tier=ESCALATION if is_escalation(request.custom_id) else FIRST,
        reasons=previous.reasons if previous else [],
        **(Usage.of(previous) if previous else Usage()).as_fields(),
    )
