"""The forecast of a run and the budget caps it must stay under.

A *run* is the set of Claude-bound jobs (sync or batch mode) the engine finds queued
and not yet let through when it is about to start one of them: everything one
``docbatch process`` call queued, or what the window's queue holds when the engine
looks. Files added while a run goes on form the next run. Before any job of a run
starts (no page rendered, no request sent), its forecast is compared with the caps:

* per run: the forecast must not be over ``BUDGET_RUN_USD``;
* per calendar month: what the spend ledger says was paid this month plus the
  forecast must not be over ``BUDGET_MONTH_USD``.

A run over a cap is *held*: its jobs stay queued, a hold (code, figures, job ids) is
written to the store for every front end, and it is said once in the log. New
settings (a raised cap) make a new gate that checks again; the operator may also let
a held run go as it is (``allow_held``).

The forecast prices every request group with the estimator the engine uses
(``CostEstimator``, ``pricing.request_usage``), so it changes with the request plan.
Its range says what the estimate cannot know before the answers: the low end takes
short answers (a quarter of the guessed output) and a cache hit on every request,
the high end long answers (twice the guess), a cache write on every request (a
batch's requests often run before the first one wrote the cache) and, for files not
rendered yet, a dense text layer; before ``count_tokens`` calibrated the prompt, the
input may also be a quarter off either way. With routing by difficulty, the high end
also counts every request read again by the escalation model: the answers decide how
many are, and a cap must hold even when all are.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.domain.messages import Message, coded, word
from docbatch_gui.domain.models import CapRefusal, Job, Page
from docbatch_gui.domain.states import JobState, ProcessingMode
from docbatch_gui.engine.estimates import CostEstimator
from docbatch_gui.engine.extraction import page_groups
from docbatch_gui.engine.routing import route_for
from docbatch_gui.llm.caching import cache_ttl
from docbatch_gui.llm.catalogue import Usage
from docbatch_gui.llm.pricing import PlannedRequest, request_usage
from docbatch_gui.llm.thinking import choose
from docbatch_gui.pipeline.peek import PageCount, peek
from docbatch_gui.pipeline.render import target_size
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.blobs import BlobStore
from docbatch_gui.storage.store import Store

log = logging.getLogger(__name__)

HOLD_KEY = "budget_hold"
ALLOW_KEY = "budget_allow"
CLAUDE_MODES = frozenset({ProcessingMode.SYNC.value, ProcessingMode.BATCH.value})
#: text layer or OCR of a page not rendered yet: none, a typical business page, dense
TEXT_CHARS = {"low": 0, "mid": 1200, "high": 3500}
OUTPUT_SPREAD = {"low": 0.25, "mid": 1.0, "high": 2.0}
#: how far the offline formula's input may be from the real count
FORMULA_SPREAD = 0.25
CALIBRATED_SPREAD = 0.05


@dataclass(frozen=True)
class Forecast:
    usd: float
    low_usd: float
    high_usd: float
    pages: int = 0
    jobs: int = 0
    requests: int = 0
    model: str = ""
    #: pages whose size and text are known (rendered); the others were counted
    rendered_pages: int = 0
    modes: list[str] = field(default_factory=list)  # sync, batch: what the jobs use

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


NO_FORECAST = Forecast(0.0, 0.0, 0.0)


def usd_text(usd: float) -> str:
    """Dollars as an operator reads them: cents, or four decimals below a cent (a page
    on a small model costs a fraction of one)."""
    if 0 < abs(usd) < 0.01:
        return f"{usd:.4f}"
    return f"{usd:,.2f}"


def month_start(now: datetime | None = None) -> datetime:
    """The first moment of the operator's calendar month (local time), in UTC."""
    local = (now or datetime.now(UTC)).astimezone()
    return local.replace(day=1, hour=0, minute=0, second=0, microsecond=0).astimezone(UTC)


def month_label(now: datetime | None = None) -> str:
    return month_start(now).astimezone().strftime("%Y-%m")


def is_claude_job(job: Job) -> bool:
    return job.mode.value in CLAUDE_MODES


