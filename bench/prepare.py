"""Benchmark of the prepare step (render, encode, thumbnail, text) on 200 pages.

It compares the real pipeline (isolated child, streaming, blob ingest) with the limit:
a bare loop of PyMuPDF raster + Pillow grayscale JPEG at the same size, in-process.
It also times the encoding alternatives that were considered.

Run: ``.venv/bin/python bench/prepare.py [--pages 200] [--no-encoders] [--no-store]``.
The last line is JSON; it splits each run's CPU a page between the parent (the event
loop and the blob writes) and the render children.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# DocBatch's package first, as in a worker: it refuses PyMuPDF's optional layout
# analyser (an ONNX model, 0.7 s of CPU and six threads), which ``import pymupdf``
# would load in this process, the limit's loop included
import docbatch_gui  # noqa: E402, F401, I001

import numpy as np  # noqa: E402
import psutil  # noqa: E402
import pymupdf  # noqa: E402
from PIL import Image  # noqa: E402

from docbatch_gui.domain.models import Page  # noqa: E402
from docbatch_gui.engine.page_writes import PageWriter  # noqa: E402
from docbatch_gui.engine.render_step import PAGE_FLUSH_COUNT  # noqa: E402
from docbatch_gui.pipeline.jpeg import encode_pixels  # noqa: E402
from docbatch_gui.pipeline.prepare import prepare_pool, run_prepare  # noqa: E402
from docbatch_gui.pipeline.render import PrepareTask, RenderedPage, target_size  # noqa: E402
from docbatch_gui.storage.blobs import LocalBlobStore  # noqa: E402

SAMPLE = ROOT / "docbatch_gui" / "resources" / "samples" / "ru_three_documents.pdf"


def make_pdf(path: Path, pages: int) -> Path:
    """A realistic text PDF: the Russian sample's dense pages (tables, Cyrillic), repeated."""
    source = pymupdf.open(SAMPLE)
    document = pymupdf.open()
    while document.page_count < pages:
        document.insert_pdf(source, to_page=min(source.page_count, pages - document.page_count) - 1)
    document.save(path, garbage=0)
    return path


def _raster(page: pymupdf.Page, colorspace: pymupdf.Colorspace) -> pymupdf.Pixmap:
    width, height = target_size(page.rect.width, page.rect.height)
    matrix = pymupdf.Matrix(width / page.rect.width, height / page.rect.height)
    return page.get_pixmap(matrix=matrix, colorspace=colorspace, alpha=False)


def bare_loop(path: str) -> tuple[int, float, int]:
    """The limit: raster + Pillow grayscale JPEG, nothing else. Returns pages, s, bytes."""
    document = pymupdf.open(path)
    size = 0
    started = time.perf_counter()
    for page in document:
        pixmap = _raster(page, pymupdf.csGRAY)
        image = Image.frombuffer(
            "L", (pixmap.width, pixmap.height), pixmap.samples, "raw", "L", pixmap.stride, 1
        )
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=80)
        size += buffer.tell()
    return document.page_count, time.perf_counter() - started, size


