"""The quick benchmarks, each figure beside its target: run at every stop.

Runs ``prepare``, ``registry_import`` and ``gui_responsiveness`` one after the other
(each alone on the machine: they measure speed), each in its own process with
parameters sized so the whole run takes about 40 seconds on a 2-core machine; reads
each one's last JSON line, and prints every figure of ``bench/targets.toml`` beside
its target. The long benches (batch engine, peer OCR, registry search) run alone:
``.venv/bin/python bench/<name>.py``.

Run: ``.venv/bin/python bench/quick.py [--only prepare,...]``. The last line is JSON:
``{"<bench>.<figure>": value, ..., "met": n, "missed": [...]}``. A bench that fails
prints its error and counts its figures as missed; the exit code is 0 either way
(figures are reported, not asserted).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.targets import figures_of, load_targets, met, target_text  # noqa: E402

#: each quick bench's arguments here: smaller than its own defaults where the figure
#: does not depend on the size (the prepare ratio is a rate), the same where the target
#: names the size (100k registry rows, 100k queue rows)
QUICK_ARGS = {
    "prepare": ["--pages", "120", "--no-encoders", "--repeat", "3"],
    "registry_import": ["--rows", "100000"],
    # 1,000 jobs x 8 updates over 4 s: the full bench's rate (2,000 updates/s, so the
    # same batches a flush hands the window), in less time
    "gui_responsiveness": ["--seconds", "4", "--steps", "8", "--show-runs", "2"],
}
TIMEOUT_S = 120


def run_bench(
    name: str, script: str, timeout_s: float = TIMEOUT_S
) -> tuple[dict[str, Any] | None, float, str]:
    """The bench's last JSON line, its wall time, and its error output when it failed.
    A bench over its time is stopped with every process it started (its render
    children, the window's child), so that none runs on beside the next bench."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    started = time.perf_counter()
    bench = subprocess.Popen(
        [sys.executable, str(ROOT / script), *QUICK_ARGS.get(name, [])],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    try:
        stdout, stderr = bench.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        _stop_tree(bench.pid)
        bench.communicate()
        return None, time.perf_counter() - started, f"timed out after {timeout_s:g} s"
    seconds = time.perf_counter() - started
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    if bench.returncode or not lines:
        output = (stderr or stdout).strip().splitlines()
        return None, seconds, output[-1] if output else f"exit code {bench.returncode}"
    return json.loads(lines[-1]), seconds, ""


def _stop_tree(pid: int) -> None:
    """Kill a process and its descendants (psutil: the same on Windows and POSIX)."""
    import psutil

    try:
        root = psutil.Process(pid)
        family = [*root.children(recursive=True), root]
    except psutil.NoSuchProcess:
        return
    for process in family:
        with contextlib.suppress(psutil.NoSuchProcess):
            process.kill()
    psutil.wait_procs(family, timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated bench names")
    parser.add_argument(
        "--timeout",
        type=float,
        default=TIMEOUT_S,
        help="seconds each bench may take before it is stopped (raise it on a loaded machine)",
    )
    args = parser.parse_args()
    targets = load_targets()
    names = [n for n, t in targets.items() if t.get("quick")]
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    summary: dict[str, Any] = {}
    missed: list[str] = []
    started = time.perf_counter()
    for name in names:
        figures, seconds, error = run_bench(name, targets[name]["run"], args.timeout)
        print(f"{name} ({seconds:.1f} s)" + (f": FAILED {error}" if error else ""))
        for key, target in figures_of(name).items():
            value = (figures or {}).get(key)
            ok = met(value, target)
            shown = "-" if value is None else f"{value:g}"
            verdict = "ok" if ok else "MISSED"
            print(f"  {target['label']:<58} {shown:>9}  target {target_text(target):<8} {verdict}")
            summary[f"{name}.{key}"] = value
            if not ok:
                missed.append(f"{name}.{key}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    print(f"total {time.perf_counter() - started:.1f} s; load average {load}")
    met_count = len(summary) - len(missed)
    print(json.dumps({**summary, "met": met_count, "missed": missed, "load_average": load}))


if __name__ == "__main__":
    main()
