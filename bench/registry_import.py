"""Benchmark of registry import: 100,000 rows x 20 columns into a SQLite store.

The workbook comes from ``scripts/big_registry.py`` (raw sheet XML: openpyxl's writer
would dominate the run), with text, dd.mm.yyyy dates, Excel serial dates and amounts
like "1 234,56"; it is written once per size and kept in ``--cache`` (named by the
size and the generator's own hash, so a changed generator writes it again): writing
it costs about 5 s of CPU, which every run at every stop would pay again. The import
is the real one (``RegistryService.import_registry``:
archive check, sheet scan, calamine or openpyxl, three views per row, chunks of 500
into SQLite). Peak RSS is sampled in a thread while it runs, of this process and its
children together (calamine parses in a child process on Linux); the CPU time, the
children's included, is printed too, as the wall time on a shared machine grows with
everyone else's work.

Run: ``.venv/bin/python bench/registry_import.py [--rows 100000] [--cache DIR]``. The last
line is JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docbatch_gui.registry.service import RegistryService  # noqa: E402
from docbatch_gui.storage.sqlite import SQLiteStore  # noqa: E402
from scripts.big_registry import write_big_registry  # noqa: E402

COLUMNS = 20
#: where the generated workbooks are kept between runs
CACHE = Path(tempfile.gettempdir()) / "docbatch-bench-registry"


def workbook(cache: Path, rows: int, columns: int) -> Path:
    """The bench's workbook of ``rows`` x ``columns``: from the cache, else written there
    (under a temporary name first, so a run killed mid-write leaves no half workbook)."""
    generator = (ROOT / "scripts" / "big_registry.py").read_bytes()
    tag = hashlib.sha256(generator).hexdigest()[:12]
    path = cache / f"registry-{rows}x{columns}-{tag}.xlsx"
    if not path.exists():
        cache.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.part")
        write_big_registry(partial, rows, columns)
        partial.replace(path)
    return path


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--cache", type=Path, default=CACHE, help="where workbooks are kept")
    args = parser.parse_args()
    config = {"mapping": {"number": "A", "date": "B", "amount": "C", "counterparty": "D"},
              "required_column_index": "A"}  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        book = Path(tmp) / "registry.xlsx"  # a copy: the import reads it as an operator's
        shutil.copyfile(workbook(args.cache, args.rows, COLUMNS), book)
        size_mb = book.stat().st_size / 2**20
        store = SQLiteStore(Path(tmp) / "db.sqlite3")
        process = psutil.Process()
        peak = process.memory_info().rss
        stop = threading.Event()

        children: list[psutil.Process] = []

        def tree_rss() -> int:
            total = process.memory_info().rss
            for child in children:
                with contextlib.suppress(psutil.Error):  # ended meanwhile
                    total += child.memory_info().rss
            return total

        def sample() -> None:
            # Finding the children reads every process's /proc entry (2 ms of CPU on a
            # busy machine, 20 times a second, was counted in this process's CPU time);
            # their RSS is sampled every 50 ms, the list found again every 0.25 s.
            nonlocal peak, children
            ticks = 0
            while not stop.wait(0.05):
                if ticks % 5 == 0:
                    children = process.children(recursive=True)
                ticks += 1
                peak = max(peak, tree_rss())

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        started, cpu = time.perf_counter(), _cpu()
        summary = RegistryService(store).import_registry(book, config)
        seconds, cpu = time.perf_counter() - started, _cpu() - cpu
        stop.set()
        sampler.join()
        peak = max(peak, process.memory_info().rss)
        store.close()
    print(f"workbook {args.rows} rows x {COLUMNS} columns ({size_mb:.1f} MB): kept "
          f"{summary.kept}, filtered {summary.filtered} in {seconds:.1f} s, "
          f"peak RSS {peak / 2**20:.0f} MB (with children); CPU {cpu:.1f} s, load "
          f"average {os.getloadavg()[0]:.1f} (wall time grows with other work)")  # fmt: skip
    figures = {"rows": summary.kept, "seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2),
               "peak_rss_mb": round(peak / 2**20, 1)}  # fmt: skip
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
