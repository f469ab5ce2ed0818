"""The budget as the front ends read it: this month's spend, the caps, what is left,
the forecast of the queue and a held run. A mixin of
:class:`docbatch_gui.app.facade.DocBatchApp` (``docbatch budget``, the Queue and
Batches tabs); the rules themselves are in ``docbatch_gui.engine.budget``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any

from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.budget import (
    BudgetGate,
    Forecast,
    Forecaster,
    Hold,
    allow_over_budget,
    current_hold,
    month_label,
    month_start,
)

if TYPE_CHECKING:
    from docbatch_gui.config.profile import Profile
    from docbatch_gui.engine.holds import Holds
    from docbatch_gui.settings.model import Settings
    from docbatch_gui.storage.blobs import BlobStore
    from docbatch_gui.storage.store import Store


@dataclass(frozen=True)
class BudgetStatus:
    month: str  # YYYY-MM, the operator's calendar month
    spent_usd: float  # the spend ledger's entries of this month: actual costs
    month_cap_usd: float | None  # None: no cap
    run_cap_usd: float | None
    hold: Hold | None = None

    @property
    def left_usd(self) -> float | None:
        """What the monthly cap leaves (never below 0); None without a cap."""
        if self.month_cap_usd is None:
            return None
        return round(max(0.0, self.month_cap_usd - self.spent_usd), 6)

    def as_dict(self) -> dict[str, Any]:
        """``docbatch budget --json``: keys are a contract, added to, never renamed."""
        return {
            "month": self.month,
            "spent_usd": self.spent_usd,
            "month_cap_usd": self.month_cap_usd,
            "run_cap_usd": self.run_cap_usd,
            "left_usd": self.left_usd,
            "held": self.hold.as_dict() if self.hold else None,
        }


def budget_status(store: Store, settings: Settings, now: datetime | None = None) -> BudgetStatus:
    now = now or datetime.now(UTC)
    return BudgetStatus(
        month_label(now),
        store.spent_between(month_start(now)),
        settings.budget_month_usd or None,
        settings.budget_run_usd or None,
        current_hold(store),
    )


class BudgetViews:
    settings: Settings

    if TYPE_CHECKING:  # what the class this is mixed into provides

        @property
        def store(self) -> Store: ...  # DocBatchApp opens it on first use (a cached_property)
        @property
        def blobs(self) -> BlobStore: ...
        @property
        def profile(self) -> Profile: ...
        def holds(self) -> Holds: ...  # DocBatchApp knows whether a key is there

    @cached_property
    def forecaster(self) -> Forecaster:
        return Forecaster(self.store, self.blobs, self.settings, self.profile)

    def budget_gate(self) -> BudgetGate:
        """The gate of one run (``run`` makes one per call: one command, one engine)."""
        return BudgetGate(self.forecaster)

    def forecast(self, job_ids: Iterable[int] | None = None) -> Forecast:
        """What the given queued jobs (or every queued job) would cost in requests."""
        jobs = (
            self.store.list_jobs(ids=list(job_ids))
            if job_ids is not None
            else self.store.list_jobs(states=[JobState.QUEUED])
        )
        holds = self.holds()  # a held job sends nothing until the operator acts
        return self.forecaster.forecast(
            [j for j in jobs if j.state is JobState.QUEUED and holds.of(j) is None]
        )

    def budget(self) -> BudgetStatus:
        return budget_status(self.store, self.settings)

    def allow_over_budget(self, job_ids: Sequence[int] | None = None) -> Hold | None:
        """Run anyway: the given jobs, or the held run, go whatever they cost."""
        return allow_over_budget(self.store, job_ids)
