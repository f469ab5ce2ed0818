"""Benchmark of batch mode's bookkeeping: 2,000 jobs of 3 pages, from submit to done.

The real ``DocBatchApp`` runs on a temporary data directory in processing mode
"batch" against the wire-level fake of the Anthropic API (``tests/fakes``). Inputs
(distinct small text PDFs, the job number on every page) are generated and queued
(``app.add``) before the clock starts; the timed part is ``app.run(job_ids)``.

What it measures:

- **Bookkeeping per job**: the time the engine spends on its own work (store writes,
  blob reads, building requests, parsing results, stitching, its loop) per job. It is
  wall time of the run minus the time the engine is *waiting*:

  - inside ``run_prepare``: rendering in child processes and reading their pipe (the
    ``on_count``/``on_page`` callbacks, which store pages and blobs, are counted back
    as bookkeeping);
  - starting and closing the render children (``ChildPool.warm_up``/``close``);
  - inside ``BatchClient`` HTTP calls (the SDK's encoding of a create body counts as
    HTTP; for the results stream only the time inside each ``__anext__``, so our
    parsing of each answer is bookkeeping);
  - the sleep between cycles (``POLL_INTERVAL``, through the ``stop`` event passed).

  Those functions are wrapped with timers at run time in this process; the product
  code is not edited. The waits are counted as a union (time when at least one is in
  flight), so overlap is never subtracted twice. With ``OCR_WORKERS=1`` (the product
  default, used here) one job renders at a time; a job whose pages all have a text
  layer gives its render lane up when its child has rendered its last page
  (``engine.steps.RenderLane``), so its last flush (the blobs' renames and fsyncs, its
  page rows) and its separator step run while the next job's child renders, and are
  not counted: the operator does not wait for them either. The by-part figures below
  still time that work, so they add up to more than the bookkeeping. With more
  workers, engine work done while another job renders is hidden likewise. The store,
  blob, request and result functions are also timed (about 1 µs per call added) to
  split the bookkeeping by part, with the render step's time after its child (the page
  blobs' writes it waits for, its page rows); blob writes run in threads while the
  child renders, so their summed time is shown apart. ``--profile`` adds a
  cProfile of the run (which inflates every figure).
- **The engine's CPU per job**: user + sys of this process over ``app.run`` per job
  (``engine_cpu_ms_per_job``): the bookkeeping above plus the SDK's encoding and
  the reading of the children's pipes, measured in CPU so that a busy machine does
  not inflate it as it does the wall-time figure (an upper bound of the bookkeeping).
- **Peak RSS** of this process (``ru_maxrss``) against the budget: RSS before the run
  (after imports, input generation and intake) + ``MAX_CONCURRENT_MB`` + 200 MB.
- **Batches created**: ``POST /v1/messages/batches`` (exact path: a cancel is
  ``.../{id}/cancel``), cross-checked with the store's batch records.
- **Correctness**: every job ends ``done`` or ``needs_review``, and every expected
  ``custom_id`` was submitted exactly once (from the fake's recorded bodies).

The fake server runs in a child process of its own: it keeps every created batch's
params, base64 images included, for the whole run (``keep_image_data=False`` only
shortens the *recorded* bodies), and its handlers (JSON, token counting, answers) would
otherwise hold the GIL in this process. Its peak RSS is printed for information.

``BATCH_SIZE`` defaults to 200 (``--batch-size``). Each submit cycle starts render
children (cold: their first pages are slow), stops them, makes new SDK clients and
scans the job table, so the seed's 30 jobs per cycle means 67 cycles for 2,000 jobs
and about 3 minutes of run on 2 cores (about half of it per-cycle cost), while 200
gives 10 batches of 200 requests, well under the API's limits, in about 80 seconds.
``POLL_INTERVAL`` is 0.1 s, the lowest the settings allow (``--poll-interval``), and a
batch ends on its second retrieve (``--polls``).

Run: ``.venv/bin/python bench/batch_engine.py [--jobs 2000] [--pages 3]
[--batch-size 200] [--profile [--profile-out FILE]]``. The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import functools
import io
import json
import multiprocessing
import pstats
import resource
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pymupdf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docbatch_gui.app.facade import DocBatchApp  # noqa: E402
from docbatch_gui.domain.states import JobState  # noqa: E402
from docbatch_gui.engine import batch as batch_module  # noqa: E402
from docbatch_gui.engine import batch_results, extraction, render_step  # noqa: E402
from docbatch_gui.llm.batches import BatchClient  # noqa: E402
from docbatch_gui.llm.requests import custom_id  # noqa: E402
from docbatch_gui.pipeline.isolate import ChildPool  # noqa: E402
from docbatch_gui.settings.loading import load_settings  # noqa: E402
from docbatch_gui.storage.blobs import LocalBlobStore  # noqa: E402
from docbatch_gui.storage.sqlite import SQLiteStore  # noqa: E402

BATCHES_PATH = "/v1/messages/batches"
SLACK_MB = 200
STORE = "SQLite store (all SQLiteStore methods)"
BLOBS = "blob files (LocalBlobStore put_bytes/read)"
REQUESTS = "build_request (base64, params)"
RESULTS = "parse_answer + stitch"
RENDER_TAIL = "render step after its child (blob writes, page rows)"


# -- inputs ---------------------------------------------------------------------------


def make_inputs(folder: Path, jobs: int, pages: int) -> list[Path]:
    """``jobs`` distinct text PDFs: an invoice whose number is the job number."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number in range(1, jobs + 1):
        document = pymupdf.open()
        for page_no in range(1, pages + 1):
            page = document.new_page(width=595, height=842)
            lines = [f"Page {page_no} of {pages}"]
            if page_no == 1:
                lines += [
                    f"INVOICE No. BENCH-{number:05d}",
                    f"Date: 2024-{1 + number % 12:02d}-{1 + number % 28:02d}",
                    "Seller: Bench Supplies Ltd, VAT ID GB123456789",
                    "Buyer: Example Customer plc",
                ]
            lines += [
                f"Item {page_no}.{i}: widget for job {number}, qty {i}, price {i * 7}.50 EUR"
                for i in range(1, 9)
            ]
            if page_no == pages:
                lines.append(f"Total due: {number * 3 % 997}.00 EUR")
            page.insert_text((60, 80), "\n".join(lines), fontsize=11)
        path = folder / f"bench_{number:05d}.pdf"
        document.save(path, garbage=0)
        document.close()
        paths.append(path)
    return paths