class Forecaster:
    """Prices jobs before they run; files are counted once per process."""

    def __init__(
        self, store: Store, blobs: BlobStore, settings: Settings, profile: Profile
    ) -> None:
        self.store = store
        self.blobs = blobs
        self.settings = settings
        self.estimator = CostEstimator(store, settings, profile)
        #: with routing, the high end counts every request read again by this model
        self.escalation = route_for(settings, profile).escalation
        self._counts: dict[str, PageCount | None] = {}

    def _count(self, job: Job) -> PageCount | None:
        if job.sha256 not in self._counts:
            path = self.blobs.local_path(job.sha256)
            if path is None or not path.exists():
                source = Path(job.source_path)
                path = source if source.is_file() else None
            self._counts[job.sha256] = (
                peek(path, max_pages=self.settings.max_pages) if path else None
            )
        return self._counts[job.sha256]

    def pages(self, job: Job, text: str = "mid") -> tuple[list[Page], bool]:
        """The job's pages as the request plan sees them, and whether they are the
        rendered ones (else counted from the file, with ``text`` characters each)."""
        rendered = [p for p in self.store.list_pages(job.id) if p.deliverable or p.image_sha]
        if rendered and job.pages and len(rendered) >= job.pages:
            return rendered, True
        count = self._count(job)
        number = count.pages if count else max(1, job.pages or 1)
        width, height = target_size(count.width, count.height) if count else target_size(595, 842)
        filler = "x" * TEXT_CHARS[text]
        return [Page(job.id, n, width, height, text=filler) for n in range(1, number + 1)], False

    def _planned(self, jobs: Sequence[Job], text: str) -> list[tuple[PlannedRequest, bool]]:
        planned: list[tuple[PlannedRequest, bool]] = []
        for job in jobs:
            pages, _ = self.pages(job, text)
            groups = page_groups(pages, self.settings.group_size)
            batch = job.mode.value == ProcessingMode.BATCH.value
            planned.extend((r, batch) for r in self.estimator.planned(groups))
        return planned

    def price(
        self, planned: Sequence[tuple[PlannedRequest, bool]], end: str, model_id: str | None = None
    ) -> float:
        """What ``planned`` costs at one end of the range, read by ``model_id`` (the
        route's first model by default), with the prompt cache each request asks for."""
        estimator = self.estimator
        model_id = model_id or estimator.choice.model
        model = estimator.catalogue.get(model_id)
        if model is None:
            return 0.0
        choice = (
            estimator.choice
            if model_id == estimator.choice.model
            else choose(model, self.settings.claude_effort, self.settings.claude_thinking)
        )
        basis = estimator.basis()
        spread = CALIBRATED_SPREAD if basis.source == "count_tokens" else FORMULA_SPREAD
        input_scale = {"low": 1 - spread, "mid": 1.0, "high": 1 + spread}[end]
        scale = OUTPUT_SPREAD[end]
        total = 0.0
        for index, (request, batch) in enumerate(planned):
            first = {"low": False, "mid": index == 0, "high": True}[end]
            ttl = cache_ttl(model, basis.prefix_tokens, batch=batch)
            usage: Usage = request_usage(model, choice, basis, request, first=first, cache_ttl=ttl)
            usage = replace(
                usage,
                input_tokens=int(usage.input_tokens * input_scale),
                output_tokens=int(usage.output_tokens * scale),
                thinking_tokens=int(usage.thinking_tokens * scale),
            )
            total += estimator.catalogue.cost(model_id, usage, batch=batch) or 0.0
        return round(total, 6)

    def forecast(self, jobs: Sequence[Job]) -> Forecast:
        """What ``jobs`` would cost in Claude requests (offline jobs cost nothing)."""
        claude = [j for j in jobs if is_claude_job(j)]
        if not claude:
            return replace(NO_FORECAST, model=self.settings.anthropic_model)
        mid = self._planned(claude, "mid")
        rendered = 0
        pages = 0
        for job in claude:
            job_pages, known = self.pages(job)
            pages += len(job_pages)
            rendered += len(job_pages) if known else 0
        usd = self.price(mid, "mid")
        low = min(usd, self.price(self._planned(claude, "low"), "low"))
        worst = self._planned(claude, "high")
        high = max(usd, self.price(worst, "high"))
        if self.escalation:  # every group in doubt, read again by the escalation model
            high = round(high + self.price(worst, "high", self.escalation), 6)
        modes = sorted({j.mode.value for j in claude})
        return Forecast(
            usd,
            low,
            high,
            pages,
            len(claude),
            len(mid),
            self.settings.anthropic_model,
            rendered,
            modes,
        )


