"""The in-process worker of the embedded default.

It takes queued jobs, prepares each in an isolated child with a deadline, extracts
documents and writes every state change before the step that depends on it. Up to
``RENDER_WORKERS`` jobs run at once; each child is one process, so two workers use
two cores.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import time
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Unpack

from docbatch_gui.coordination.workload import Workload
from docbatch_gui.domain.attempts import MAX_ATTEMPTS, automatic_attempt
from docbatch_gui.domain.errors import (
    DocBatchError,
    ErrorKind,
    InvalidTransition,
    OverBudget,
    StoreBusy,
)
from docbatch_gui.domain.messages import coded
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.progress import Canceled, CancelToken, ProgressSink
from docbatch_gui.domain.states import RECOVERABLE_STATES, JobState, ProcessingMode
from docbatch_gui.domain.text import printable
from docbatch_gui.engine.cancels import discard_canceled, stop_canceled
from docbatch_gui.engine.context import EngineContext, anthropic_key, sync_client
from docbatch_gui.engine.data_step import DataPagesStep
from docbatch_gui.engine.documents import CheckStep, StoreStep, discard_documents
from docbatch_gui.engine.extractors import ExtractionTimeout, ExtractStep
from docbatch_gui.engine.holds import (
    KEYED_MODES,
    claude_host,
    did_not_reach_claude,
    hold_unreachable,
    retry_unreachable,
    unreachable_jobs,
    vision_credentials_found,
)
from docbatch_gui.engine.job_log import (
    ENDED_BADLY,
    log_failure,
    log_retry,
)
from docbatch_gui.engine.ocr_step import OcrStep
from docbatch_gui.engine.plugins import extractor
from docbatch_gui.engine.render_step import PrepareStep
from docbatch_gui.engine.reservations import Purse
from docbatch_gui.engine.separator_step import SeparateStep
from docbatch_gui.engine.steps import (
    BAR,
    SEPARATE,
    JobBar,
    JobContext,
    RenderLane,
    Step,
    run_steps,
)
from docbatch_gui.outbound.webhook import sender_for
from docbatch_gui.pipeline.isolate import ChildPool
from docbatch_gui.pipeline.prepare import ChildDied, PrepareTimeout, prepare_pool
from docbatch_gui.storage.health import storage_error

if TYPE_CHECKING:  # importing the SDK costs two seconds; only sync mode needs it
    from docbatch_gui.engine.budget import BudgetGate
    from docbatch_gui.llm.claude import ClaudeSync

from docbatch_gui.storage.job_patch import JobPatch

log = logging.getLogger(__name__)

#: a file whose own child died this often fails; an interrupted worker never counts
MAX_CHILD_CRASHES = 3
#: a safety net: a job interrupted this often with its worker fails all the same
MAX_INTERRUPTIONS = 50
#: the modes this worker can finish; others wait for their own workers
LOCAL_MODES = frozenset({ProcessingMode.OFFLINE.value, ProcessingMode.DATA.value})
#: how often the running jobs' states are read while they run: a cancel (from the
#: window or ``docbatch cancel``, in any process) stops the job's child within this
CANCEL_POLL_S = 0.25

JobListener = Callable[[Job], object]  # what a listener returns is ignored


class LocalWorker:
    def __init__(
        self,
        context: EngineContext,
        listener: JobListener | None = None,
        claude: ClaudeSync | None = None,
        may_start: Callable[[], bool] | None = None,
        workload: Workload | None = None,
        gate: BudgetGate | None = None,
        budget_run: str | None = None,
        sink: ProgressSink | None = None,
    ) -> None:
        self.context = context
        #: hears every job's bar (a Celery task's result backend); the listener hears
        #: the jobs themselves
        self.sink = sink
        #: the cancel token of each running job's context, set by ``cancel``
        self._cancels: dict[int, CancelToken] = {}
        #: lets a run's Claude jobs start only within the budget caps (None: no check)
        self.gate = gate
        #: reserves before every paid request, within the caps, with every process
        self.purse = Purse(context, gate, budget_run)
        #: where running jobs are registered (``job_processing``), as Celery tasks do
        self.workload = workload
        self.store = context.store
        self.blobs = context.blobs
        self.settings = settings = context.settings
        self.profile = context.profile
        self.listener = listener or (lambda job: None)
        self._logged: set[tuple[int, int, JobState]] = set()
        self._pool: ChildPool | None = None
        #: OCR_WORKERS: how many jobs run OCR at once, whatever the engine
        self._ocr_slots = asyncio.Semaphore(settings.ocr_workers)
        self.claude = claude
        self.modes = LOCAL_MODES | ({ProcessingMode.SYNC.value} if claude else set())
        #: Google Vision chosen without credentials: jobs that may need OCR are held
        #: (``engine.holds``), only XML data is taken
        self.ocr_held = not vision_credentials_found(settings)
        if self.ocr_held:
            self.modes = frozenset({ProcessingMode.DATA.value})
        #: set by a critical error (auth, billing): no further job is started
        self.halted: DocBatchError | None = None
        #: False while the operator paused the worker or the GUI is closing: running
        #: jobs finish, no new one starts
        self.may_start = may_start or (lambda: True)
        sender_for(settings)  # what a previous run left in the webhook outbox goes out

    def emit(self, job: Job) -> Job:
        """Tell the listener (CLI progress, GUI models); its failures never stop work.

        Every failure and timeout is also a line in the log (and so the log file),
        once per attempt, with the job, the file and the reason."""
        if job.state in ENDED_BADLY:
            key = (job.id, job.attempts, job.state)
            if key not in self._logged:
                self._logged.add(key)
                log_failure(job)
        try:
            self.listener(job)
        except Exception:  # a display problem must never stop processing
            log.error("job listener failed", exc_info=True)
        return job

    def _queued(self) -> list[Job]:
        """The oldest queued jobs this worker can run; a bounded read, whatever the
        queue's length (it runs after every finished job)."""
        limit = 2 * self.settings.render_workers + 1
        queued = [
            job
            for mode in sorted(self.modes)
            for job in self.store.list_jobs(states=[JobState.QUEUED], mode=mode, limit=limit)
        ]
        _host, unreachable = unreachable_jobs(self.store)  # held until Retry now
        queued = sorted(
            (j for j in queued if j.id not in unreachable or j.mode not in KEYED_MODES),
            key=lambda j: j.id,
        )
        queued = queued[:limit]
        return self.gate.admit(queued) if self.gate is not None else queued

    async def run_until_idle(self, stop: asyncio.Event | None = None) -> None:
        """Process queued jobs until none is left (or ``stop`` is set)."""
        queued = self._queued() if self.may_start() else []
        if not queued:
            return
        async with self.opened(warm=len(queued)):
            await self._drain_queue(stop)

    async def _registered(self, job_id: int) -> Job | None:
        """Run one job, counted in the team's workload while it runs."""
        if self.workload is None:
            return await run_job(self.context, job_id, worker=self)
        with self.workload.track_task("job_processing", job_id):
            return await run_job(self.context, job_id, worker=self)

    @contextlib.asynccontextmanager
    async def opened(self, *, warm: int) -> AsyncIterator[None]:
        """The children CPU work needs, for the body's duration: they render pages, run
        Tesseract and the offline extractor (in this process, CPU work would hold the
        GIL and stall the event loop, and with it every other job and the GUI). A job
        still running when the body ends was canceled and put back in the queue; closing
        the pool then ends its child."""
        workers = self.settings.render_workers
        try:
            async with prepare_pool(workers, self.settings.child_memory_mb) as self._pool:
                await self._pool.warm_up(min(warm, workers))
                yield
        finally:
            self._pool = None

    async def _drain_queue(self, stop: asyncio.Event | None) -> None:
        stop = stop or asyncio.Event()
        stopping = asyncio.create_task(stop.wait())
        running: dict[int, asyncio.Task[Job | None]] = {}
        try:
            while not stop.is_set():
                startable = not self.halted and self.may_start()
                for job in self._queued() if startable else []:
                    if job.id not in running and len(running) < self.settings.render_workers:
                        running[job.id] = asyncio.create_task(self._registered(job.id))
                if not running:
                    return
                # Wake on the first finished job, at once when asked to stop, and now
                # and then to see whether the operator canceled a running job.
                await asyncio.wait(
                    [*running.values(), stopping],
                    timeout=CANCEL_POLL_S,
                    return_when=asyncio.FIRST_COMPLETED,
                )
                for job_id in stop_canceled(self.store, running):
                    self.cancel(job_id)
                for job_id in [i for i, t in running.items() if t.done()]:
                    task = running.pop(job_id)
                    if task.cancelled():  # canceled by the operator: its child is gone
                        canceled = discard_canceled(self.store, job_id)
                        if canceled is not None:
                            self.emit(canceled)
                    else:
                        task.result()
        finally:
            stopping.cancel()
            # one cancel each: a second would cut short the kill of the job's child
            # (``ChildPool.lease`` ends it while the cancel unwinds the task)
            for task in running.values():
                task.cancel()
            if running:
                await asyncio.gather(*running.values(), return_exceptions=True)

    def cancel(self, job_id: int) -> None:
        """Tell a running job's steps to stop: they check their context's token between
        two pages (and before each paid request), as the job's task is canceled too."""
        token = self._cancels.get(job_id)
        if token is not None:
            token.cancel()

    async def process(
        self, job_id: int, *, prepare_only: bool = False, lane: RenderLane | None = None
    ) -> Job | None:
        """Run one job to a final state; None if another worker claimed it first.

        With ``prepare_only`` (batch mode) it stops once the pages are rendered and
        leaves the job ``preparing`` for the batch engine to submit; ``lane`` is the
        batch engine's render lane it holds (``steps.RenderLane``).
        """
        timeout = self.settings.job_timeout
        deadline = time.monotonic() + timeout
        try:
            job = self.store.claim(
                job_id,
                JobState.PREPARING,
                deadline=datetime.now(UTC) + timedelta(seconds=timeout),
            )
        except StoreBusy as exc:
            log.warning("job %s not started: %s", job_id, exc)
            return None  # still queued: the next pass takes it
        if job is None:
            return None
        if job.progress:  # a new attempt redoes its steps: its bar starts again
            job = self.store.update_job(job.id, attempt=job.attempts, progress=0.0)
        self.emit(job)
        attempt = job.attempts
        try:
            try:
                return await self._run(job, attempt, deadline, prepare_only, lane)
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
                raise storage_error(exc, self.settings.data_dir) from None
        except StoreBusy as exc:
            # The database is held by another program: nothing can be written, not even
            # a failure. The job stays where it is; recovery re-queues it (an
            # interrupted attempt is not counted against the file).
            log.warning("job %s (%s) interrupted: %s", job.id, printable(job.file_name), exc)
            self.halted = self.halted or exc
            return None
        except ChildDied as exc:
            return self._child_died(job, attempt, exc)
        except PrepareTimeout as exc:
            self.store.set_pages_deliverable(job.id, False)
            return self._finish(
                job.id,
                JobState.TIMED_OUT,
                attempt,
                error_kind=ErrorKind.TIMEOUT,
                error=exc.message,
                termination_confirmed=exc.termination_confirmed,
            )
        except ExtractionTimeout as exc:
            return self._finish(
                job.id, JobState.TIMED_OUT, attempt, error_kind=ErrorKind.TIMEOUT, error=exc.message
            )
        except InvalidTransition as exc:
            # Someone else moved the job (canceled, retried, timed out): our result is
            # stale and must not be delivered.
            log.warning("job %s: %s", job.id, exc)
            current = self.store.get_job(job.id)
            if current.state is JobState.CANCELED:  # documents written just before
                discard_documents(self.store, job.id)
            return current
        except OverBudget as exc:
            return self._held(job, attempt, exc)
        except Canceled:  # a step saw its context's token between two pages
            canceled = discard_canceled(self.store, job.id)
            return self.emit(canceled) if canceled is not None else None
        except DocBatchError as exc:
            # a blip is retried as any retryable error; once the attempts are spent
            # the job waits held, with the host, instead of failing
            # counted from the operator's last Retry (``attempt`` itself only grows)
            automatic = automatic_attempt(job, attempt)
            spent = automatic >= MAX_ATTEMPTS and job.mode in KEYED_MODES
            if spent and did_not_reach_claude(exc.message):
                return self._unreachable(job, attempt, exc)
            if exc.kind is ErrorKind.CRITICAL:
                self.halted = self.halted or exc
            if self.store.get_job(job.id).state is JobState.PREPARING:
                self.store.set_pages_deliverable(job.id, False)  # half-rendered: not shown
            again = exc.kind is ErrorKind.RETRYABLE and automatic < MAX_ATTEMPTS
            if again:  # its line says it is tried again, not "failed … Retry the job"
                self._logged.add((job.id, attempt, JobState.FAILED))
            failed = self._finish(
                job.id, JobState.FAILED, attempt, error_kind=exc.kind, error=exc.message
            )
            if again and failed:
                log_retry(failed, MAX_ATTEMPTS)
                return self.emit(
                    self.store.transition(job.id, JobState.QUEUED, expected=JobState.FAILED)
                )
            return failed
        except asyncio.CancelledError:
            # Shutdown: the child is already killed; leave the job for the next start.
            with contextlib.suppress(DocBatchError):  # NotFound too: the job was deleted
                current = self.store.get_job(job.id)
                if current.attempts == attempt and current.state in RECOVERABLE_STATES:
                    if current.state is JobState.PREPARING:
                        self.store.set_pages_deliverable(job.id, False)
                    self.store.transition(job.id, JobState.QUEUED, attempt=attempt)
            raise
        except Exception as exc:
            log.error("job %s failed unexpectedly", job.id, exc_info=True)
            return self._finish(
                job.id,
                JobState.FAILED,
                attempt,
                error_kind=ErrorKind.RETRYABLE,
                error=coded(
                    "internal_error", file=job.file_name, error=f"{type(exc).__name__}: {exc}"
                ),
            )

    def _child_died(self, job: Job, attempt: int, exc: ChildDied) -> Job | None:
        """Counted against the file; retried until MAX_CHILD_CRASHES, then failed."""
        crashes = self.store.get_job(job.id).crashes + 1
        self.store.update_job(job.id, attempt=attempt, crashes=crashes)
        if self.store.get_job(job.id).state is JobState.PREPARING:
            self.store.set_pages_deliverable(job.id, False)
        if crashes < MAX_CHILD_CRASHES:
            log.warning(
                "job %s (%s): %s; retrying (%s)",
                job.id,
                printable(job.file_name),
                exc,
                crashes,
            )
            return self._finish(job.id, JobState.QUEUED, attempt, error=None)
        return self._finish(
            job.id,
            JobState.FAILED,
            attempt,
            error_kind=exc.kind,
            error=coded("crashed_repeatedly", error=exc.message, times=crashes),
        )

    def _finish(
        self, job_id: int, state: JobState, attempt: int, **fields: Unpack[JobPatch]
    ) -> Job | None:
        try:
            return self.emit(self.store.transition(job_id, state, attempt=attempt, **fields))
        except InvalidTransition as exc:
            log.warning("job %s: %s", job_id, exc)
            return None

    def _unreachable(self, job: Job, attempt: int, exc: DocBatchError) -> Job | None:
        """Claude's API could not be reached (the SDK's retries and the job's attempts
        are spent): the job waits queued under a hold naming the host, not failed,
        until *Retry now* (or *Process offline*)."""
        host = claude_host(self.settings)
        hold_unreachable(self.store, job.id, host)  # first: whoever sees it queued sees why
        try:
            queued = self.store.transition(job.id, JobState.QUEUED, attempt=attempt, error=None)
        except InvalidTransition as moved:
            retry_unreachable(self.store, [job.id])
            log.warning("job %s: %s", job.id, moved)
            return None
        log.warning(
            "job %s (%s) held: Claude cannot be reached at %s: %s",
            job.id,
            printable(job.file_name),
            host,
            exc,
        )
        return self.emit(queued)

    def _held(self, job: Job, attempt: int, exc: OverBudget) -> Job | None:
        """A cap refused the job's next paid request: its answers so far are kept and
        it waits queued under the gate's hold (the admission's words) until the cap is
        raised or the operator lets it go."""
        try:
            queued = self.store.transition(job.id, JobState.QUEUED, attempt=attempt, error=None)
        except InvalidTransition as moved:
            log.warning("job %s: %s", job.id, moved)
            return None
        if self.gate is not None:
            self.gate.hold_over([job.id], exc.refusal)
        else:
            log.warning(
                "a budget cap was reached during the run; what was answered is kept, the rest "
                "waits: %s",
                exc,
            )
        return self.emit(queued)

    async def _run(
        self,
        job: Job,
        attempt: int,
        deadline: float,
        prepare_only: bool,
        lane: RenderLane | None = None,
    ) -> Job:
        assert self._pool is not None, "process() runs inside opened()"
        whole = pipeline_for(job)
        steps = whole
        if prepare_only:  # the batch engine extracts, checks and stores
            names = [step.name for step in whole]
            steps = whole[: names.index(SEPARATE) + 1] if SEPARATE in names else whole
        token = self._cancels[job.id] = CancelToken()
        ctx = JobContext(
            self.context,
            attempt,
            deadline,
            self.emit,
            cancel=token,
            sink=self.sink,
            pool=self._pool,
            ocr_slots=self._ocr_slots,
            claude=self.claude,
            purse=self.purse,
            bar=BAR if job.mode == ProcessingMode.BATCH.value else JobBar.of(whole),
            lane=lane,
        )
        try:
            return await run_steps(ctx, job, steps)
        finally:
            if self._cancels.get(job.id) is token:
                del self._cancels[job.id]


