"""Benchmark of the prepare step (render, encode, thumbnail, text) on 200 pages.

It compares the real pipeline (isolated child, streaming, blob ingest) with the limit:
a bare loop of PyMuPDF raster + Pillow grayscale JPEG at the same size, in-process.
It also times the encoding alternatives that were considered.

Run: ``.venv/bin/python bench/prepare.py [--pages 200]``. The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# DocBatch's package first, as in a worker: it refuses PyMuPDF's optional layout
# analyser (an ONNX model, 0.7 s of CPU and six threads), which ``import pymupdf``
# would load in this process, the limit's loop included
import docbatch_gui  # noqa: E402, F401, I001

import psutil  # noqa: E402
import pymupdf  # noqa: E402
from PIL import Image  # noqa: E402

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

    cases = {
        "raster only (gray)": lambda p: (_raster(p, pymupdf.csGRAY), b"")[1],
        "MuPDF PNG (gray)": lambda p: _raster(p, pymupdf.csGRAY).tobytes("png"),
        "MuPDF JPEG (gray)": lambda p: _raster(p, pymupdf.csGRAY).tobytes("jpeg", jpg_quality=80),
        "Pillow JPEG q85 (RGB)": lambda p: pil(_raster(p, pymupdf.csRGB), "RGB"),
        "Pillow JPEG q80 (gray) *": lambda p: pil(_raster(p, pymupdf.csGRAY), "L"),
    }
    for name, encode in cases.items():
        started = time.perf_counter()
        size = sum(len(encode(document[i % document.page_count])) for i in range(pages))
        results[name] = ((time.perf_counter() - started) * 1000 / pages, size // pages)
    return results


async def pipeline(paths: list[Path], data: Path) -> tuple[int, float, int]:
    """The real prepare step for each file at once, on warm children as a running
    worker has them: isolated child, streamed pages, blob ingest."""
    blobs = LocalBlobStore(data / "blobs")
    pool = prepare_pool(len(paths))
    await pool.warm_up()
    counts = [0]
    sizes = [0]

    async def one(index: int, path: Path) -> None:
        async def on_count(_: int) -> None:
            return None

        async def on_page(page: RenderedPage) -> None:
            blobs.put_bytes(page.image)
            if page.thumb:
                blobs.put_bytes(page.thumb)
            if page.words_blob:  # stored as the render step stores them
                blobs.put_bytes(page.words_blob)
            size = len(page.image)
            counts[0] += 1
            sizes[0] += size

        task = PrepareTask(str(path), path.name, "pdf")
        await run_prepare(task, time.monotonic() + 600, pool, on_count=on_count, on_page=on_page)

    children = await _children_idle()  # done importing, as a worker's children are
    cpu_before = _cpu(children)
    started = time.perf_counter()
    await asyncio.gather(*(one(i, p) for i, p in enumerate(paths)))
    elapsed = time.perf_counter() - started
    CPU_SPENT.append(_cpu(children) - cpu_before)
    await pool.close()
    return counts[0], elapsed, sizes[0]


#: CPU seconds of each ``pipeline`` run, this process's and its children's
CPU_SPENT: list[float] = []


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


def _cpu(children: list[psutil.Process]) -> float:
    """CPU seconds of this process and of ``children`` so far: machine load does not
    inflate them as it does wall time (only slightly, through shared caches)."""
    return time.process_time() + _children_cpu(children)


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument(
        "--no-encoders", action="store_true", help="skip the table of encodings considered"
    )
    args = parser.parse_args()
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

        # Each limit is measured just before and just after its pipeline run, and the
        # two averaged: on a shared machine the load drifts, and a ratio of figures
        # taken minutes apart would measure the drift.
        limit_1a = _limit_1(pdf)
        pages_1, seconds_1, bytes_1 = asyncio.run(pipeline([pdf], tmp / "d1"))
        limit_1 = (limit_1a + _limit_1(pdf)) / 2
        cpu_page = CPU_SPENT[-1] / pages_1  # the pipeline's CPU a page, both processes
        started = time.process_time()
        bare_loop(str(pdf))
        limit_cpu_page = (time.process_time() - started) / pages_1
        limit_2a = _limit_2(pdf, copy)
        pages_2, seconds_2, _ = asyncio.run(pipeline([pdf, copy], tmp / "d2"))
        limit_2 = (limit_2a + _limit_2(pdf, copy)) / 2
        rate_1, rate_2 = pages_1 / seconds_1, pages_2 / seconds_2
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
            ("page image size", f"{bytes_1 / pages_1 / 1024:7.1f} KiB"),
        ]
        print(f"\n{args.pages}-page text PDF:")
        for label, value in rows:
            print(f"  {label:<40} {value}")
        print(
            json.dumps(
                {
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
                }
            )
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