def encoders(path: str, pages: int = 20) -> dict[str, tuple[float, int]]:
    """ms per page and bytes per page for each encoding considered."""
    document = pymupdf.open(path)
    results: dict[str, tuple[float, int]] = {}

    def pil(pixmap: pymupdf.Pixmap, mode: str) -> bytes:
        image = Image.frombuffer(
            mode, (pixmap.width, pixmap.height), pixmap.samples, "raw", mode, pixmap.stride, 1
        )
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=80 if mode == "L" else 85)
        return buffer.getvalue()

    def turbo(pixmap: pymupdf.Pixmap) -> bytes:
        """The product's encoder (``pipeline/jpeg.py``), from the pixmap's memory."""
        rows = np.frombuffer(pixmap.samples_mv, np.uint8).reshape(pixmap.height, pixmap.stride)
        return encode_pixels(rows[:, : pixmap.width], 80)

    cases = {
        "raster only (gray)": lambda p: (_raster(p, pymupdf.csGRAY), b"")[1],
        "MuPDF PNG (gray)": lambda p: _raster(p, pymupdf.csGRAY).tobytes("png"),
        "MuPDF JPEG (gray)": lambda p: _raster(p, pymupdf.csGRAY).tobytes("jpeg", jpg_quality=80),
        "Pillow JPEG q85 (RGB)": lambda p: pil(_raster(p, pymupdf.csRGB), "RGB"),
        "Pillow JPEG q80 (gray)": lambda p: pil(_raster(p, pymupdf.csGRAY), "L"),
        "libjpeg-turbo q80 (gray) *": lambda p: turbo(_raster(p, pymupdf.csGRAY)),
    }
    for name, encode in cases.items():
        started = time.perf_counter()
        size = sum(len(encode(document[i % document.page_count])) for i in range(pages))
        results[name] = ((time.perf_counter() - started) * 1000 / pages, size // pages)
    return results


@dataclass
class Run:
    """One timed pipeline run: its pages, wall seconds and image bytes, and the CPU
    seconds of this process (the parent: the event loop and the blob writes) and of
    its children (the render children) apart, as the load hardly moves them."""

    pages: int
    seconds: float
    bytes: int
    parent_cpu: float
    children_cpu: float
    workers: int
    #: the children's voluntary context switches: each is a wait of theirs (a full
    #: pipe to the parent, a read of the file), where preemption is not
    children_waits: int = 0

    def per_page_ms(self, seconds: float) -> float:
        return round(seconds * 1000 / self.pages, 3)

    @property
    def children_busy(self) -> float:
        """The share of the run each child spent on a core: 1.0 when the children never
        waited (for the parent, the disk or another process's turn)."""
        return self.children_cpu / (self.seconds * self.workers)


class RowCount:
    """The store's side of the page writer, without a database: the rows are counted
    (a page row's write is the same few statements whatever the render costs)."""

    def __init__(self) -> None:
        self.rows = 0

    def put_pages(self, pages: list[Page]) -> None:
        self.rows += len(pages)


class PageSink:
    """Pages stored as the render step stores them: the product's own page writer
    (``engine/page_writes.PageWriter``), each page's blobs hashed and written in
    threads as it comes, made durable every ``PAGE_FLUSH_COUNT`` pages by a flush that
    runs beside the render; with ``store`` False, the pages are only counted (the
    parent's reading alone)."""

    def __init__(self, blobs: LocalBlobStore, *, store: bool = True) -> None:
        self.rows = RowCount()
        self.writer = PageWriter(blobs, self.rows, lambda written: None)
        self.store = store
        self.pending = 0
        self.counted = 0
        self.bytes = 0

    @property
    def pages(self) -> int:
        return self.rows.rows if self.store else self.counted

    async def on_page(self, page: RenderedPage) -> None:
        self.bytes += len(page.image)
        if not self.store:
            self.counted += 1
            return
        self.writer.stage(Page(0, page.page_no, page.width, page.height, text=page.text), page)
        if self.writer.waiting >= PAGE_FLUSH_COUNT:
            await self.writer.flush(wait=False)

    async def flush(self) -> None:
        if self.store:
            await self.writer.flush(wait=True)


async def pipeline(paths: list[Path], data: Path, *, store: bool = True) -> Run:
    """The real prepare step for each file at once, on warm children as a running
    worker has them: isolated child, streamed pages, blob ingest (unless not ``store``)."""
    blobs = LocalBlobStore(data / "blobs")
    pool = prepare_pool(len(paths))
    await pool.warm_up()
    sink = PageSink(blobs, store=store)

    async def one(path: Path) -> None:
        async def on_count(_: int) -> None:
            return None

        task = PrepareTask(str(path), path.name, "pdf")
        await run_prepare(
            task, time.monotonic() + 600, pool, on_count=on_count, on_page=sink.on_page
        )

    children = await _children_idle()  # done importing, as a worker's children are
    parent_before, children_before = time.process_time(), _children_cpu(children)
    waits_before = _children_waits(children)
    started = time.perf_counter()
    await asyncio.gather(*(one(p) for p in paths))
    await sink.flush()
    elapsed = time.perf_counter() - started
    parent = time.process_time() - parent_before
    run = Run(
        sink.pages,
        elapsed,
        sink.bytes,
        parent,
        _children_cpu(children) - children_before,
        len(paths),
        _children_waits(children) - waits_before,
    )
    await pool.close()
    return run


async def _children_idle(least: float = 1.0, most: float = 20.0) -> list[psutil.Process]:
    """This process's children once they have spent no CPU for a quarter of a second
    (after ``least`` seconds, at most ``most``): a child still importing PyMuPDF on a
    busy machine would add its import to the run's CPU and time. A fixed wait of a
    second was too short at a load average of 20."""
    started = time.monotonic()
    children = psutil.Process().children(recursive=True)
    spent = _children_cpu(children)
    while time.monotonic() - started < most:
        await asyncio.sleep(0.25)
        children = psutil.Process().children(recursive=True)
        now = _children_cpu(children)
        if now == spent and time.monotonic() - started >= least:
            break
        spent = now
    return children


def _children_cpu(children: list[psutil.Process]) -> float:
    total = 0.0
    for child in children:
        with contextlib.suppress(psutil.Error):
            times = child.cpu_times()
            total += times.user + times.system
    return total


def _children_waits(children: list[psutil.Process]) -> int:
    total = 0
    for child in children:
        with contextlib.suppress(psutil.Error):
            total += child.num_ctx_switches().voluntary
    return total


def _load_average() -> float | None:
    """The 1-minute load average (none on Windows): a wall-time figure is only worth
    reading beside it."""
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None


def _limit_1(pdf: Path) -> float:
    pages, seconds, _ = bare_loop(str(pdf))
    return pages / seconds


def _limit_2(pdf: Path, copy: Path) -> float:
    with ProcessPoolExecutor(2) as pool:
        list(pool.map(_noop, range(2)))  # the workers' start is not the limit's
        started = time.perf_counter()
        results = list(pool.map(bare_loop, [str(pdf), str(copy)]))
        return sum(r[0] for r in results) / (time.perf_counter() - started)


def _noop(_: int) -> None:
    return None


def measure(pdf: Path, copy: Path, tmp: Path, *, store: bool) -> tuple[list[Any], dict[str, Any]]:
    """One measurement: the limits and the pipeline with 1 and 2 workers; the rows to
    print and the figures of the JSON line."""
    # Each limit is measured just before and just after its pipeline run, and the
    # two averaged: on a shared machine the load drifts, and a ratio of figures
    # taken minutes apart would measure the drift.
    limit_1a = _limit_1(pdf)
    run_1 = asyncio.run(pipeline([pdf], tmp / "d1", store=store))
    limit_1 = (limit_1a + _limit_1(pdf)) / 2
    pages_1, bytes_1 = run_1.pages, run_1.bytes
    cpu_page = (run_1.parent_cpu + run_1.children_cpu) / pages_1  # both processes
    started = time.process_time()
    bare_loop(str(pdf))
    limit_cpu_page = (time.process_time() - started) / pages_1
    limit_2a = _limit_2(pdf, copy)
    run_2 = asyncio.run(pipeline([pdf, copy], tmp / "d2", store=store))
    limit_2 = (limit_2a + _limit_2(pdf, copy)) / 2
    rate_1, rate_2 = pages_1 / run_1.seconds, run_2.pages / run_2.seconds
    rows = [
        ("limit (raster + Pillow JPEG), 1 worker", f"{limit_1:7.1f} pages/s"),
        ("limit (raster + Pillow JPEG), 2 workers", f"{limit_2:7.1f} pages/s"),
        ("prepare step, 1 worker", f"{rate_1:7.1f} pages/s  ratio {rate_1 / limit_1:.2f}"),
        (
            "prepare step, 2 workers",
            f"{rate_2:7.1f} pages/s  ratio {rate_2 / limit_2:.2f} per worker",
        ),
        ("scaling 2 workers / 1", f"{rate_2 / rate_1:7.2f}x"),
        (
            "CPU a page: limit / prepare, 1 worker",
            f"{limit_cpu_page * 1000:7.2f} / {cpu_page * 1000:.2f} ms"
            f"  ratio {limit_cpu_page / cpu_page:.2f}",
        ),
        *(
            (
                f"CPU a page, {run.workers} worker{'s' if run.workers > 1 else ''}: "
                "parent / children",
                f"{run.per_page_ms(run.parent_cpu):7.2f} / "
                f"{run.per_page_ms(run.children_cpu):.2f} ms"
                f"  children busy {run.children_busy:.2f}",
            )
            for run in (run_1, run_2)
        ),
        ("page image size", f"{bytes_1 / pages_1 / 1024:7.1f} KiB"),
    ]
    figures = {
        "pages_per_s_1": round(rate_1, 1),
        "limit_pages_per_s_1": round(limit_1, 1),
        "ratio_1": round(rate_1 / limit_1, 3),
        "pages_per_s_2": round(rate_2, 1),
        "limit_pages_per_s_2": round(limit_2, 1),
        "scaling_2_over_1": round(rate_2 / rate_1, 3),
        "bytes_per_page": round(bytes_1 / pages_1),
        # the same ratio in CPU time (parent and child): steady under load
        "cpu_ratio_1": round(limit_cpu_page / cpu_page, 3),
        "cpu_ms_per_page_1": round(cpu_page * 1000, 2),
        "limit_cpu_ms_per_page": round(limit_cpu_page * 1000, 2),
        # the cost split of each run, in CPU time: the parent (event loop,
        # blob writes) and the render children, a page; and the share of
        # the run each child was on a core (below 1: it waited)
        "parent_cpu_ms_per_page_1": run_1.per_page_ms(run_1.parent_cpu),
        "children_cpu_ms_per_page_1": run_1.per_page_ms(run_1.children_cpu),
        "children_busy_1": round(run_1.children_busy, 3),
        "parent_cpu_ms_per_page_2": run_2.per_page_ms(run_2.parent_cpu),
        "children_cpu_ms_per_page_2": run_2.per_page_ms(run_2.children_cpu),
        "children_busy_2": round(run_2.children_busy, 3),
        # the scaling the costs allow, two cores of our own: 1 worker at
        # its child's pace, 2 at 2 / (child + parent CPU a page); steady
        # where the wall-time figure moves with the neighbours
        "cpu_scaling_2_over_1": round(
            2
            * run_1.children_cpu
            / pages_1
            / ((run_2.children_cpu + run_2.parent_cpu) / run_2.pages),
            3,
        ),
        "children_waits_per_page_1": round(run_1.children_waits / pages_1, 3),
        "children_waits_per_page_2": round(run_2.children_waits / run_2.pages, 3),
        "load_average": _load_average(),
    }
    return rows, figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument(
        "--no-encoders", action="store_true", help="skip the table of encodings considered"
    )
    parser.add_argument(
        "--no-store",
        action="store_true",
        help="do not store the pages' blobs: the parent's CPU is then its reading alone",
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="measure N times and report the medians"
    )
    args = parser.parse_args()
    store = not args.no_store
    tmp = Path(tempfile.mkdtemp(prefix="docbatch-bench-"))
    try:
        pdf = make_pdf(tmp / "bench.pdf", args.pages)
        copy = tmp / "bench_copy.pdf"
        shutil.copy(pdf, copy)
        bare_loop(str(pdf))  # warm the page cache and fonts

        if not args.no_encoders:
            print(f"Encoding alternatives (A4 page at {target_size(595, 842)} px; * = used):")
            for name, (ms, size) in encoders(str(pdf)).items():
                print(f"  {name:<26} {ms:7.1f} ms/page {size / 1024:8.1f} KiB/page")

        # A run's figures move with the neighbours and with the page cache (one child
        # spent 4.1-5.2 ms of CPU a page on identical work): --repeat measures again
        # and reports each figure's median.
        runs = [measure(pdf, copy, tmp / f"r{i}", store=store) for i in range(args.repeat)]
        rows, _ = runs[-1]
        figures = {
            key: (round(median(r[1][key] for r in runs), 3) if len(runs) > 1 else value)
            for key, value in runs[-1][1].items()
        }
        if len(runs) > 1:
            figures["repeats"] = len(runs)
            figures["scaling_2_over_1_runs"] = [r[1]["scaling_2_over_1"] for r in runs]
            figures["ratio_1_runs"] = [r[1]["ratio_1"] for r in runs]
        print(f"\n{args.pages}-page text PDF (the last of {len(runs)} runs):")
        for label, value in rows:
            print(f"  {label:<40} {value}")
        if len(runs) > 1:
            print(
                f"  medians of {len(runs)} runs: ratio {figures['ratio_1']:.3f}, "
                f"scaling {figures['scaling_2_over_1']:.3f}"
            )
        print(json.dumps(figures))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