# -- the fake server, in a child process ----------------------------------------------


def _route(path: str) -> str:
    """A path with the batch id replaced, to count calls by kind."""
    if not path.startswith(BATCHES_PATH + "/"):
        return path
    _batch_id, _, rest = path.removeprefix(BATCHES_PATH + "/").partition("/")
    return f"{BATCHES_PATH}/{{id}}" + (f"/{rest}" if rest else "")


def _serve_fake(conn: Any, polls: int) -> None:
    """Child process: the fake server until asked for its report."""
    from tests.fakes.anthropic_server import FakeAnthropic

    with FakeAnthropic(keep_image_data=False) as fake:
        fake.batch_polls_needed = polls
        conn.send(fake.url)
        conn.recv()
        creates = [r for r in fake.requests if r.method == "POST" and r.path == BATCHES_PATH]
        calls = Counter(f"{r.method} {_route(r.path)}" for r in fake.requests)
        conn.send(
            {
                "creates": len(creates),
                "prefix_posts": fake.count("POST", BATCHES_PATH),
                "custom_ids": [
                    e["custom_id"] for r in creates for e in (r.json or {}).get("requests", [])
                ],
                "calls": dict(calls),
                "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            }
        )


class FakeProcess:
    def __init__(self, polls: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child_conn = context.Pipe()
        self.process = context.Process(target=_serve_fake, args=(child_conn, polls), daemon=True)

    def __enter__(self) -> FakeProcess:
        self.process.start()
        self.url: str = self.conn.recv()
        return self

    def report(self) -> dict[str, Any]:
        self.conn.send("report")
        return self.conn.recv()

    def __exit__(self, *exc: object) -> None:
        self.process.join(timeout=10)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join()


# -- timers ---------------------------------------------------------------------------


class Clock:
    """Totals per label, and the union of every *waiting* interval."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = defaultdict(float)
        self.calls: Counter[str] = Counter()
        self.groups: dict[str, float] = defaultdict(float)
        self.nesting: Counter[str] = Counter()
        self.depth = 0
        self.since = 0.0
        self.waiting = 0.0

    def wait_begins(self) -> None:
        if self.depth == 0:
            self.since = time.perf_counter()
        self.depth += 1

    def wait_ends(self) -> None:
        self.depth -= 1
        if self.depth == 0:
            self.waiting += time.perf_counter() - self.since

    def add(self, label: str, seconds: float) -> None:
        self.totals[label] += seconds
        self.calls[label] += 1


CLOCK = Clock()


def _timed_wait(label: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """An async function whose whole duration is waiting."""

    @functools.wraps(function)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        CLOCK.wait_begins()
        try:
            return await function(*args, **kwargs)
        finally:
            CLOCK.wait_ends()
            CLOCK.add(label, time.perf_counter() - started)

    return wrapper


def _timed_work(label: str, group: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """A plain function of the engine's own work: only totalled, for the breakdown.
    ``group`` totals count only the outermost call (a store method may call another)."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        CLOCK.nesting[group] += 1
        try:
            return function(*args, **kwargs)
        finally:
            elapsed = time.perf_counter() - started
            CLOCK.nesting[group] -= 1
            CLOCK.add(label, elapsed)
            if CLOCK.nesting[group] == 0:
                CLOCK.groups[group] += elapsed

    return wrapper


def instrument() -> None:
    """Wrap, in this process only, what the bookkeeping figure must exclude."""
    original_prepare = render_step.run_prepare

    async def run_prepare(*args: Any, on_count: Any, on_page: Any, **kwargs: Any) -> Any:
        inside = [0.0]

        def ours(callback: Callable[..., Any]) -> Callable[..., Any]:
            async def call(value: Any) -> None:  # storing pages is the engine's work
                started = time.perf_counter()
                CLOCK.wait_ends()
                try:
                    await callback(value)
                finally:
                    CLOCK.wait_begins()
                    inside[0] += time.perf_counter() - started

            return call

        started = time.perf_counter()
        CLOCK.wait_begins()
        try:
            return await original_prepare(
                *args, on_count=ours(on_count), on_page=ours(on_page), **kwargs
            )
        finally:
            CLOCK.wait_ends()
            CLOCK.add("render (child)", time.perf_counter() - started - inside[0])
            CLOCK.add("render callbacks (store pages)", inside[0])

    render_step.run_prepare = run_prepare
    original_step_prepare = render_step.PrepareStep._prepare

    async def step_prepare(self: render_step.PrepareStep, *args: Any) -> Any:
        """The render step outside its child: what it waits for after the last page
        (the page blobs' writes) and its page rows, part of the bookkeeping."""
        started = time.perf_counter()
        inside = CLOCK.totals["render (child)"] + CLOCK.totals["render callbacks (store pages)"]
        try:
            return await original_step_prepare(self, *args)
        finally:
            inside = (
                CLOCK.totals["render (child)"]
                + CLOCK.totals["render callbacks (store pages)"]
                - inside
            )
            CLOCK.add(RENDER_TAIL, time.perf_counter() - started - inside)

    render_step.PrepareStep._prepare = step_prepare  # type: ignore[method-assign]
    ChildPool.warm_up = _timed_wait("child start", ChildPool.warm_up)  # type: ignore[method-assign]
    ChildPool.close = _timed_wait("child stop", ChildPool.close)  # type: ignore[method-assign]
    for name in ("create", "retrieve", "cancel", "created_between", "close"):
        setattr(BatchClient, name, _timed_wait(f"http {name}", getattr(BatchClient, name)))

    original_results = BatchClient.results

    def results(self: BatchClient, batch_id: str) -> AsyncIterator[Any]:
        inner = original_results(self, batch_id)

        async def stream() -> AsyncIterator[Any]:
            while True:
                started = time.perf_counter()
                CLOCK.wait_begins()
                try:
                    item = await inner.__anext__()
                except StopAsyncIteration:
                    break
                finally:
                    CLOCK.wait_ends()
                    CLOCK.totals["http results"] += time.perf_counter() - started
                yield item
            CLOCK.calls["http results"] += 1

        return stream()

    BatchClient.results = results  # type: ignore[method-assign]

    # Breakdown of the bookkeeping itself (not subtracted: it is the engine's work).
    for name in dir(SQLiteStore):
        if not name.startswith("_") and callable(getattr(SQLiteStore, name)):
            method = getattr(SQLiteStore, name)
            setattr(SQLiteStore, name, _timed_work(f"store.{name}", STORE, method))
    for name in ("put_bytes", "read"):
        method = getattr(LocalBlobStore, name)
        setattr(LocalBlobStore, name, _timed_work(f"blobs.{name}", BLOBS, method))
    # Where the engine imported them (it is being reworked: skip a name that moved).
    for module in (batch_module, extraction):
        _wrap_name(module, "build_request", REQUESTS)
    for name in ("parse_answer", "stitch"):
        _wrap_name(batch_results, name, RESULTS)


def _wrap_name(module: Any, name: str, group: str) -> None:
    if callable(getattr(module, name, None)):
        setattr(module, name, _timed_work(name, group, getattr(module, name)))


class IdleEvent(asyncio.Event):
    """The run's ``stop`` event: ``app.run`` sleeps POLL_INTERVAL by waiting on it."""

    async def wait(self) -> bool:  # type: ignore[override]
        started = time.perf_counter()
        CLOCK.wait_begins()
        try:
            return await super().wait()
        finally:
            CLOCK.wait_ends()
            CLOCK.add("idle (POLL_INTERVAL)", time.perf_counter() - started)


# -- the run --------------------------------------------------------------------------


def rss_now_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * resource.getpagesize() / 2**20


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2000)
    parser.add_argument("--pages", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=200, help="BATCH_SIZE")
    parser.add_argument("--ocr-workers", type=int, default=1, help="OCR_WORKERS")
    parser.add_argument("--poll-interval", type=float, default=0.1, help="POLL_INTERVAL")
    parser.add_argument("--polls", type=int, default=2, help="retrieves a batch needs to end")
    parser.add_argument("--profile", action="store_true", help="cProfile the run (slower)")
    parser.add_argument("--profile-out", type=Path, help="with --profile: the raw pstats file")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="docbatch-bench-"))
    app: DocBatchApp | None = None
    try:
        started = time.perf_counter()
        paths = make_inputs(tmp / "inputs", args.jobs, args.pages)
        generated = time.perf_counter() - started
        with FakeProcess(args.polls) as fake:
            settings = load_settings(
                data_dir=tmp / "data",
                ANTHROPIC_API_KEY="test-key",
                ANTHROPIC_BASE_URL=fake.url,
                POLL_INTERVAL=args.poll_interval,
                BATCH_SIZE=args.batch_size,
                OCR_WORKERS=args.ocr_workers,
            )
            app = DocBatchApp(settings)
            started = time.perf_counter()
            report = app.add(paths, mode="batch")
            job_ids = [j.id for j in report.jobs]
            intake = time.perf_counter() - started
            assert job_ids and all(j.id is not None for j in report.jobs)
            instrument()
            base_mb = rss_now_mb()

            profiler = cProfile.Profile() if args.profile else None
            started, cpu_started = time.perf_counter(), time.process_time()
            if profiler:
                profiler.enable()
            jobs = asyncio.run(app.run(job_ids, stop=IdleEvent()))
            if profiler:
                profiler.disable()
            wall = time.perf_counter() - started
            engine_cpu = time.process_time() - cpu_started
            peak_mb = peak_rss_mb()
            served = fake.report()

        # -- correctness --
        states = Counter(j.state.value for j in jobs)
        finished_ok = all(j.state in (JobState.DONE, JobState.NEEDS_REVIEW) for j in jobs)
        groups = -(-args.pages // settings.group_size)
        expected = {custom_id(j.id, g) for j in jobs if j.id for g in range(1, groups + 1)}
        submitted = Counter(served["custom_ids"])
        repeated = sorted(i for i, n in submitted.items() if n > 1)
        missing = expected - set(submitted)
        unexpected = set(submitted) - expected
        ids_once = not repeated and not missing and not unexpected
        batches = served["creates"]
        stored_batches = len(app.store.list_batches())

        # -- figures --
        totals = CLOCK.totals
        render = totals["render (child)"]
        children = totals["child start"] + totals["child stop"]
        http = sum(v for k, v in totals.items() if k.startswith("http "))
        idle = totals["idle (POLL_INTERVAL)"]
        bookkeeping = wall - CLOCK.waiting
        per_job_ms = bookkeeping * 1000 / len(jobs)
        pages = sum(j.pages or 0 for j in jobs)
        budget = base_mb + settings.max_concurrent_mb + SLACK_MB

        print(
            f"{len(jobs)} jobs x {args.pages} pages, BATCH_SIZE={args.batch_size}, "
            f"OCR_WORKERS={args.ocr_workers}, POLL_INTERVAL={args.poll_interval:g} s, "
            f"batch ends on retrieve #{args.polls}"
        )
        print(f"  (not timed: inputs generated in {generated:.1f} s, intake {intake:.1f} s)")
        print(
            "  Method: bookkeeping = wall time of app.run minus the time spent waiting, i.e. "
            "inside run_prepare\n  (render children; its store callbacks counted back), "
            "ChildPool.warm_up/close, BatchClient HTTP\n  calls and the POLL_INTERVAL sleep, "
            "as the union of those intervals (timers wrapped around\n  them in this process "
            "at run time; product code unchanged)."
        )
        print("\nWhere the wall time went (s; union of waits subtracted once):")
        rows = [
            ("wall time of app.run", wall),
            ("  render in child processes (run_prepare)", render),
            ("  render children start + stop", children),
            ("  HTTP (BatchClient calls, results stream)", http),
            ("  idle between cycles (POLL_INTERVAL)", idle),
            ("  waiting, union of the above", CLOCK.waiting),
            ("  bookkeeping = wall - waiting", bookkeeping),
        ]
        for label, value in rows:
            print(f"  {label:<46} {value:9.2f}")
        print("\nBookkeeping by part (s, ms per job):")
        # Blob writes run in threads while the child renders (their time overlaps the
        # waits): the part the engine waits for is the render step's time after its
        # child, which also holds the page rows' writes (counted in the store's too).
        parts = [(g, CLOCK.groups[g]) for g in (STORE, REQUESTS, RESULTS)]
        parts.append(("blob reads (LocalBlobStore.read)", totals["blobs.read"]))
        parts.append((RENDER_TAIL, totals[RENDER_TAIL]))
        parts.append(
            ("other (engine loop, SDK client set-up, ...)", bookkeeping - sum(v for _, v in parts))
        )
        parts.append(("(blob writes in threads, overlapping waits)", totals["blobs.put_bytes"]))
        for label, value in parts:
            print(f"  {label:<46} {value:9.2f} {value * 1000 / len(jobs):8.2f}")
        print("\nTimers (s, calls):")
        for label, value in sorted(totals.items(), key=lambda kv: -kv[1]):
            if value >= 0.05:
                print(f"  {label:<46} {value:9.2f} {CLOCK.calls[label]:8d}")
        print(
            "\nFake server calls:",
            ", ".join(f"{k}: {n}" for k, n in sorted(served["calls"].items())),
        )
        print(f"Fake server process peak RSS: {served['peak_rss_mb']:.0f} MB (not in the budget)")

        within = peak_mb <= budget
        summary = [
            ("bookkeeping per job", f"{per_job_ms:.2f} ms (target <= 5 ms)"),
            ("engine CPU per job (this process)", f"{engine_cpu * 1000 / len(jobs):.2f} ms"),
            ("pages/s (whole run)", f"{pages / wall:.1f} ({pages} pages)"),
            ("jobs/s (whole run)", f"{len(jobs) / wall:.1f}"),
            ("base RSS before the run", f"{base_mb:.0f} MB"),
            ("peak RSS (ru_maxrss)", f"{peak_mb:.0f} MB"),
            (
                "budget (base + MAX_CONCURRENT_MB + 200)",
                f"{budget:.0f} MB: {'within' if within else 'OVER'}",
            ),
            ("batches created (POST /v1/messages/batches)", f"{batches} (store: {stored_batches})"),
            ("job states", ", ".join(f"{k}: {n}" for k, n in sorted(states.items()))),
            ("every job done or needs_review", "yes" if finished_ok else "NO"),
            (
                "each custom_id submitted exactly once",
                "yes"
                if ids_once
                else f"NO (repeated {len(repeated)}, missing {len(missing)}, "
                f"unexpected {len(unexpected)})",
            ),
        ]
        print()
        for label, value in summary:
            print(f"  {label:<46} {value}")
        if profiler and args.profile_out:
            profiler.dump_stats(args.profile_out)
        if profiler:
            out = io.StringIO()
            stats = pstats.Stats(profiler, stream=out)
            stats.sort_stats("tottime").print_stats(30)
            stats.sort_stats("cumulative").print_stats(40)
            print("\ncProfile of the run (main thread; by own time, then cumulative):")
            print(out.getvalue())
        print(
            json.dumps(
                {
                    "jobs": len(jobs),
                    "bookkeeping_ms_per_job": round(per_job_ms, 3),
                    "engine_cpu_ms_per_job": round(engine_cpu * 1000 / len(jobs), 3),
                    "peak_rss_mb": round(peak_mb, 1),
                    "budget_mb": round(budget, 1),
                    "peak_over_budget": round(peak_mb / budget, 3) if budget else None,
                    "batches": batches,
                    "within_budget": within,
                    "base_rss_mb": round(base_mb, 1),
                    "wall_s": round(wall, 2),
                    "render_s": round(render, 2),
                    "children_s": round(children, 2),
                    "http_s": round(http, 2),
                    "idle_s": round(idle, 2),
                    "pages_per_s": round(pages / wall, 1),
                    "batch_size": args.batch_size,
                    "all_done_or_review": finished_ok,
                    "ids_submitted_once": ids_once,
                }
            )
        )
    finally:
        if app is not None:
            app.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