@dataclass(frozen=True)
class Hold:
    """A run held by a cap: what it would cost, which cap, and its jobs."""

    code: str  # budget_run_cap | budget_month_cap
    usd: float
    low_usd: float
    high_usd: float
    cap_usd: float
    spent_usd: float
    pages: int
    jobs: list[int] = field(default_factory=list)
    at: str = ""

    def params(self) -> dict[str, Any]:
        return {
            "files": len(self.jobs),
            "pages": self.pages,
            "usd": usd_text(self.usd),
            "low": usd_text(self.low_usd),
            "high": usd_text(self.high_usd),
            "cap": usd_text(self.cap_usd),
            "spent": usd_text(self.spent_usd),
        }

    def words(self, language: str = "en") -> str:
        return word(self.code, self.params(), language)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, value: Any) -> Hold | None:
        if not isinstance(value, dict):
            return None
        try:
            return cls(**{k: value[k] for k in cls.__dataclass_fields__ if k in value})
        except TypeError:
            return None


def over_cap(settings: Settings, forecast: Forecast, spent: float) -> tuple[str, float] | None:
    """Which cap ``forecast`` would cross (the run's first), with the cap; None if none."""
    run_cap, month_cap = settings.budget_run_usd, settings.budget_month_usd
    if run_cap > 0 and forecast.usd > run_cap:
        return "budget_run_cap", run_cap
    if month_cap > 0 and spent + forecast.usd > month_cap:
        return "budget_month_cap", month_cap
    return None


def current_hold(store: Store) -> Hold | None:
    return Hold.from_dict(store.get_setting(HOLD_KEY))


def allow_over_budget(store: Store, job_ids: Sequence[int] | None = None) -> Hold | None:
    """Let a run go whatever it costs (the operator's *run anyway*): the given jobs, or
    those of the held run. Returns the hold it lifted, if any."""
    hold = current_hold(store)
    if job_ids is not None:
        allowed = set(store.get_setting(ALLOW_KEY) or []) | set(job_ids)
        store.set_setting(ALLOW_KEY, sorted(allowed))
    if hold is not None:
        allowed = set(store.get_setting(ALLOW_KEY) or []) | set(hold.jobs)
        store.set_setting(ALLOW_KEY, sorted(allowed))
        store.set_setting(HOLD_KEY, None)
        files, usd = len(hold.jobs), usd_text(hold.usd)
        log.warning(
            "budget: the operator let a held run go over its cap: %s file(s), forecast $%s",
            files,
            usd,
        )
    return hold


