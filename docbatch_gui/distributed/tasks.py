"""Celery tasks: a job (preparation, sync or offline extraction) and the registry steps.

Each task opens its own store and blob connections (a task may run on any machine),
holds its workload slot while it runs (the registry service holds its own), and reports progress as
``update_state(state="PROGRESS", meta={"progress", "message"})``; the GUI and the CLI
read it through ``AsyncResult`` (``task_progress``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

from celery import Task

from docbatch_gui.distributed import registry_calls
from docbatch_gui.distributed.celery_app import app
from docbatch_gui.domain.errors import InvalidTransition
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.progress import Progress, ProgressSink
from docbatch_gui.domain.states import RECOVERABLE_STATES, JobState
from docbatch_gui.engine.faults import crash_once
from docbatch_gui.settings.model import Settings, load_settings

log = logging.getLogger(__name__)

PROGRESS = "PROGRESS"
REPORT_EVERY_S = 0.5  # progress writes to Redis at most this often per task
MINUTE = 60
#: soft and hard time limits (seconds); a search gets 60 and 65 minutes
LIMITS = {"soft_time_limit": 30 * MINUTE, "time_limit": 35 * MINUTE}
SEARCH_LIMITS = {"soft_time_limit": 60 * MINUTE, "time_limit": 65 * MINUTE}


def task_settings() -> Settings:
    return load_settings()


@contextlib.contextmanager
def opened_app(settings: Settings) -> Iterator[Any]:
    """The facade with this task's own store and blob connections."""
    from docbatch_gui.app.facade import DocBatchApp

    docapp = DocBatchApp(settings)
    try:
        yield docapp
    finally:
        docapp.close()


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
            log.warning("job %s: worker lost during %s; running it again", job.id, job.state)


async def _run_job(docapp: Any, job_id: int, listener: Callable[[Job], None], prepare: bool) -> Any:
    from docbatch_gui.engine.worker import LocalWorker

    job = docapp.store.get_job(job_id)
    claude = docapp.claude() if job.mode == "sync" else None
    worker = LocalWorker(
        docapp.store, docapp.blobs, docapp.settings, docapp.profile, listener, claude
    )
    try:
        async with worker.opened(warm=1):
            return await worker.process(job_id, prepare_only=prepare)
    finally:
        if claude is not None:
            await claude.close()


@app.task(bind=True, name="docbatch.process_job", **LIMITS)
def process_job(self: Task, job_id: int, prepare_only: bool = False) -> dict[str, Any]:
    """Prepare a job and, unless ``prepare_only`` (batch mode), extract its documents."""
    settings = task_settings()
    report = reporter(self)

    def on_job(job: Job) -> None:
        report(Progress.of_share(job.progress, f"{job.file_name}: {job.state.value}"))
        if job.state is JobState.PREPARING:
            crash_once("celery_mid_job")  # tests only: a worker killed mid-task

    with opened_app(settings) as docapp, docapp.workload.track_task("job_processing", job_id):
        job = docapp.store.get_job(job_id)
        if (self.request.delivery_info or {}).get("redelivered"):
            _requeue_after_lost_worker(docapp.store, job)
        final = asyncio.run(_run_job(docapp, job_id, on_job, prepare_only))
        state = final.state.value if final is not None else docapp.store.get_job(job_id).state
        report(Progress(1, 1, f"job {job_id}: {state}"))
        return {
            "job_id": job_id,
            "state": str(state),
            "claimed": final is not None,
            "worker": self.request.hostname,
        }


def _registry_task(task: Task, call: Callable[..., dict[str, Any]], *args: Any, **kw: Any) -> Any:
    """The frame every registry task shares: its own connections and progress. The
    service holds the workload slot and records failures (``registry_calls``)."""
    with opened_app(task_settings()) as docapp:
        return call(docapp.registry, reporter(task), *args, **kw)


@app.task(bind=True, name="docbatch.registry_import", **LIMITS)
def registry_import(
    self: Task,
    file: str,
    config: dict[str, Any] | str,
    name: str | None = None,
    registry_id: int | None = None,
    force: bool = False,
) -> dict[str, Any]:
    return _registry_task(
        self, registry_calls.import_rows, file, config,
        name=name, registry_id=registry_id, force=force,
    )  # fmt: skip


@app.task(bind=True, name="docbatch.registry_search", **SEARCH_LIMITS)
def registry_search(self: Task, registry_id: int) -> dict[str, Any]:
    return _registry_task(self, registry_calls.search, registry_id)


@app.task(bind=True, name="docbatch.registry_export", **LIMITS)
def registry_export(self: Task, registry_id: int, out: str) -> dict[str, Any]:
    return _registry_task(self, registry_calls.export, registry_id, out)


def task_progress(task_id: str) -> dict[str, Any]:
    """What the GUI and ``docbatch`` show for a task: state, progress 0..1, message."""
    result = app.AsyncResult(task_id)
    info = result.info if isinstance(result.info, dict) else {}
    if result.state == "SUCCESS":
        return {"state": "SUCCESS", "progress": 1.0, "message": "done", "result": result.result}
    if result.state == "FAILURE":
        return {"state": "FAILURE", "progress": 0.0, "message": str(result.info)}
    return {
        "state": result.state,
        "progress": float(info.get("progress", 0.0)),
        "message": str(info.get("message", "")),
    }
