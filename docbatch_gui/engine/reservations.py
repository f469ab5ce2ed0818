"""Budget reservations: no paid request is sent unless its money is set aside first.

Admission (``engine/budget.py``) compares a run's forecast with the caps once, before
the run starts. That alone let re-asks, escalations, cut-off retries and two processes
admitted side by side cross a cap. So before *every* paid request (a sync call and
each re-ask or cut-off retry of it, an escalation, a batch create, a resubmission of
expired requests) the ``Purse`` reserves the request's high-end estimate in the store,
atomically: this month's spend + every live reservation + this one must stay within
the month cap, and the run's paid + reserved + this one within the run cap. Else the
request is not sent and ``OverBudget`` says which cap, in the admission's words.

A reservation is released when the answer's actual cost is in the spend ledger (the
run is charged that cost). Reservations live in the store, so the window, the CLI,
``docbatch worker`` and Celery workers on one data store see each other's. A
process's reservations carry ``host:pid``; one whose process is gone (same host) or
whose owner stopped refreshing them for ``LEASE`` (another host) is stale and dropped.
A created batch's reservation belongs to the batch (``batch:<id>``), not the process:
its requests run at the API whatever happens to us, so it is released only when the
batch's results are in.
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from docbatch_gui.domain.errors import OverBudget
from docbatch_gui.domain.messages import coded
from docbatch_gui.domain.models import CapRefusal, Caps, Reservation
from docbatch_gui.domain.states import OPEN_BATCH_STATUSES
from docbatch_gui.engine.budget import ALLOW_KEY, Forecaster, month_start, usd_text
from docbatch_gui.engine.context import EngineContext
from docbatch_gui.llm.catalogue import Usage
from docbatch_gui.llm.pricing import PlannedRequest
from docbatch_gui.llm.requests import ExtractionRequest
from docbatch_gui.system import processes

if TYPE_CHECKING:
    from docbatch_gui.engine.budget import BudgetGate

log = logging.getLogger(__name__)

#: a reservation of a process on another host not refreshed for this long is stale
LEASE = timedelta(minutes=30)
HOST = socket.gethostname()


def _owner() -> str:
    return f"{HOST}:{os.getpid()}"


def stale(reservation: Reservation, now: datetime) -> bool:
    """Whether the process that holds ``reservation`` is gone."""
    if reservation.owner.startswith("batch:"):
        return False  # the batch's: released with its results (or once it is over)
    host, _, pid = reservation.owner.rpartition(":")
    if host == HOST and pid.isdigit():
        return not processes.process_alive(int(pid))
    try:
        at = datetime.fromisoformat(reservation.at)
    except ValueError:
        return True
    return now - at > LEASE


class Purse:
    """Reserves and releases for one engine (or one Celery task) on the store."""

    def __init__(
        self, context: EngineContext, gate: BudgetGate | None = None, run: str | None = None
    ) -> None:
        self.store = context.store
        self.settings = context.settings
        self.gate = gate
        #: the admitted run a Celery task's requests count against (its run cap): the
        #: dispatching process's gate admitted the job and sent the run with the task
        self.run = run
        self.forecaster = gate.forecaster if gate is not None else None
        self._context = context
        self.owner = _owner()

    @property
    def capped(self) -> bool:
        return self.settings.budget_run_usd > 0 or self.settings.budget_month_usd > 0

    def _pricer(self) -> Forecaster:
        if self.forecaster is None:
            context = self._context
            self.forecaster = Forecaster(
                context.store, context.blobs, context.settings, context.profile
            )
        return self.forecaster

    def high(self, requests: Sequence[ExtractionRequest], *, batch: bool) -> float:
        """The requests' high-end estimate (as the forecast's ``high_usd`` prices one),
        read by the model each asks for; a request whose output budget was raised
        after a cut-off answer may use all of it, so its output is priced at that."""
        pricer = self._pricer()
        by_model: dict[str, list[tuple[PlannedRequest, bool]]] = defaultdict(list)
        total = 0.0
        for request in requests:
            model = str(request.params.get("model") or self.settings.anthropic_model)
            planned = PlannedRequest(
                request.image_pixels,
                request.text_chars,
                len(request.pages),
                [k.value for k in request.kinds],
            )
            by_model[model].append((planned, batch))
            budget = int(request.params.get("max_tokens") or 0)
            if budget > self.settings.max_output_tokens:  # a cut-off retry
                usage = Usage(output_tokens=budget)
                total += pricer.estimator.catalogue.cost(model, usage, batch=batch) or 0.0
        for model, group in by_model.items():
            total += pricer.price(group, "high", model)
        return round(total, 6)

    def reserve(
        self,
        requests: Sequence[ExtractionRequest],
        *,
        batch: bool,
        key: str | None = None,
        owner: str | None = None,
        forced: bool = False,
    ) -> str | None:
        """Set the requests' high-end estimate aside, or raise ``OverBudget`` (nothing
        reserved, nothing to send). Returns the reservation's key (None: no cap).
        ``forced``: money committed before (an intent written before a kill) is
        reserved whatever the caps say; so are jobs the operator let go."""
        if not self.capped or not requests:
            return None
        self._sweep()
        jobs = {r.job_id for r in requests}
        gate = self.gate
        run = gate.run_of(next(iter(jobs))) if gate is not None else self.run
        allowed = set(self.store.get_setting(ALLOW_KEY) or [])
        forced = forced or bool(allowed & jobs) or (gate is not None and gate.forced_any(jobs))
        usd = self.high(requests, batch=batch)
        reservation = Reservation(key or f"req:{uuid.uuid4().hex}", usd, owner or self.owner, run)
        caps = Caps(month_start(), self.settings.budget_month_usd, self.settings.budget_run_usd)
        refused = self.store.reserve(reservation, caps, forced=forced)
        if refused is not None:
            raise over_budget(refused, requests, usd)
        return reservation.key

    def release(self, key: str | None, actual_usd: float = 0.0) -> None:
        if key is not None:
            self.store.release(key, max(0.0, actual_usd))

    def hand_to_batch(self, key: str | None, local_id: int) -> None:
        """A created batch takes its reservation over from this process."""
        if key is not None:
            self.store.hand_over(key, batch_key(local_id), f"batch:{local_id}")

    def _sweep(self) -> None:
        now = datetime.now(UTC)
        self.store.refresh_reservations(self.owner)
        held = self.store.list_reservations()
        gone = [r.key for r in held if stale(r, now)]
        if any(r.owner.startswith("batch:") for r in held):
            running = {
                batch_key(b.id or 0)
                for b in self.store.list_batches()
                if b.status in OPEN_BATCH_STATUSES or (b.status == "ended" and not b.results_done)
            }
            gone += [r.key for r in held if r.owner.startswith("batch:") and r.key not in running]
        if gone:
            self.store.drop_reservations(gone)
            log.warning("released %s budget reservation(s) of processes that are gone", len(gone))


def batch_key(local_id: int) -> str:
    return f"batch:{local_id}"


def over_budget(
    refused: CapRefusal, requests: Sequence[ExtractionRequest], usd: float
) -> OverBudget:
    """The refusal in the admission's words (``budget_month_cap``/``budget_run_cap``)."""
    params = {
        "files": len({r.job_id for r in requests}),
        "pages": sum(len(r.pages) for r in requests),
        "usd": usd_text(usd),
        "low": usd_text(usd),
        "high": usd_text(usd),
        "cap": usd_text(refused.cap_usd),
        "spent": usd_text(refused.spent_usd + refused.reserved_usd),
    }
    return OverBudget(coded(refused.code, **params), refusal=refused)