class BudgetGate:
    """Lets a run's jobs start only when its forecast stays under the caps."""

    def __init__(self, forecaster: Forecaster) -> None:
        self.forecaster = forecaster
        self.store = forecaster.store
        self.settings = forecaster.settings
        self.approved: set[int] = set()
        #: jobs a run let go over budget (*run anyway*): their reservations are forced
        self.forced: set[int] = set()
        #: jobs a reservation refused mid-run: held until let go or a new gate
        self.reached: set[int] = set()
        self._runs: dict[int, str] = {}  # job -> the admitted run it counts against
        self.hold: Hold | None = None
        self._checked: frozenset[int] = frozenset()
        #: whether a hold an earlier engine left in the store was looked at
        self._stale_checked = False

    def admit(self, jobs: Sequence[Job]) -> list[Job]:
        """``jobs`` that may start: offline ones, and Claude ones of an admitted run."""
        pending = any(self._unchecked(j) for j in jobs)
        capped = self.settings.budget_run_usd > 0 or self.settings.budget_month_usd > 0
        if not (pending and capped):
            self._drop_stale_hold()
        if not capped:
            return list(jobs)  # no cap: nothing to forecast
        if pending:
            try:
                self._check(jobs)
            except DocBatchError as exc:  # a busy store: hold back, look again later
                log.warning("budget: could not check the run: %s", exc)
                return [j for j in jobs if not is_claude_job(j) or j.id in self.approved]
        return [j for j in jobs if not is_claude_job(j) or j.id in self.approved]

    def _check(self, jobs: Sequence[Job]) -> None:
        queued = self.store.list_jobs(states=[JobState.QUEUED])
        run = [j for j in queued if is_claude_job(j) and j.id not in self.approved]
        run += [j for j in jobs if self._unchecked(j) and j.id not in {r.id for r in run}]
        ids = frozenset(j.id for j in run)
        allowed = set(self.store.get_setting(ALLOW_KEY) or [])
        let_go = ids & allowed
        if let_go:
            self.forced |= let_go
            self.reached -= let_go
            self._admit(frozenset(let_go), coded("log_budget_why_let_go"))
            self.store.set_setting(ALLOW_KEY, sorted(allowed - let_go) or None)
            run = [j for j in run if j.id not in let_go]
            ids = ids - let_go
        run = [j for j in run if j.id not in self.reached]  # held by a reached cap
        ids = ids - self.reached
        if not ids:
            return
        if self.hold is not None and ids == self._checked:
            return  # nothing new since the run was held
        forecast = self.forecaster.forecast(run)
        spent = self.store.spent_between(month_start())
        crossed = over_cap(self.settings, forecast, spent)
        self._checked = ids
        if crossed is None:
            self._admit(ids, coded("log_budget_why_within", usd=usd_text(forecast.usd)))
            return
        code, cap = crossed
        self.hold = Hold(
            code,
            forecast.usd,
            forecast.low_usd,
            forecast.high_usd,
            cap,
            spent,
            forecast.pages,
            sorted(ids),
            datetime.now(UTC).isoformat(),
        )
        self.store.set_setting(HOLD_KEY, self.hold.as_dict())
        log.warning("budget: %s", coded(code, **self.hold.params()).english)

    def _unchecked(self, job: Job) -> bool:
        """A queued Claude job no run of this gate admitted yet."""
        return job.state is JobState.QUEUED and is_claude_job(job) and job.id not in self.approved

    def _drop_stale_hold(self) -> None:
        """A hold nothing holds any more (its jobs started, were canceled or deleted, or
        the caps are gone) is not shown: this engine decides the queue's holds."""
        if self._stale_checked and self.hold is None:
            return
        self._stale_checked = True
        queued = {j.id for j in self.store.list_jobs(states=[JobState.QUEUED])}
        hold = current_hold(self.store)
        if hold is not None and (self.hold is None or not set(hold.jobs) & queued):
            self.store.set_setting(HOLD_KEY, None)
            self.hold = None
            self._checked = frozenset()

    def _admit(self, ids: frozenset[int], why: Message) -> None:
        self.approved |= ids
        run = uuid.uuid4().hex
        self._runs.update(dict.fromkeys(ids, run))
        if not self.reached and (
            self.hold is not None or self.store.get_setting(HOLD_KEY) is not None
        ):
            self.store.set_setting(HOLD_KEY, None)
            self.hold = None
        log.info("budget: run of %s file(s) admitted: %s", len(ids), why)

    # -- what reservations ask of the gate --------------------------------------------

    def run_of(self, job_id: int) -> str | None:
        """The admitted run ``job_id`` counts against (its run cap), if any."""
        return self._runs.get(job_id)

    def forced_any(self, job_ids: set[int]) -> bool:
        """Whether any of the jobs was let go over budget by the operator."""
        return bool(self.forced & job_ids)

    def hold_over(self, job_ids: Sequence[int], refusal: CapRefusal) -> Hold:
        """Jobs whose next paid request a cap refused mid-run: what they had answered is
        kept, they wait queued under a hold in the admission's words until the cap is
        raised (a new gate) or the operator lets them go."""
        ids = set(job_ids)
        self.approved -= ids
        new = bool(ids - self.reached)
        self.reached |= ids
        if not new and self.hold is not None:
            return self.hold  # said already
        held = [self.store.get_job(j) for j in sorted(self.reached)]
        forecast = self.forecaster.forecast(held)
        self.hold = Hold(
            refusal.code,
            forecast.usd,
            forecast.low_usd,
            forecast.high_usd,
            refusal.cap_usd,
            refusal.spent_usd,
            forecast.pages,
            sorted(self.reached),
            datetime.now(UTC).isoformat(),
        )
        self.store.set_setting(HOLD_KEY, self.hold.as_dict())
        words = coded(refusal.code, **self.hold.params()).english
        log.warning(
            "a budget cap was reached during the run; what was answered is kept, the rest waits: "
            "%s",
            words,
        )
        return self.hold
