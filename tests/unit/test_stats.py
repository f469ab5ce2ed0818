"""Batch rows, the month summary, live sync counters and cancelling a batch."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from docbatch_gui.app.batch_stats import batch_row, month_start, month_summary
from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.errors import InvalidTransition, NotFound
from docbatch_gui.domain.models import BatchRecord, Job
from docbatch_gui.domain.states import JobState
from docbatch_gui.llm.metrics import SyncMetrics
from tests.batch_seed import seed

NOW = datetime(2026, 3, 15, 12, 0, tzinfo=UTC)


def record(**fields: object) -> BatchRecord:
    base = BatchRecord(
        request_ids=["a", "b", "c", "d"],
        job_ids=[1, 2],
        window_start=(NOW - timedelta(hours=2)).isoformat(),
        status="in_progress",
        batch_id="msgbatch_1",
        created_at=(NOW - timedelta(hours=2)).isoformat(),
        id=7,
    )
    return replace(base, **fields)


def job(
    state: JobState, *, mode: str = "batch", pages: int = 2, cost: float = 1.0, at: datetime = NOW
) -> Job:
    return Job(
        1,
        "f.pdf",
        "/f.pdf",
        "0" * 64,
        1,
        mode,
        state,
        None,
        pages=pages,
        cost_actual_usd=cost,
        updated_at=at,
    )


def test_a_running_batch_shows_progress_age_and_time_to_expiry() -> None:
    row = batch_row(
        record(
            request_counts={
                "processing": 1,
                "succeeded": 0,
                "errored": 0,
                "canceled": 0,
                "expired": 0,
            }
        ),
        {1: JobState.PROCESSING, 2: JobState.PROCESSING},
        NOW,
    )
    # Only "processing" moves while a batch runs: 3 of 4 left it.
    assert (row.done, row.total, row.progress) == (3, 4, 0.75)
    assert row.age == timedelta(hours=2) and row.expires_in == timedelta(hours=22)
    assert row.status == "in_progress" and row.cancelable and row.jobs == 2


def test_before_the_first_poll_the_total_is_the_requests_sent() -> None:
    row = batch_row(record(), {1: JobState.PROCESSING}, NOW)
    assert (row.done, row.total, row.progress) == (0, 4, 0.0)


def test_an_ended_batch_is_complete_and_never_expires() -> None:
    row = batch_row(
        record(
            status="ended",
            ended_at=(NOW - timedelta(hours=1)).isoformat(),
            request_counts={"processing": 0, "succeeded": 4},
        ),
        {},
        NOW,
    )
    assert row.progress == 1.0 and row.expires_in is None and not row.cancelable
    assert row.age == timedelta(hours=2)


def test_an_overdue_batch_shows_zero_left_not_a_negative_time() -> None:
    row = batch_row(record(created_at=(NOW - timedelta(hours=30)).isoformat()), {}, NOW)
    assert row.expires_in == timedelta(0)


def test_cancel_shows_at_once_and_an_ended_cancel_reads_canceled() -> None:
    pending = batch_row(record(), {1: JobState.CANCELED, 2: JobState.CANCELED}, NOW)
    assert pending.status == "canceling" and not pending.cancelable
    shared = batch_row(record(), {1: JobState.CANCELED, 2: JobState.PROCESSING}, NOW)
    assert shared.status == "in_progress" and shared.cancelable
    ended = batch_row(
        record(status="ended", request_counts={"processing": 0, "canceled": 4}), {}, NOW
    )
    assert ended.status == "canceled"


def test_month_summary_counts_this_months_finished_jobs_and_batch_savings() -> None:
    last_month = month_start(NOW) - timedelta(seconds=1)
    jobs = [
        job(JobState.DONE, mode="batch", pages=3, cost=0.5),
        job(JobState.NEEDS_REVIEW, mode="sync", pages=2, cost=0.4),
        job(JobState.FAILED, pages=9, cost=9.0),  # not finished well: not counted
        job(JobState.DONE, pages=5, cost=7.0, at=last_month),  # last month
    ]
    summary = month_summary(jobs, batch_discount=0.5, now=NOW)
    assert summary.pages == 5
    assert summary.cost_usd == pytest.approx(0.9)
    # The batch job would have cost 1.00 at sync prices; the sync one the same.
    assert summary.sync_cost_usd == pytest.approx(1.4)
    assert summary.savings_usd == pytest.approx(0.5)


def test_sync_metrics_are_consistent_across_threads() -> None:
    metrics = SyncMetrics(max_concurrency=4)

    def work() -> None:
        for n in range(1000):
            metrics.sending()
            metrics.answered()
            metrics.outcome(n % 10 != 0, attempts=2 if n % 4 == 0 else 1)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    snap = metrics.snapshot()
    assert (snap.in_flight, snap.succeeded, snap.failed, snap.retried) == (0, 3600, 400, 1000)
    assert 1 <= snap.peak_in_flight <= 4 and snap.max_concurrency == 4


def test_app_rows_and_summary_from_the_store(app: DocBatchApp) -> None:
    batches = seed(app.store)
    rows = {r.local_id: r for r in app.batch_rows()}
    assert [r.local_id for r in app.batch_rows()] == sorted(rows, reverse=True)
    running = rows[batches["open"].id]
    assert (running.done, running.total, running.jobs) == (2, 4, 2) and running.cancelable
    assert rows[batches["ended"].id].cost_actual_usd == 0.25
    summary = app.month_summary()
    assert summary.pages == 3 and summary.cost_usd == pytest.approx(0.25)
    assert summary.savings_usd == pytest.approx(0.25)


def test_cancel_batch_cancels_its_unfinished_jobs_only(app: DocBatchApp) -> None:
    batches = seed(app.store)
    open_ = batches["open"]
    canceled = app.cancel_batch(open_.id)
    assert sorted(j.id for j in canceled) == sorted(open_.job_ids)
    assert {app.store.get_job(j).state for j in open_.job_ids} == {JobState.CANCELED}
    row = next(r for r in app.batch_rows() if r.local_id == open_.id)
    assert row.status == "canceling" and not row.cancelable
    with pytest.raises(InvalidTransition):
        app.cancel_batch(batches["ended"].id)
    with pytest.raises(NotFound):
        app.cancel_batch(999)
