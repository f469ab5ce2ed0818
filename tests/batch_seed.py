"""Batches written straight into a store, as the engine would leave them: the
Batches view and its figures are tested without a run through the fake API."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from docbatch_gui.domain.models import BatchRecord, Job, NewJob
from docbatch_gui.domain.states import JobState
from docbatch_gui.storage.store import Store

PATH = (JobState.PREPARING, JobState.SUBMITTED, JobState.PROCESSING)
FINISH = (JobState.BUILDING, JobState.DONE)
OPEN_ID = "msgbatch_01K7Q3ZVA2CMHLNXJNJ4KQ2EFT"
ENDED_ID = "msgbatch_01K7MZ8PD1RQT6W3B5YHC0XGNA"


def batch_job(
    store: Store, name: str, *, finished: bool = False, cost: float = 0.0, pages: int = 3
) -> Job:
    """A batch-mode job waiting in a batch, or done with its cost and pages."""
    job = store.create_job(NewJob(name, f"/in/{name}", name.ljust(64, "0"), 10, mode="batch"))
    for state in PATH + (FINISH if finished else ()):
        job = store.transition(job.id, state)
    if finished:
        job = store.update_job(job.id, pages=pages, cost_actual_usd=cost)
    return job


def seed(store: Store, now: datetime | None = None) -> dict[str, BatchRecord]:
    """An open batch of two jobs (half done), an ended one with its cost, an intent."""
    now = now or datetime.now(UTC)
    running = [batch_job(store, f"scan_{n}.pdf") for n in (1, 2)]
    done = batch_job(store, "ledger.pdf", finished=True, cost=0.25)
    waiting = batch_job(store, "late.pdf")
    created = now - timedelta(hours=3)
    open_ = store.create_batch(
        BatchRecord(
            request_ids=["job_1_batch_1", "job_1_batch_2", "job_2_batch_1", "job_2_batch_2"],
            job_ids=[j.id for j in running],
            window_start=(created - timedelta(minutes=2)).isoformat(),
            status="in_progress",
            batch_id=OPEN_ID,
            created_at=created.isoformat(),
            request_counts={"processing": 2, "succeeded": 2, "errored": 0},
            cost_estimate_usd=0.1234,
        )
    )
    ended = store.create_batch(
        BatchRecord(
            request_ids=["job_3_batch_1"],
            job_ids=[done.id],
            window_start=(now - timedelta(days=1)).isoformat(),
            status="ended",
            batch_id=ENDED_ID,
            created_at=(now - timedelta(hours=20)).isoformat(),
            ended_at=(now - timedelta(hours=19)).isoformat(),
            request_counts={"processing": 0, "succeeded": 1, "errored": 0},
            results_done=True,
            cost_estimate_usd=0.3,
            cost_actual_usd=0.25,
            model="claude-opus-5-5",
            effort="effort low, thinking on",
            thinking_tokens=1200,
            input_tokens=6000,
            cache_read_tokens=3000,
            cache_write_tokens=1000,
        )
    )
    intent = store.create_batch(
        BatchRecord(
            request_ids=["job_4_batch_1"],
            job_ids=[waiting.id],
            window_start=now.isoformat(),
            cost_estimate_usd=0.05,
        )
    )
    return {"open": open_, "ended": ended, "intent": intent}
