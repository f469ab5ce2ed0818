"""Celery tasks: a job (preparation, sync or offline extraction) and the registry steps.

Each task opens its own store and blob connections (a task may run on any machine),
holds its workload slot while it runs (the registry service holds its own), and
reports progress as ``update_state(state="PROGRESS", meta={"progress", "message"})``;
whoever holds the task's ``AsyncResult`` reads it there. A job runs
through the engine's ``run_job``, exactly as in the desktop's own loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import asdict, replace
from typing import Any

from celery import Task

from docbatch_gui.config.profile import load_profile
from docbatch_gui.coordination.workload import Workload, workload_for
from docbatch_gui.distributed.arguments import (
    budget_run_argument,
    registry_config_argument,
    shared_path,
    task_id_argument,
)
from docbatch_gui.distributed.celery_app import app
from docbatch_gui.domain.errors import InvalidTransition, NotFound
from docbatch_gui.domain.messages import coded
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.progress import Progress, ProgressSink
from docbatch_gui.domain.registry import RegistryStatus
from docbatch_gui.domain.said import cause
from docbatch_gui.domain.states import RECOVERABLE_STATES, JobState
from docbatch_gui.engine.context import opened_context
from docbatch_gui.engine.faults import crash_once
from docbatch_gui.engine.worker import run_job
from docbatch_gui.registry.limits import SheetLimits
from docbatch_gui.registry.service import RegistryService
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.backends import open_store

log = logging.getLogger(__name__)

PROGRESS = "PROGRESS"
REPORT_EVERY_S = 0.5  # progress writes to Redis at most this often per task
MINUTE = 60
#: soft and hard time limits (seconds); a search gets 60 and 65 minutes
LIMITS = {"soft_time_limit": 30 * MINUTE, "time_limit": 35 * MINUTE}
SEARCH_LIMITS = {"soft_time_limit": 60 * MINUTE, "time_limit": 65 * MINUTE}


def task_settings() -> Settings:
    return load_settings()


def task_workload(settings: Settings) -> Workload:
    """The team's workload manager (Redis), as the desktop sees it."""
    return workload_for(settings.redis_url, ttl=settings.workload_ttl)


def reporter(task: Task) -> ProgressSink:
    """Progress to the result backend as ``{progress 0..1, message}``, throttled; the
    last word (a finished ``Progress``) always gets through."""
    last = [0.0]

    def report(progress: Progress) -> None:
        now = time.monotonic()
        if progress.finished or now - last[0] >= REPORT_EVERY_S:
            last[0] = now
            if task.request.id:  # called directly (tests, eager) there is no result to update
                meta = {"progress": round(progress.share or 0.0, 3), "message": progress.what}
                task.update_state(state=PROGRESS, meta=meta)

    return report


def _requeue_after_lost_worker(store: Any, job: Job) -> None:
    """A redelivered task whose job is mid-flight: its worker died. Put the job back
    in the queue, fenced by its attempt, so the claim below starts a new attempt."""
    if job.state in RECOVERABLE_STATES:
        with contextlib.suppress(InvalidTransition):
            store.set_pages_deliverable(job.id, False)
            store.transition(job.id, JobState.QUEUED, expected=job.state, attempt=job.attempts)
            log.warning("job %s: worker lost during %s; running it again", job.id, job.state.value)


@app.task(bind=True, name="docbatch.process_job", **LIMITS)
def process_job(
    self: Task, job_id: int, prepare_only: bool = False, budget_run: str | None = None
) -> dict[str, Any]:
    """Prepare a job and, unless ``prepare_only`` (batch mode), extract its documents;
    its paid requests count against the admitted run ``budget_run`` (the run cap)."""
    settings = task_settings()
    job_id = task_id_argument(job_id, "job")
    budget_run = budget_run_argument(budget_run)
    report = reporter(self)
    states: list[JobState] = []

    def on_job(job: Job) -> None:
        """Each new state said; the bar between them comes through the job's context
        (``sink``), step by step."""
        if not states or states[-1] is not job.state:
            states.append(job.state)
            report(Progress.of_share(job.progress, f"{job.file_name}: {job.state.value}"))
        if job.state is JobState.PREPARING:
            crash_once("celery_mid_job")  # tests only: a worker killed mid-task

    slot = task_workload(settings).track_task("job_processing", job_id)
    with opened_context(settings) as context, slot:  # the slot is held while it runs
        job = context.store.get_job(job_id)
        if (self.request.delivery_info or {}).get("redelivered"):
            _requeue_after_lost_worker(context.store, job)
        final = asyncio.run(
            run_job(
                context,
                job_id,
                listener=on_job,
                prepare_only=prepare_only,
                budget_run=budget_run,
                sink=report,
            )
        )
        state = final.state.value if final is not None else context.store.get_job(job_id).state
        report(Progress(1, 1, f"job {job_id}: {state}"))
        return {
            "job_id": job_id,
            "state": str(state),
            "claimed": final is not None,
            "worker": self.request.hostname,
        }


