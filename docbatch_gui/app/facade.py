"""The application facade: the one object the GUI and the CLI call.

It owns the store, the blob store and the worker, and turns operator intents ("add
these files", "run until they are done", "retry this job") into engine calls. It
knows nothing of Qt or terminals; progress goes out through a listener callback.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from docbatch_gui.app.budget import BudgetViews
from docbatch_gui.app.exports import DocumentExports
from docbatch_gui.app.job_moves import JobMoves, retried_line
from docbatch_gui.app.review import ReviewService
from docbatch_gui.app.run_watch import RunWatch
from docbatch_gui.app.views import BatchViews, RemoteSources
from docbatch_gui.app.webhooks import Webhooks
from docbatch_gui.checks.document import DocumentChecker
from docbatch_gui.config.profile import Profile, load_profile
from docbatch_gui.coordination.leader import RedisLeaderLock, leader_key
from docbatch_gui.coordination.lock import WorkerLock
from docbatch_gui.coordination.workload import workload_for
from docbatch_gui.domain.errors import ConfigError, CoordinationUnavailable, DocBatchError, NotFound
from docbatch_gui.domain.models import Document, Job, Page
from docbatch_gui.domain.progress import CancelToken, ProgressSink
from docbatch_gui.domain.states import (
    FINAL_STATES,
    PAUSED_SETTING,
    SUCCESS_STATES,
    JobState,
    ProcessingMode,
)
from docbatch_gui.engine.budget import Hold
from docbatch_gui.engine.context import EngineContext, anthropic_key, batch_client, sync_client
from docbatch_gui.engine.documents import finished
from docbatch_gui.engine.holds import (
    Holds,
    JobHold,
    retry_unreachable,
    unreachable_jobs,
    vision_credentials_found,
)
from docbatch_gui.engine.intake import IntakeReport, intake_paths
from docbatch_gui.engine.job_log import log_operator
from docbatch_gui.engine.recovery import recover_interrupted
from docbatch_gui.engine.worker import MAX_INTERRUPTIONS, JobListener, LocalWorker
from docbatch_gui.llm.metrics import SyncMetrics
from docbatch_gui.pipeline.isolate import kill_all
from docbatch_gui.pipeline.render import make_thumbnail
from docbatch_gui.registry.limits import SheetLimits
from docbatch_gui.registry.service import RegistryService
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.secrets import mask_uri_password, remember_secrets, secret_values
from docbatch_gui.settings.sections import Execution
from docbatch_gui.storage.backends import open_blobs, open_store, store_identity
from docbatch_gui.storage.blobs import BlobStore
from docbatch_gui.storage.store import Store

if TYPE_CHECKING:
    from docbatch_gui.coordination.workload import Workload
    from docbatch_gui.llm.batches import BatchClient
    from docbatch_gui.llm.claude import ClaudeSync
    from docbatch_gui.registry.service import RegistryService

log = logging.getLogger(__name__)

WATCH_INTERVAL = 0.5


async def first_of(*events: asyncio.Event, timeout: float | None = None) -> None:
    """Wait until one of the events is set, or the timeout passed."""
    waiting = [asyncio.ensure_future(e.wait()) for e in events]
    try:
        await asyncio.wait(waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in waiting:
            task.cancel()


class DocBatchApp(JobMoves, BatchViews, RemoteSources, BudgetViews):
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        remember_secrets(secret_values(settings))  # scrubbed from every error and log line
        #: who runs the worker loop: one per data directory, or one per team (Redis)
        self.lock: WorkerLock | RedisLeaderLock = (
            RedisLeaderLock(
                settings.redis_url,
                ttl=settings.leader_ttl,
                key=leader_key(store_identity(settings)),
            )
            if settings.redis_url
            else WorkerLock(settings.data_dir)
        )
        #: interrupted jobs were recovered (once, when the worker lock is first held)
        self.recovered = False
        #: jobs this process sent to Celery workers (distributed execution)
        self._dispatched: set[int] = set()
        #: the critical error that stopped the last run, for the operator
        self.halted: DocBatchError | None = None
        #: the run the budget caps held before anything of it was sent
        self.held: Hold | None = None
        #: live sync-mode counters, shared by every run's client (the GUI polls them)
        self.sync_metrics = SyncMetrics(settings.max_concurrency)

    # -- resources (opened on first use so that start-up stays fast) -------------------

    @cached_property
    def store(self) -> Store:
        """SQLite in the data directory, or the team's MongoDB when MONGODB_URI is set."""
        return open_store(self.settings)

    @cached_property
    def blobs(self) -> BlobStore:
        """A local folder, or the team's MinIO bucket when MINIO_ENDPOINT is set."""
        return open_blobs(self.settings)

    @cached_property
    def registry(self) -> RegistryService:
        """Registry import, search, review and export."""
        return RegistryService(
            self.store, self.workload, SheetLimits.of(self.settings), self.profile
        )

    @cached_property
    def exports(self) -> DocumentExports:
        """Documents out to xlsx, csv and json, in saved layouts."""
        return DocumentExports(self.store, self.settings, self.profile)

    @cached_property
    def webhooks(self) -> Webhooks:
        """Failed and waiting webhook deliveries, and sending them again."""
        return Webhooks(self.settings)

    @cached_property
    def workload(self) -> Workload:
        """The workload manager: shared in Redis with ``REDIS_URL``, else this process's."""
        return workload_for(self.settings.redis_url, ttl=self.settings.workload_ttl)

    @cached_property
    def profile(self) -> Profile:
        """The profile DOCBATCH_PROFILE names, else the bundled one."""
        return load_profile(self.settings.profile_path)

    @cached_property
    def context(self) -> EngineContext:
        """What the engine's steps work with: this facade's store, blobs and settings."""
        return EngineContext(self.store, self.blobs, self.settings, self.profile)

    def close(self) -> None:
        kill_all()
        self.lock.release()
        if "store" in self.__dict__:
            self.store.close()

    # -- intents ----------------------------------------------------------------------

    @cached_property
    def anthropic_key(self) -> str | None:
        """From ANTHROPIC_API_KEY, else the OS keyring (where the GUI stores it)."""
        return anthropic_key(self.settings)

    def resolve_mode(self, requested: str | None) -> str:
        if requested is None and self.anthropic_key is None:
            return ProcessingMode.OFFLINE.value
        mode = ProcessingMode(requested) if requested else self.settings.processing_mode
        if mode in (ProcessingMode.SYNC, ProcessingMode.BATCH) and self.anthropic_key is None:
            raise ConfigError(
                f"--mode {mode.value} needs an Anthropic API key: set ANTHROPIC_API_KEY, or "
                "use --mode offline."
            )
        return mode.value

    def holds(self) -> Holds:
        """Which queued jobs this installation must hold, for what it lacks."""
        host, unreachable = unreachable_jobs(self.store)
        return Holds(
            has_anthropic_key=self.anthropic_key is not None,
            has_vision_credentials=vision_credentials_found(self.settings),
            unreachable=unreachable,
            unreachable_host=host,
        )

    def hold_of(
        self, job: Job, holds: Holds | None = None, jobs_by_id: dict[int, Job] | None = None
    ) -> JobHold | None:
        """Why ``job`` cannot start here (or, for a duplicate, its original); None
        when nothing it needs is missing. ``holds`` and ``jobs_by_id``: the holds and
        jobs already read this moment (else they are read)."""
        holds = holds or self.holds()
        if job.state is JobState.DUPLICATE and job.duplicate_of is not None:
            original = (jobs_by_id or {}).get(job.duplicate_of)
            return holds.of(original or self.store.get_job(job.duplicate_of))
        return holds.of(job)

    def retry_now(self, job_ids: Iterable[int] | None = None) -> list[int]:
        """*Retry now* on jobs held because Claude could not be reached: the hold is
        lifted and they are queued for the worker again. Returns the ids lifted."""
        asked = None if job_ids is None else list(job_ids)
        queued = self.store.list_jobs(ids=asked, states=[JobState.QUEUED])
        holds = self.holds()  # read once: the holds of every job, before and after
        before = {job.id: holds.of(job) for job in queued}
        lifted = retry_unreachable(self.store, asked)
        after = self.holds()
        for job in self.store.list_jobs(ids=lifted) if lifted else []:
            log_operator(job, retried_line(before.get(job.id), after.of(job)))
        return lifted

    def process_offline(self, job_ids: Iterable[int]) -> list[Job]:
        """The queued jobs among ``job_ids`` are read locally instead of by Claude:
        what lifts a hold for a missing key. Other jobs are left as they are."""
        moved = []
        for job in self.store.list_jobs(ids=list(job_ids), states=[JobState.QUEUED]):
            if job.mode is ProcessingMode.OFFLINE:
                continue
            changed = self.store.update_job(job.id, mode=ProcessingMode.OFFLINE.value)
            log_operator(changed, "set to be processed offline (no Claude request)")
            moved.append(changed)
        retry_unreachable(self.store, [job.id for job in moved])  # Claude not needed now
        return moved

    def batch_client(self) -> BatchClient | None:
        if self.anthropic_key is None:
            return None
        return batch_client(self.settings, self.anthropic_key)

    def set_paused(self, paused: bool) -> None:
        """The worker's pause flag, in the store: the GUI and the CLI share it.

        Paused, no new job starts and no batch is submitted or polled; steps already
        running finish.
        """
        self.store.set_setting(PAUSED_SETTING, paused)

    def is_paused(self) -> bool:
        return bool(self.store.get_setting(PAUSED_SETTING, False))

    def may_start(self) -> bool:
        return not self.is_paused()

    def claude(self) -> ClaudeSync | None:
        """A client for this run, or None without a key (offline jobs only)."""
        if self.anthropic_key is None:
            return None
        return sync_client(self.settings, self.profile, self.anthropic_key, self.sync_metrics)

    def add(
        self,
        paths: Iterable[Path | str],
        *,
        mode: str | None = None,
        force: bool = False,
        progress: ProgressSink | None = None,
        cancel: CancelToken | None = None,
        folder: Path | None = None,
    ) -> IntakeReport:
        """Queue files and folders. ``folder``: the paths were found in that folder
        (a watched one), so its rules apply as if the folder had been added."""
        return intake_paths(
            self.store,
            self.blobs,
            paths,
            mode=self.resolve_mode(mode),
            force=force,
            max_file_mb=self.settings.max_file_mb,
            progress=progress,
            cancel=cancel,
            links_out=self.settings.follow_symlinks_out,
            folder=folder,
        )

    def jobs(self, ids: Iterable[int] | None = None) -> list[Job]:
        """The queue: every job but those deleted with their documents kept."""
        return [job for job in self.store.list_jobs(ids=ids) if not job.archived]

    def documents(self, job_id: int | None = None) -> list[Document]:
        return self.store.list_documents(job_id)

    def documents_for(self, job_ids: Iterable[int]) -> list[Document]:
        """Documents of these jobs; a duplicate shows its original's documents."""
        wanted: list[int] = []
        for job in self.store.list_jobs(ids=job_ids):
            target = job.duplicate_of if job.state is JobState.DUPLICATE else job.id
            if target is not None and target not in wanted:
                wanted.append(target)
        return [d for job_id in wanted for d in self.store.list_documents(job_id)]

    def pages(self, job_id: int) -> list[Page]:
        return self.store.list_pages(job_id)

    def thumbnail(self, job_id: int, page_no: int) -> bytes:
        """A page's thumbnail, made on first request and kept in the blob store.

        The prepare step makes only the first page's (the queue shows it); the others
        are made here when a person looks at them.
        """
        page, image = self._rendered(job_id, page_no)
        if page.thumb_sha and self.blobs.exists(page.thumb_sha):
            return self.blobs.read(page.thumb_sha)
        thumb = make_thumbnail(self.blobs.read(image))
        self.store.put_pages([replace(page, thumb_sha=self.blobs.put_bytes(thumb))])
        return thumb

    @cached_property
    def review(self) -> ReviewService:
        checker = DocumentChecker(self.profile, min_year=self.settings.check_min_year)
        return ReviewService(
            self.store,
            lambda job: finished(self.context, job),
            checker=checker,
            keep_values=self.settings.counterparty_kept,
        )

    def page_image(self, job_id: int, page_no: int) -> bytes:
        """The rendered page (upright), as stored: what Claude saw."""
        return self.blobs.read(self._rendered(job_id, page_no)[1])

    def _rendered(self, job_id: int, page_no: int) -> tuple[Page, str]:
        """The page and its image's hash; NotFound when it was not rendered."""
        page = next((p for p in self.store.list_pages(job_id) if p.page_no == page_no), None)
        if page is None or page.image_sha is None:
            raise NotFound("page", page_no, f"job {job_id} has no rendered page {page_no}")
        return page, page.image_sha

    # -- running ----------------------------------------------------------------------

    async def _batch_cycle(self, worker: LocalWorker, client: BatchClient | None) -> bool:
        """One submit-and-poll cycle of the batch engine; True while batches are open."""
        if client is None:
            return False
        # deferred: the Anthropic SDK, 2.8 s to import
        from docbatch_gui.engine.batch import BatchEngine

        engine = BatchEngine(self.context, client, worker)
        if not engine.has_work():
            return False
        await engine.cycle()
        self.halted = engine.halted or self.halted
        return engine.has_work()

    def _leased(self, job_id: int) -> bool:
        """A Celery worker holds this job now (its workload key lives): a new leader's
        recovery must leave it running, or it would be processed and billed twice."""
        return self.workload.holds("job_processing", job_id)

    def _settled(self, watch: RunWatch | None, once: bool, listener: JobListener | None) -> bool:
        """Whether the run is over: every job of the command's run is settled or held
        (the listener hears each job written since the last loop)."""
        if watch is None:
            return once
        for job in watch.refresh():
            if listener:
                listener(job)
        jobs = watch.jobs
        holds: Holds | None = None  # read once a loop, and only when a job is unsettled
        for job in jobs.values():
            if self.is_settled(job, jobs):
                continue
            holds = holds or self.holds()
            # a held job waits for the operator, not for a worker: a command does not wait
            if self.hold_of(job, holds, jobs) is None:
                return False
        return True

    def is_settled(self, job: Job, jobs_by_id: dict[int, Job]) -> bool:
        """Final, and for a duplicate, its original is final too."""
        if job.state is JobState.DUPLICATE and job.duplicate_of is not None:
            original = jobs_by_id.get(job.duplicate_of) or self.store.get_job(job.duplicate_of)
            return original.state in FINAL_STATES
        return job.state in FINAL_STATES

    def succeeded(self, job: Job) -> bool:
        """The exit-code rule: done or needs_review; a duplicate counts as its original."""
        if job.state is JobState.DUPLICATE and job.duplicate_of is not None:
            return self.store.get_job(job.duplicate_of).state in SUCCESS_STATES
        return job.state in SUCCESS_STATES

    async def run(
        self,
        job_ids: Sequence[int] | None = None,
        listener: JobListener | None = None,
        *,
        once: bool = True,
        stop: asyncio.Event | None = None,
        drain: asyncio.Event | None = None,
    ) -> list[Job]:
        """Process the queue until the given jobs (or all queued jobs) are settled.

        If another process on this data directory holds the worker lock (the GUI, say),
        this one only watches the store while that one works. ``stop`` ends the run at
        once (running steps are interrupted and resume on the next start); ``drain``
        ends it gently: no job starts or is sent any more, no batch cycle begins, and
        the run returns once the jobs this process runs have finished.
        """
        stop = stop or asyncio.Event()
        drain = drain or asyncio.Event()

        def may_start() -> bool:
            return not drain.is_set() and self.may_start()

        self.halted = None
        self.held = None
        gate = self.budget_gate()
        batch_pending = False
        watch = None if job_ids is None else RunWatch(self.store, job_ids)
        clients: tuple[ClaudeSync | None, BatchClient | None] | None = None
        try:
            while not stop.is_set():
                distributed = self.settings.execution is Execution.CELERY
                if distributed and not drain.is_set():
                    # Imported here: Celery costs half a second, for teams that use it.
                    # deferred: Celery (team extra), 0.3 s with its app
                    from docbatch_gui.distributed.dispatch import dispatch_queued

                    dispatch_queued(self.store, self.settings, self._dispatched, gate)
                if self.lock.acquire():
                    if not self.recovered:
                        recover_interrupted(
                            self.store,
                            max_attempts=MAX_INTERRUPTIONS,
                            leased=self._leased if distributed else None,
                        )
                        self.recovered = True
                    # One pair of API clients for the whole run: setting one up loads
                    # certificates and costs milliseconds that add up over cycles.
                    clients = clients or (self.claude(), self.batch_client())
                    claude, batches = clients
                    worker = LocalWorker(
                        self.context,
                        listener,
                        claude,
                        may_start=may_start,
                        workload=self.workload,
                        gate=gate,
                    )
                    if not distributed:  # else Celery workers run queued jobs
                        await worker.run_until_idle(stop)
                    if not drain.is_set():
                        batch_pending = await self._batch_cycle(worker, batches)
                    self.halted = worker.halted or self.halted
                    if self.halted is not None:
                        # Auth or billing: stop here, say it once; queued jobs stay queued.
                        break
                    self.held = gate.hold
                    if self.held is not None and set(self.held.jobs) & set(job_ids or ()):
                        break  # a command's run over a cap: its jobs stay queued
                elif isinstance(self.lock, RedisLeaderLock) and self.lock.unreachable:
                    self.halted = CoordinationUnavailable(
                        f"Redis at {mask_uri_password(self.settings.redis_url or '')} cannot be "
                        f"used ({self.lock.unreachable}): no machine can lead this queue. "
                        "Check REDIS_URL and its password, then resume."
                    )
                    break
                if drain.is_set() or self._settled(watch, once, listener):
                    break
                interval = self.settings.poll_interval if batch_pending else WATCH_INTERVAL
                await first_of(stop, drain, timeout=interval)
        finally:
            for client in clients or ():
                if client is not None:
                    await client.close()
        return self.store.list_jobs(ids=job_ids) if job_ids is not None else self.jobs()
