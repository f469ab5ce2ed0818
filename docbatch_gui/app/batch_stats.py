"""Figures for the Batches view, computed without Qt so the CLI and tests share them.

Two things live here:

* ``BatchRow``: one batch as an operator reads it (progress, age, time left before
  the API expires it, cost), derived from a ``BatchRecord`` and the states of its jobs;
* ``MonthSummary``: pages and cost this month, and what batch mode saved against
  sync prices for the same usage.

The live sync counters are in ``docbatch_gui.llm.metrics``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from docbatch_gui.domain.models import BatchRecord, Job
from docbatch_gui.domain.states import FINAL_STATES, SUCCESS_STATES, JobState
from docbatch_gui.engine.budget import month_start

#: the Batches API ends a batch that has not finished 24 h after its creation
BATCH_LIFETIME = timedelta(hours=24)
#: local statuses of a batch whose requests may still run (intent: not created yet)
CANCELABLE = ("intent", "in_progress")
OPEN_STATUSES = ("intent", "in_progress", "canceling")


def _parse(value: str | None) -> datetime | None:
    if not value:
        return None
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def requests_total(batch: BatchRecord) -> int:
    """The requests we put in the batch (the API's counts only add up to it once
    the batch ended)."""
    return len(batch.request_ids) or sum(batch.request_counts.values())


def requests_done(batch: BatchRecord) -> int:
    """Requests no longer processing. While a batch runs only ``processing`` moves
    (the other counts stay 0 until it ends), so this is the total minus processing."""
    counts = batch.request_counts
    if not counts:
        return 0
    return max(0, requests_total(batch) - counts.get("processing", 0))


def shown_cost(batch: BatchRecord) -> tuple[float | None, bool]:
    """The cost to show and whether it is only an estimate (the actual one arrives
    with the results)."""
    if batch.cost_actual_usd is not None:
        return batch.cost_actual_usd, False
    return batch.cost_estimate_usd, batch.cost_estimate_usd is not None


@dataclass(frozen=True)
class BatchRow:
    """One batch, ready to display; ``status`` adds ``canceled`` (ended after a
    cancel) and shows ``canceling`` as soon as every job of an open batch was
    canceled, before the engine's next poll tells the API."""

    local_id: int
    batch_id: str | None
    status: str
    done: int
    total: int
    progress: float
    age: timedelta | None
    expires_in: timedelta | None
    jobs: int
    cost_estimate_usd: float | None
    cost_actual_usd: float | None
    created_at: datetime | None
    cancelable: bool
    model: str | None = None
    effort: str | None = None  # "effort low, thinking off"
    thinking_tokens: int = 0
    #: share of the prompt tokens read from the prompt cache; None before results
    cache_hit_rate: float | None = None

    @property
    def label(self) -> str:
        return self.batch_id or f"intent {self.local_id}"


def batch_row(
    batch: BatchRecord, job_states: Mapping[int, JobState], now: datetime | None = None
) -> BatchRow:
    now = now or datetime.now(UTC)
    assert batch.id is not None
    created = _parse(batch.created_at) or _parse(batch.window_start)
    total = requests_total(batch)
    done = requests_done(batch)
    status = batch.status
    states = {job_states[j] for j in batch.job_ids if j in job_states}
    abandoned = bool(states) and states == {JobState.CANCELED}
    if status == "ended":
        counts = batch.request_counts
        if counts.get("canceled") and not counts.get("succeeded") and not counts.get("errored"):
            status = "canceled"
        progress = 1.0
    elif status in ("in_progress", "intent") and abandoned:
        status = "canceling"
        progress = done / total if total else 0.0
    else:
        progress = done / total if total else 0.0
    open_ = batch.status in OPEN_STATUSES
    expires_in = None
    if open_ and _parse(batch.created_at) is not None:
        expires_in = max(timedelta(0), created + BATCH_LIFETIME - now)  # type: ignore[operator]
    return BatchRow(
        local_id=batch.id,
        batch_id=batch.batch_id,
        status=status,
        done=done,
        total=total,
        progress=progress,
        age=None if created is None else max(timedelta(0), now - created),
        expires_in=expires_in,
        jobs=len(batch.job_ids),
        cost_estimate_usd=batch.cost_estimate_usd,
        cost_actual_usd=batch.cost_actual_usd,
        created_at=created,
        cancelable=batch.status in CANCELABLE and any(s not in FINAL_STATES for s in states),
        model=batch.model,
        effort=batch.effort,
        thinking_tokens=batch.thinking_tokens,
        cache_hit_rate=batch.cache_hit_rate,
    )


@dataclass(frozen=True)
class MonthSummary:
    month_start: datetime
    pages: int
    cost_usd: float
    sync_cost_usd: float

    @property
    def savings_usd(self) -> float:
        """What the same usage would have cost at sync prices, minus what it cost."""
        return max(0.0, self.sync_cost_usd - self.cost_usd)


def month_summary(
    jobs: Iterable[Job], batch_discount: float, now: datetime | None = None
) -> MonthSummary:
    """Jobs finished this month (done or to review): their pages and actual cost.

    A batch job paid ``batch_discount`` times the sync price for its tokens, so the
    sync price of the same usage is its cost divided by the discount. Counted per
    job rather than per request: one store read for the whole month, cheap enough
    to refresh while the tab is open.
    """
    now = now or datetime.now(UTC)
    start = month_start(now)
    pages = 0
    cost = 0.0
    sync_cost = 0.0
    for job in jobs:
        finished = job.updated_at or job.created_at
        if job.state not in SUCCESS_STATES or finished is None:
            continue
        if (finished if finished.tzinfo else finished.replace(tzinfo=UTC)) < start:
            continue
        pages += job.pages or 0
        paid = job.cost_actual_usd or 0.0
        cost += paid
        sync_cost += paid / batch_discount if job.mode == "batch" and batch_discount else paid
    return MonthSummary(start, pages, round(cost, 6), round(sync_cost, 6))