def _registry_task(task: Task, call: Callable[[RegistryService, ProgressSink], Any]) -> Any:
    """The frame every registry task shares: its own connections and progress. The
    service already does the bookkeeping of import and search: their workload slot
    (``registry_search`` is one at a time, team-wide), and status ``error`` with
    ``task_error`` on any failure; each call re-raises, so Celery marks the task
    failed too."""
    settings = task_settings()
    store = open_store(settings)  # the registry needs no blobs
    try:
        profile = load_profile(settings.profile_path)  # names types and fields in exports
        service = RegistryService(store, task_workload(settings), SheetLimits.of(settings), profile)
        return call(service, reporter(task))
    finally:
        store.close()


def _rows(report: ProgressSink, what: str) -> ProgressSink:
    """The service's row counts, told as the sentence the GUI and the CLI show."""

    def progress(step: Progress) -> None:
        counted = f"{step.done} of {step.total}" if step.total else str(step.done)
        report(replace(step, what=f"{what}: {counted} rows"))

    return progress


@app.task(bind=True, name="docbatch.registry_import", **LIMITS)
def registry_import(
    self: Task,
    file: str,
    config: dict[str, Any] | str,
    name: str | None = None,
    registry_id: int | None = None,
    force: bool = False,
) -> dict[str, Any]:
    """``file`` must be readable by the worker (a shared folder)."""
    settings = task_settings()
    path = shared_path(settings, file, "registry file")
    cfg = registry_config_argument(settings, config)
    if registry_id is not None:
        registry_id = task_id_argument(registry_id, "registry")

    def call(service: RegistryService, report: ProgressSink) -> dict[str, Any]:
        summary = service.import_registry(
            str(path), cfg, name=None if name is None else str(name)[:200],
            registry_id=registry_id, force=force is True, progress=_rows(report, "import"),
        )  # fmt: skip
        report(Progress(1, 1, f"registry {summary.registry_id}: {summary.kept} rows imported"))
        return asdict(summary)

    return _registry_task(self, call)


@app.task(bind=True, name="docbatch.registry_search", **SEARCH_LIMITS)
def registry_search(self: Task, registry_id: int) -> dict[str, Any]:
    registry_id = task_id_argument(registry_id, "registry")

    def call(service: RegistryService, report: ProgressSink) -> dict[str, Any]:
        summary = service.search(registry_id, progress=_rows(report, "search"))
        matched = f"{summary.matched} of {summary.rows} rows matched"
        report(Progress(1, 1, f"registry {registry_id}: {matched}"))
        return asdict(summary)

    return _registry_task(self, call)


@app.task(bind=True, name="docbatch.registry_export", **LIMITS)
def registry_export(self: Task, registry_id: int, out: str) -> dict[str, Any]:
    """Write the .xlsx to ``out`` (a path the worker can write and the operator read).
    Export keeps the registry's status as it is in the desktop, so only a Celery
    export records its failure, here."""
    registry_id = task_id_argument(registry_id, "registry")
    path = shared_path(task_settings(), out, "export file")

    def call(service: RegistryService, report: ProgressSink) -> dict[str, Any]:
        try:
            rows = service.export(registry_id, path, progress=_rows(report, "export"))
        except Exception as exc:
            failed = coded("log_registry_export_failed", error=cause(exc)).english
            try:
                service.store.update_registry(
                    registry_id, status=RegistryStatus.ERROR, task_error=failed
                )
            except NotFound:
                log.error("registry %s failed and no longer exists: %s", registry_id, failed)
            raise
        report(Progress(1, 1, f"registry {registry_id}: {rows} rows exported"))
        return {"registry_id": registry_id, "rows": rows, "out": str(path)}

    return _registry_task(self, call)