def pipeline_for(job: Job) -> list[Step]:
    """The steps the worker takes a job through, by its mode. A batch job stops
    after ``separate``: the batch engine extracts its documents (``batch``), then
    runs the same check and store steps, on the same bar (``steps.BAR``)."""
    if job.mode == ProcessingMode.DATA.value:
        return [DataPagesStep(), ExtractStep(extractor(job.mode)), CheckStep(), StoreStep()]
    front: list[Step] = [PrepareStep(), OcrStep(), SeparateStep()]
    if job.mode == ProcessingMode.BATCH.value:
        return front
    return [*front, ExtractStep(extractor(job.mode)), CheckStep(), StoreStep()]


async def run_job(
    context: EngineContext,
    job_id: int,
    *,
    worker: LocalWorker | None = None,
    listener: JobListener | None = None,
    prepare_only: bool = False,
    lane: RenderLane | None = None,
    budget_run: str | None = None,
    sink: ProgressSink | None = None,
) -> Job | None:
    """Run one job: the single entry of the local engine loop and of a Celery task,
    so that where a job runs never changes what happens to it.

    The local loop passes its ``worker``: executors already open and shared by the
    jobs running at once, and the run's Claude client. A Celery task passes none: the
    job gets a worker of its own, opened for it alone, with a sync-mode client when
    its mode needs one, all closed when it ends. None if another worker claimed the
    job first. ``budget_run``: the admitted run a Celery task's paid requests count
    against (the dispatcher's run cap); ``sink`` hears the job's bar (its own worker's).
    """
    if worker is not None:
        return await worker.process(job_id, prepare_only=prepare_only, lane=lane)
    job = context.store.get_job(job_id)
    key = anthropic_key(context.settings) if job.mode == ProcessingMode.SYNC else None
    claude = sync_client(context.settings, context.profile, key) if key else None
    own = LocalWorker(context, listener, claude, budget_run=budget_run, sink=sink)
    try:
        async with own.opened(warm=1):
            return await own.process(job_id, prepare_only=prepare_only)
    finally:
        if claude is not None:
            await claude.close()
