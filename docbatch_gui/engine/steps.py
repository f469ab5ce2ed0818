"""One shape for every step of a job, and the job's one progress bar over them.

A job goes through ``prepare`` (render its pages), ``ocr``, ``separate`` (find
separator sheets), ``extract`` (Claude, the offline extractor, or the file's own data),
``check`` and ``store``. Each is a ``Step``: a name, a declared ``weight`` and an
``async run(ctx, job) -> Job`` over one ``JobContext``. The worker composes them
(``pipeline_for``); the batch engine runs ``extract`` as its submit/poll cycle and
then the same ``check`` and ``store`` steps (``batch_results``).

The bar: a step reports its own ``done`` of ``total`` through ``ctx.report``; the
job's bar is the weights of the steps before it plus its weight times its share,
over the sum of all weights. It never moves backwards within an attempt: a report
below the bar's high-water mark (kept in the context, and the stored ``progress``
when another object carries the job on, as the batch engine does) is dropped. A new
attempt (a retry, a requeue after a crash) starts again from 0: it redoes the steps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from docbatch_gui.domain.models import Document, Job
from docbatch_gui.domain.progress import CancelToken, Progress, ProgressSink, raise_if_canceled
from docbatch_gui.engine.context import EngineContext

if TYPE_CHECKING:
    import asyncio

    from docbatch_gui.config.profile import Profile
    from docbatch_gui.llm.claude import ClaudeSync
    from docbatch_gui.llm.spending import Spending
    from docbatch_gui.pipeline.isolate import ChildPool
    from docbatch_gui.settings.model import Settings
    from docbatch_gui.storage.blobs import BlobStore
    from docbatch_gui.storage.store import Store

PREPARE = "prepare"
OCR = "ocr"
SEPARATE = "separate"
EXTRACT = "extract"
CHECK = "check"
STORE = "store"


class Step(Protocol):
    """One step of a job: ``weight`` is its share of the job's bar."""

    name: str
    weight: float

    async def run(self, ctx: JobContext, job: Job) -> Job:
        """Do the step's work on ``job`` (as stored), report progress through
        ``ctx.report(self.name, done, total)``, and return the job as it is now."""
        ...


#: every step's declared weight, the order a job goes through them: rendering and
#: OCR are a job's CPU work, reading its wait; the checks and the store are quick
WEIGHTS: dict[str, float] = {
    PREPARE: 3.0,
    OCR: 3.0,
    SEPARATE: 0.5,
    EXTRACT: 3.0,
    CHECK: 0.3,
    STORE: 0.2,
}


@dataclass(frozen=True)
class JobBar:
    """Where a job's bar stands, from the declared weights of its steps."""

    weights: tuple[tuple[str, float], ...] = tuple(WEIGHTS.items())

    @classmethod
    def of(cls, steps: Sequence[Step]) -> JobBar:
        """The bar of a pipeline: its steps' declared weights, in its order."""
        return cls(tuple((step.name, step.weight) for step in steps))

    def at(self, step: str, done: float, total: float) -> float:
        """The bar (0..1) when ``step`` has done ``done`` of ``total`` (a step with
        nothing to do, ``total`` 0, is done)."""
        share = min(1.0, max(0.0, done / total)) if total > 0 else 1.0
        whole = sum(w for _, w in self.weights)
        before = 0.0
        for name, weight in self.weights:
            if name == step:
                return round((before + weight * share) / whole, 4)
            before += weight
        raise KeyError(step)

    def done(self, step: str) -> float:
        return self.at(step, 1, 1)

    def start(self, step: str) -> float:
        return self.at(step, 0, 1)


BAR = JobBar()


class RenderLane:
    """One of the batch engine's render slots (``OCR_WORKERS`` of them), held by a job
    from its claim while its pages still need the CPU: its render child, then its OCR.
    A job whose pages all have a text layer frees it as soon as its child has rendered
    the last page, so the next job's child renders while this one writes its pages (the
    blobs' fsyncs wait for the disk, not the CPU) and finds its separator sheets. Its
    deadline starts at the claim, so a job never waits for a lane with its clock
    running."""

    def __init__(self, slots: asyncio.Semaphore) -> None:
        self._slots = slots
        self._held = False

    async def __aenter__(self) -> RenderLane:
        await self._slots.acquire()
        self._held = True
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.free()

    def free(self) -> None:
        """Give the lane to the next job (once; later calls do nothing)."""
        if self._held:
            self._held = False
            self._slots.release()


@dataclass
class JobContext:
    """What every step of one attempt of one job works with.

    ``deadline`` is a ``time.monotonic()`` value; ``cancel`` is the job's token, which
    the worker sets when the operator cancels the job (as it cancels the job's task):
    checked between steps, between two pages (render, OCR) and before each chunk of
    paid requests (``check_canceled`` raises ``Canceled``); ``sink`` hears the bar as a
    ``Progress`` (the worker's: a Celery task's result backend);
    ``emit`` is the worker's listener call, with every stored change of the job.
    ``documents`` carries what ``extract`` found to ``check`` and ``store``;
    ``lane`` is the batch engine's render lane the job holds (``RenderLane``), freed
    once its CPU work is done.
    """

    engine: EngineContext
    attempt: int
    deadline: float
    emit: Callable[[Job], object] = lambda job: job
    cancel: CancelToken | None = None
    sink: ProgressSink | None = None
    pool: ChildPool | None = None
    ocr_slots: asyncio.Semaphore | None = None
    claude: ClaudeSync | None = None
    purse: Spending | None = None
    bar: JobBar = BAR
    lane: RenderLane | None = None
    #: the highest value reported in this attempt: the bar never goes below it
    high_water: float = 0.0
    documents: list[Document] = field(default_factory=list)

    @property
    def store(self) -> Store:
        return self.engine.store

    @property
    def blobs(self) -> BlobStore:
        return self.engine.blobs

    @property
    def settings(self) -> Settings:
        return self.engine.settings

    @property
    def profile(self) -> Profile:
        return self.engine.profile

    def child_pool(self) -> ChildPool:
        assert self.pool is not None, "steps that need children run inside the worker's pool"
        return self.pool

    def report(self, job_id: int, step: str, done: float, total: float) -> Job | None:
        """Move the job's bar to where ``step`` stands; None when that is not
        forward (the bar never goes back within an attempt)."""
        value = self.bar.at(step, done, total)
        if value <= self.high_water:
            return None
        self.high_water = value
        job = self.store.update_job(job_id, attempt=self.attempt, progress=value)
        self.emit(job)
        if self.sink is not None:
            self.sink(Progress.of_share(value, step))
        return job

    def check_canceled(self) -> None:
        raise_if_canceled(self.cancel)

    def free_lane(self) -> None:
        """The job needs no more CPU work of a render child or OCR."""
        if self.lane is not None:
            self.lane.free()


def carried_on(engine: EngineContext, job: Job, emit: Callable[[Job], object]) -> JobContext:
    """The context of a job another part of the engine carries on (the batch engine
    after the worker prepared it): its bar starts where the stored one stands."""
    return JobContext(engine, job.attempts, float("inf"), emit, high_water=job.progress)


async def run_steps(ctx: JobContext, job: Job, steps: Sequence[Step]) -> Job:
    """Run ``steps`` in order on ``job``; each one's end is reported, so a step with
    nothing to do still moves the bar by its weight."""
    for step in steps:
        ctx.check_canceled()
        job = await step.run(ctx, job)
        job = ctx.report(job.id, step.name, 1, 1) or job
    return job
