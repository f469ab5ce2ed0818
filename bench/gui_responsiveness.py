"""How responsive the desktop window stays: event-loop stalls, a big queue, start-up.

Offscreen (``QT_QPA_PLATFORM=offscreen``), on the real window (``build_window``):

- **stalls**: 1,000 jobs each report ``--steps`` progress updates through the real
  ``EngineBridge`` listener from a background thread (as the engine thread does),
  spread over ``--seconds``; a precise 5 ms ``QTimer`` records how late each tick
  fires. Beside it, the GUI thread's CPU time between two ticks (``time.thread_time``):
  the work of the largest stall, which a loaded machine does not inflate as it does
  the lateness (``max_stall_cpu_ms``). The window runs on the application's own
  event loop (``make_loop``) and garbage collector (``GuiThreadCollector``), as
  ``run_gui`` starts them. For the three largest stalls it prints what ran: the
  collections that overlapped them (``gc.callbacks``) and, with ``--profile``, the GUI
  thread's stack sampled every millisecond by a background thread.
- **load**: ``QueueTab.load`` of 100,000 jobs into the model, with the filter proxy
  and the table view attached, up to and including the first paint.
- **first show**: a fresh ``python -m docbatch_gui --exit-after-show`` process, timed
  by this process's wall clock from the spawn to the window's first paint. The median
  of ``--show-runs`` runs is reported, with the child's CPU time up to the paint
  (``first_show_cpu_s``), which compares across loads.

The targets are in ``bench/targets.toml``. ``load_100k_cpu_s`` is the GUI thread's CPU
time of the load.

Run: ``.venv/bin/python bench/gui_responsiveness.py``. The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.targets import figures_of  # noqa: E402
from docbatch_gui.domain.models import Job  # noqa: E402
from docbatch_gui.domain.states import JobState, Phase  # noqa: E402

#: the targets, from the one table of them (``bench/targets.toml``)
TARGETS = {k: v["max"] for k, v in figures_of("gui_responsiveness").items()}
#: the states a job passes through as its progress grows
PATH = [JobState.PREPARING, JobState.EXTRACTING, JobState.DONE]


def make_jobs(count: int, start_id: int = 1) -> list[Job]:
    """Queued jobs as the store would hand them out (three pages each)."""
    now = datetime.now(UTC)
    return [
        Job(
            id=i,
            file_name=f"scan_{i:06d}.pdf",
            source_path=f"/data/inbox/scan_{i:06d}.pdf",
            sha256=f"{i:064x}",
            size=250_000,
            mode="offline",
            state=JobState.QUEUED,
            phase=None,
            pages=3,
            created_at=now,
            updated_at=now,
        )
        for i in range(start_id, start_id + count)
    ]


def step_of(job: Job, step: int, steps: int) -> Job:
    """The job after ``step`` of ``steps`` progress reports."""
    state = PATH[min(len(PATH) - 1, (step * (len(PATH) - 1)) // steps)]
    done = state is JobState.DONE
    return replace(
        job,
        state=state,
        phase=None if done else Phase.PREPARE,
        progress=step / steps,
        documents=2 if done else 0,
        cost_actual_usd=0.0 if done else None,
    )


def feed(on_job: object, jobs: list[Job], steps: int, seconds: float) -> int:
    """Send every job's progress updates at an even rate; return how many were sent."""
    assert callable(on_job)
    total = len(jobs) * steps
    chunk = max(1, total // int(seconds * 100))  # about one burst every 10 ms
    interval = seconds * chunk / total
    sent = 0
    next_at = time.perf_counter()
    for step in range(1, steps + 1):
        for job in jobs:
            on_job(step_of(job, step, steps))
            sent += 1
            if sent % chunk == 0:
                next_at += interval
                delay = next_at - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
    return sent


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def first_show(runs: int) -> tuple[list[float], list[float]]:
    """Seconds from spawning a fresh GUI process to its window's first paint, and the
    child's CPU seconds up to then (``cpu_s`` of its report, when it gives one).

    One untimed run comes first: it writes the bytecode caches, as installing a
    package does (``PYTHONDONTWRITEBYTECODE`` is dropped for the child, else every
    start would compile DocBatch's sources again).
    """
    times, cpus = [], []
    for _ in range(runs + 1):
        with tempfile.TemporaryDirectory(prefix="docbatch-bench-show-") as tmp:
            env = {**os.environ, "XDG_CONFIG_HOME": tmp}  # a first start: no saved layout
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            command = [sys.executable, "-m", "docbatch_gui", "--exit-after-show"]
            started = time.time()
            result = subprocess.run(
                [*command, "--data-dir", str(Path(tmp) / "data")],
                env=env,
                capture_output=True,
                text=True,
                timeout=60,
                cwd=ROOT,
            )
            if result.returncode != 0:
                raise RuntimeError(f"the GUI did not start: {result.stderr[-2000:]}")
            report = json.loads(result.stdout.strip().splitlines()[-1])
            times.append(report["shown_at"] - started)
            if "cpu_s" in report:  # not reported before it was added
                cpus.append(report["cpu_s"])
    return times[1:], cpus[1:] if len(cpus) > runs else cpus


class Ticker:
    """A precise Qt timer that records how late each tick fires, in ms, and the GUI
    thread's CPU time between two ticks (``cpu_ms``), and when each tick fired
    (``at``, ``perf_counter``)."""

    def __init__(self, interval_ms: float) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.interval_ms = interval_ms
        self.lateness: list[float] = []
        self.cpu_ms: list[float] = []
        self.at: list[float] = []
        self._last = time.perf_counter()
        self._last_cpu = time.thread_time()
        self._timer = QTimer()
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(int(interval_ms))
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        self.lateness.append(max(0.0, (now - self._last) * 1000 - self.interval_ms))
        self.cpu_ms.append((cpu - self._last_cpu) * 1000)
        self.at.append(now)
        self._last, self._last_cpu = now, cpu

    def start(self) -> None:
        self._last, self._last_cpu = time.perf_counter(), time.thread_time()
        self._timer.start()

    def stop(self) -> list[float]:
        self._timer.stop()
        return self.lateness


class Collections:
    """Every garbage collection (any thread) with its generation, start and end."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, float, float, str]] = []
        self._started: dict[int, float] = {}

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        now = time.perf_counter()
        ident = threading.get_ident()
        if phase == "start":
            self._started[ident] = now
        else:
            began = self._started.pop(ident, now)
            self.seen.append((info["generation"], began, now, threading.current_thread().name))

    def __enter__(self) -> Collections:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *_exc: object) -> None:
        gc.callbacks.remove(self)

    def during(self, start: float, end: float) -> list[str]:
        return [
            f"gen{gen} collection {(e - b) * 1000:.1f} ms ({thread})"
            for gen, b, e, thread in self.seen
            if b < end and e > start
        ]


class StackSampler(threading.Thread):
    """The GUI thread's innermost frames every ``interval_s`` (``--profile``): what
    ran during a stall. A background thread, so it takes the GIL a moment each time."""

    def __init__(self, target: int, interval_s: float = 0.001) -> None:
        super().__init__(daemon=True, name="stack-sampler")
        self.target, self.interval_s = target, interval_s
        self.samples: list[tuple[float, str]] = []
        self.running = True

    def run(self) -> None:
        while self.running:
            frame = sys._current_frames().get(self.target)
            if frame is not None:
                self.samples.append((time.perf_counter(), _where(frame)))
            time.sleep(self.interval_s)

    def during(self, start: float, end: float) -> list[str]:
        counts = Counter(where for at, where in self.samples if start <= at <= end)
        return [f"{n} x {where}" for where, n in counts.most_common(4)]


def _where(frame: object) -> str:
    """The three innermost frames, innermost last: ``module:function:line``."""
    names = []
    while frame is not None and len(names) < 3:
        code = frame.f_code  # type: ignore[attr-defined]
        names.append(f"{Path(code.co_filename).stem}:{code.co_name}:{frame.f_lineno}")  # type: ignore[attr-defined]
        frame = frame.f_back  # type: ignore[attr-defined]
    return " < ".join(names)


def worst_stalls(
    ticker: Ticker, collections: Collections, sampler: StackSampler | None, count: int = 3
) -> list[str]:
    """The ``count`` largest stalls, each with its GUI CPU and what ran in it."""
    lines = []
    order = sorted(range(len(ticker.lateness)), key=lambda i: -ticker.lateness[i])
    for i in order[:count]:
        end = ticker.at[i]
        start = end - (ticker.lateness[i] + ticker.interval_ms) / 1000
        ran = collections.during(start, end) + (sampler.during(start, end) if sampler else [])
        lines.append(
            f"  stall {ticker.lateness[i]:.1f} ms late, GUI CPU {ticker.cpu_ms[i]:.1f} ms: "
            + ("; ".join(ran) or "no collection")
        )
    return lines


async def idle_noise(seconds: float, tick_ms: float) -> list[float]:
    """Tick lateness with nothing to do: the machine's own noise (other processes)."""
    ticker = Ticker(tick_ms)
    ticker.start()
    await asyncio.sleep(seconds)
    return ticker.stop()


async def measure_stalls(
    window: object, args: argparse.Namespace
) -> tuple[list[float], list[float]]:
    """Tick lateness (ms), and the GUI thread's CPU between ticks (ms), while
    ``args.jobs`` jobs report progress through the bridge (with ``args.queue_rows``
    more jobs sitting in the queue)."""
    from docbatch_gui._qt.window import MainWindow

    assert isinstance(window, MainWindow)
    jobs = make_jobs(args.jobs)
    idle = [replace(j, state=JobState.DONE) for j in make_jobs(args.queue_rows, 20_000_000)]
    window.queue_tab.load(idle + jobs)
    await asyncio.sleep(0.3)  # the first paint of the loaded rows is not a stall
    ticker = Ticker(args.tick_ms)
    # The engine's listener: what the worker calls from the engine thread per change.
    on_job = window.ctx.bridge._on_job
    feeder = threading.Thread(target=feed, args=(on_job, jobs, args.steps, args.seconds))
    sampler = StackSampler(threading.get_ident()) if args.profile else None
    with Collections() as collections:
        if sampler:
            sampler.start()
        ticker.start()
        feeder.start()
        while feeder.is_alive():
            await asyncio.sleep(0.05)
        # the last batches, handed over in slices: wait for them, not for a fixed time
        deadline = time.monotonic() + 30
        while not _all_done(window) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        lateness = ticker.stop()
        if sampler:
            sampler.running = False
    assert _all_done(window), "not every update reached the model"
    args.worst = worst_stalls(ticker, collections, sampler)
    return lateness, ticker.cpu_ms


def _all_done(window: object) -> bool:
    from docbatch_gui._qt.window import MainWindow

    assert isinstance(window, MainWindow)
    return all(j.state is JobState.DONE for j in window.queue_tab.model.jobs())


async def measure_load(window: object, rows: int) -> tuple[float, float]:
    """Seconds to load ``rows`` jobs into the queue tab and paint the table once, and
    the GUI thread's CPU seconds for it."""
    from docbatch_gui._qt.window import MainWindow

    assert isinstance(window, MainWindow)
    jobs = make_jobs(rows, start_id=10_000_000)
    table = window.queue_tab.table
    started, cpu = time.perf_counter(), time.thread_time()
    window.queue_tab.load(jobs)
    table.viewport().repaint()  # the first paint, synchronously
    elapsed, cpu = time.perf_counter() - started, time.thread_time() - cpu
    assert table.model().rowCount() == rows
    return elapsed, cpu


def in_process(args: argparse.Namespace) -> dict[str, float | None]:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from docbatch_gui._qt.build import build_window
    from docbatch_gui._qt.gc_guard import GuiThreadCollector
    from docbatch_gui._qt.loop import make_loop
    from docbatch_gui._qt.main import freeze_startup_heap
    from docbatch_gui._qt.window import MainWindow
    from docbatch_gui.settings.loading import load_settings

    tmp = Path(tempfile.mkdtemp(prefix="docbatch-bench-gui-"))
    qapp = QApplication.instance() or QApplication(sys.argv[:1])
    settings = load_settings(DOCBATCH_DATA_DIR=str(tmp / "data"), PROCESSING_MODE="offline")
    qsettings = QSettings(str(tmp / "gui.ini"), QSettings.Format.IniFormat)
    loop = make_loop(qapp)  # as run_gui does
    asyncio.set_event_loop(loop)
    window = build_window(settings, qsettings)
    assert isinstance(window, MainWindow)
    freeze_startup_heap()  # as run_gui does once the queue is loaded
    collector = GuiThreadCollector(qapp)
    collector.start()
    window.show()
    results: dict[str, float | None] = {}

    async def scenario() -> None:
        await window.start()  # the real engine thread runs, on an empty store
        noise = await idle_noise(2.0, args.tick_ms)
        results["idle_max_stall_ms"] = round(max(noise), 1)
        lateness, cpu_ms = await measure_stalls(window, args)
        results["max_stall_ms"] = round(max(lateness), 1)
        results["max_stall_cpu_ms"] = round(max(cpu_ms), 1)
        results["p99_stall_ms"] = round(percentile(lateness, 0.99), 1)
        results["ticks"] = len(lateness)
        load_s, load_cpu_s = await measure_load(window, args.rows)
        results["load_100k_s"] = round(load_s, 3)
        results["load_100k_cpu_s"] = round(load_cpu_s, 3)
        await window.shutdown()
        window.ctx.host.close()

    with loop:
        loop.run_until_complete(scenario())
    collector.stop()
    return results


def _seconds(value: float | None) -> str:
    """A figure in seconds, or "n/a" (a child too old to report its CPU)."""
    return "     n/a" if value is None else f"{value:8.3f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=20, help="progress reports per job")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long the updates run")
    parser.add_argument("--tick-ms", type=float, default=5.0)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument(
        "--queue-rows", type=int, default=0, help="finished jobs in the queue during the stalls"
    )
    parser.add_argument("--show-runs", type=int, default=3)
    parser.add_argument(
        "--profile",
        action="store_true",
        help="sample the GUI thread's stack every ms: what ran in the largest stalls",
    )
    args = parser.parse_args()

    shows, show_cpus = first_show(args.show_runs)
    results = in_process(args)
    results["first_show_s"] = round(statistics.median(shows), 3)
    results["first_show_cpu_s"] = round(statistics.median(show_cpus), 3) if show_cpus else None
    rate = args.jobs * args.steps / args.seconds
    rows = [
        ("largest stall", f"{results['max_stall_ms']:8.1f} ms", "max_stall_ms"),
        ("p99 stall", f"{results['p99_stall_ms']:8.1f} ms", None),
        ("largest stall's CPU (GUI thread)", f"{results['max_stall_cpu_ms']:8.1f} ms", None),
        ("load 100,000 jobs + first paint", f"{results['load_100k_s']:8.3f} s", "load_100k_s"),
        ("its CPU (GUI thread)", f"{results['load_100k_cpu_s']:8.3f} s", None),
        ("first show (median)", f"{results['first_show_s']:8.3f} s", "first_show_s"),
        ("its CPU, to the paint (median)", _seconds(results["first_show_cpu_s"]), None),
    ]
    print(
        f"{args.jobs} jobs × {args.steps} progress updates over {args.seconds:.0f} s "
        f"({rate:.0f} updates/s) among {args.queue_rows} finished jobs; {results['ticks']} "
        f"ticks of {args.tick_ms:.0f} ms; the largest stall while idle (machine noise): "
        f"{results['idle_max_stall_ms']:.1f} ms; first show runs: "
        f"{', '.join(f'{s:.3f}' for s in shows)} s"
    )
    for label, value, key in rows:
        verdict = ""
        if key:
            verdict = "ok" if results[key] < TARGETS[key] else f"MISSED (< {TARGETS[key]})"
        print(f"  {label:<34} {value}  {verdict}")
    print("the largest stalls, and what ran in them:")
    print("\n".join(args.worst))
    print(
        json.dumps(
            {
                k: results[k]
                for k in (
                    "max_stall_ms",
                    "p99_stall_ms",
                    "max_stall_cpu_ms",
                    "load_100k_s",
                    "load_100k_cpu_s",
                    "first_show_s",
                    "first_show_cpu_s",
                )
            }
        )
    )


if __name__ == "__main__":
    main()
