"""DocBatch against OCRmyPDF on the same 20 scanned pages, the two run in turn.

The pages are generated deterministically (seed 29): a Russian invoice with English
lines, set in a different order and with different numbers on each page, rendered
at 200 dpi in grayscale, turned by 0/90/180/270 degrees in turn, every third one
skewed by 1-2 degrees, with speckle noise; all 20 in one image-only PDF, as a
scanner's feeder gives them.

- **OCRmyPDF** ``--rotate-pages --deskew -l rus+eng -j 2 --output-type pdf``: the
  options that turn pages upright and straighten them, two pages at once. Its fastest
  output type (a plain PDF, no PDF/A conversion) so that it is not charged for work
  DocBatch does not do. Its default ``--rotate-pages-threshold`` (14) is kept: the
  bench's pages score 18-23 (``-v 1`` logs "page is facing ⇨, confidence 19.98 - will
  rotate").
- **DocBatch** offline, ``OCR_WORKERS=2`` and ``RENDER_WORKERS=2``: render, Tesseract
  (orientation, deskew, text) and the offline extractor.

**Upright** is judged the same way on both sides, from the pixels: each output page
as a viewer shows it (OCRmyPDF's page with its /Rotate; DocBatch's stored page image)
is compared, blurred to a 60 x 85 thumbnail, with the scan before it was turned, at
each quarter turn; the turn that matches best is the one the page still needs (0:
upright). An earlier version read OCRmyPDF's /Rotate and found 15 of 20 pages
wrong: with ``--deskew`` OCRmyPDF draws each page anew from its rotated and
straightened image and leaves /Rotate at 0 (its ``fix_pagepdf_boxes``: "we create a
single page PDF that is correctly rotated instead of ... setting page.Rotate on
it"), so every page read 0 although OCRmyPDF had turned all 20 upright.

**Fair on a shared machine**: each side runs as a process of its own, at the same
niceness (OCRmyPDF lowers its own by 5, DocBatch's process is started at 5), the two
in turn (DocBatch, OCRmyPDF, DocBatch, OCRmyPDF … ``--rounds``), and each side's
figure is the median of its runs, so that a change of load between runs weighs on
both. Wall time is the process's, from start to exit (both pay their imports). CPU is
user + sys of the process and of every process it waited for (OCRmyPDF's Tesseract,
DocBatch's render and OCR children and their Tesseract): on a shared machine it is
the figure that compares across loads. The ratios are OCRmyPDF's median over
DocBatch's (> 1: DocBatch is faster). Targets: ``bench/targets.toml``.

OCRmyPDF is ``ocrmypdf`` in the venv (the [dev] extra); without it the bench says so
and runs DocBatch alone. OCRmyPDF 17 draws pages with pypdfium2 and needs Ghostscript
only for PDF/A, which this bench does not ask for.

Run: ``.venv/bin/python bench/peer_ocr.py [--pages 20] [--rounds 2]``. The last line
is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median
from typing import Any

import psutil
import pymupdf
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageStat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SEED = 29
#: the niceness OCRmyPDF gives itself
OCRMYPDF_NICE = 5
SCAN_DPI = 200
#: the resolution OCRmyPDF's output pages are drawn at to judge them
SHOW_DPI = 30
TURNS = (0, 90, 180, 270)
LINES = [
    "<p style='font-size:15pt'><b>Счёт на оплату № {n} от {d}.03.2024 г.</b></p>",
    "<p>Поставщик: ООО «Ромашка», ИНН 7701234567, КПП 770101001</p>",
    "<p>Покупатель: АО «Василёк», ИНН 7809876543, г. Москва, ул. Ленина, д. {d}</p>",
    "<p>Основание: договор поставки № {n}-П от 01.02.2024</p>",
    "<p>Консультационные услуги за март 2024 г., количество 1, цена {a} руб.</p>",
    "<p>Итого: {a} руб. В том числе НДС 20%: {v} руб.</p>",
    "<p><b>Всего к оплате: {a} руб.</b></p>",
    "<p>Payment reference: invoice {n}, please quote this number with your transfer.</p>",
    "<p>Bank: Sberbank, account 40702810900000012345, BIC 044525225</p>",
    "<p>Руководитель ____________ Иванов И.И.   Бухгалтер ____________ Петрова А.С.</p>",
]


def scanned_pages(count: int) -> list[tuple[Image.Image, int]]:
    """``count`` page scans and the clockwise turn each was given."""
    rng = random.Random(SEED)
    pages = []
    for index in range(count):
        number, day = 300 + index * 7, 1 + index % 28
        amount = rng.randrange(10_000, 900_000)
        values = {
            "n": number,
            "d": f"{day:02d}",
            "a": f"{amount:,}".replace(",", " ") + ",00",
            "v": f"{amount // 6:,}".replace(",", " ") + ",00",
        }
        body = LINES[:1] + rng.sample(LINES[1:], len(LINES) - 1)
        html = "<div style='font-family: sans-serif; font-size: 11pt'>"
        html += "".join(line.format(**values) for line in body) + "</div>"
        document = pymupdf.open()
        page = document.new_page(width=595, height=842)
        page.insert_htmlbox(pymupdf.Rect(60, 60, 535, 782), html)
        pixmap = page.get_pixmap(dpi=SCAN_DPI, colorspace=pymupdf.csGRAY)
        image = Image.frombytes("L", (pixmap.width, pixmap.height), pixmap.samples)
        if index % 3 == 2:  # a page fed askew
            skew = rng.choice((-2.0, -1.2, 1.2, 2.0))
            image = image.rotate(skew, resample=Image.Resampling.BILINEAR, fillcolor=255)
        draw = ImageDraw.Draw(image)
        for _ in range(1500):  # speckles
            x, y = rng.randrange(image.width), rng.randrange(image.height)
            draw.point((x, y), fill=rng.randrange(0, 120))
        turn = TURNS[index % 4]
        pages.append((image.rotate(-turn, expand=True), turn))  # PIL turns counter-clockwise
    return pages


def scans_pdf(path: Path, pages: list[tuple[Image.Image, int]]) -> Path:
    """One image-only PDF of the scans, each page the size of its image at 200 dpi."""
    document = pymupdf.open()
    for image, _turn in pages:
        width, height = image.width * 72 / SCAN_DPI, image.height * 72 / SCAN_DPI
        page = document.new_page(width=width, height=height)
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=85)
        page.insert_image(page.rect, stream=buffer.getvalue())
    document.save(path)
    return path


#: the size pages are compared at, blurred first so that speckles and a re-drawn
#: image's small differences do not count, only where the text blocks are
THUMB = (60, 85)
THUMB_BLUR = 6


def upright_fix(turn: int) -> int:
    """The clockwise turn that undoes a scan's clockwise ``turn``."""
    return (360 - turn) % 360


def _thumb(image: Image.Image) -> Image.Image:
    gray = image.convert("L").filter(ImageFilter.GaussianBlur(THUMB_BLUR))
    return gray.resize(THUMB, Image.Resampling.BOX)


def turn_needed(shown: Image.Image, truth: Image.Image) -> int:
    """The clockwise quarter turn ``shown`` still needs to look like ``truth`` (the
    upright page; a portrait page): 0 when it is upright."""
    target = _thumb(truth)
    best: tuple[float, int] | None = None
    for turn in TURNS:
        candidate = shown.rotate(-turn, expand=True)  # PIL turns counter-clockwise
        if (candidate.width > candidate.height) != (truth.width > truth.height):
            continue
        difference = ImageStat.Stat(ImageChops.difference(_thumb(candidate), target)).mean[0]
        if best is None or difference < best[0]:
            best = (difference, turn)
    return best[1] if best else 0


def ocrmypdf_command() -> list[str] | None:
    """The ``ocrmypdf`` of this venv (or the PATH's), None when it is not installed."""
    ocrmypdf = Path(sys.executable).with_name("ocrmypdf")
    if ocrmypdf.exists():
        return [str(ocrmypdf)]
    found = shutil.which("ocrmypdf")
    return [found] if found else None


def _nice() -> None:  # pragma: no cover - runs in the child before exec
    os.nice(OCRMYPDF_NICE)


def timed(
    command: list[str], *, nice: bool
) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall and CPU seconds (user + sys, with every process it waited for) of one
    process run to its end; ``nice``: started at OCRmyPDF's niceness."""
    before = _waited_cpu()
    started = time.perf_counter()
    preexec = _nice if nice and hasattr(os, "nice") else None
    done = subprocess.run(command, capture_output=True, text=True, preexec_fn=preexec)
    seconds = time.perf_counter() - started
    return seconds, _waited_cpu() - before, done


def _waited_cpu() -> float:
    """CPU seconds of every process this one has waited for, through psutil rather than
    the POSIX-only ``resource`` module (Windows reports no such figure: 0 there)."""
    times = psutil.Process().cpu_times()
    return getattr(times, "children_user", 0.0) + getattr(times, "children_system", 0.0)


def run_ocrmypdf(command: list[str], source: Path, output: Path) -> dict[str, Any]:
    """One OCRmyPDF run: its times, each output page as shown and its /Rotate."""
    command = [*command, "--rotate-pages", "--deskew", "-l", "rus+eng", "-j", "2"]
    command += ["--output-type", "pdf", "--quiet", str(source), str(output)]
    seconds, cpu, done = timed(command, nice=False)  # it lowers its own priority
    if done.returncode:
        raise SystemExit(f"ocrmypdf failed ({done.returncode}): {done.stderr.strip()[-300:]}")
    shown, rotate = [], []
    with pymupdf.open(output) as result:
        for page in result:
            pixmap = page.get_pixmap(dpi=SHOW_DPI, colorspace=pymupdf.csGRAY)  # with /Rotate
            shown.append(Image.frombytes("L", (pixmap.width, pixmap.height), pixmap.samples))
            rotate.append(page.rotation)
    return {"s": seconds, "cpu": cpu, "shown": shown, "rotate": rotate}


def run_docbatch(source: Path, work: Path) -> dict[str, Any]:
    """One DocBatch run in a process of its own (``--docbatch-side``): its times, each
    stored page image and what DocBatch recorded of it."""
    command = [sys.executable, str(Path(__file__).resolve()), "--docbatch-side"]
    command += [str(source), str(work)]
    seconds, cpu, done = timed(command, nice=True)
    if done.returncode:
        raise SystemExit(f"DocBatch's run failed ({done.returncode}): {done.stderr[-600:]}")
    report = json.loads((work / "pages.json").read_text())
    shown = []
    for number in range(1, len(report["rotation"]) + 1):
        with Image.open(work / f"page-{number}.jpg") as image:
            shown.append(image.convert("L"))
    return {"s": seconds, "cpu": cpu, "shown": shown, **report}


def docbatch_side(source: Path, work: Path) -> None:
    """The DocBatch run itself, in the process ``run_docbatch`` started: each stored
    page image to ``work``, and what was recorded of the pages to ``pages.json``."""
    # deferred: the parent does not load DocBatch at all
    from docbatch_gui.app.facade import DocBatchApp
    from docbatch_gui.settings.loading import load_settings

    settings = load_settings(
        data_dir=work / "data",
        OCR_ENGINE="tesseract",
        OCR_LANGUAGES="ru,en",
        OCR_WORKERS=2,
        RENDER_WORKERS=2,
        JOB_TIMEOUT=3600,
        OCR_TIMEOUT=600,
    )
    app = DocBatchApp(settings)
    try:
        started = time.perf_counter()
        ids = [job.id for job in app.add([source], mode="offline").jobs]
        (job,) = asyncio.run(app.run(ids))
        seconds = time.perf_counter() - started
        pages = app.store.list_pages(job.id)
        for page in pages:
            image = app.blobs.read(page.image_sha) if page.image_sha else b""
            (work / f"page-{page.page_no}.jpg").write_bytes(image)
        report = {
            "run_s": seconds,
            "rotation": [page.rotation for page in pages],
            "flagged": [page.orientation_uncertain for page in pages],
            "skew": [float(page.skew or 0.0) for page in pages],
        }
        (work / "pages.json").write_text(json.dumps(report))
    finally:
        app.close()  # its children are reaped here, so the parent counts their CPU


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2, help="runs of each side, in turn")
    parser.add_argument("--docbatch-side", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.docbatch_side:
        docbatch_side(Path(args.docbatch_side[0]), Path(args.docbatch_side[1]))
        return
    tmp = Path(tempfile.mkdtemp(prefix="docbatch-peer-"))
    try:
        scans = scanned_pages(args.pages)
        expected = [upright_fix(turn) for _image, turn in scans]
        peer = ocrmypdf_command()
        load_before = _load()
        runs = in_turn(scans, tmp, args.rounds, peer)
        figures = report(args.pages, expected, runs, load_before, _load(), peer is not None)
        print(json.dumps(figures))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def in_turn(
    scans: list[tuple[Image.Image, int]], tmp: Path, rounds: int, peer: list[str] | None
) -> dict[str, list[dict[str, Any]]]:
    """Each side's runs, DocBatch and OCRmyPDF in turn, each judged page by page."""
    source = scans_pdf(tmp / "scans.pdf", scans)
    truths = [image.rotate(turn, expand=True) for image, turn in scans]  # upright again
    sides = ["docbatch", "ocrmypdf"] if peer else ["docbatch"]
    runs: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
    for round_no in range(rounds):
        for side in sides:
            work = tmp / f"{side}-{round_no}"
            work.mkdir()
            if side == "docbatch":
                run = run_docbatch(source, work)
            else:
                run = run_ocrmypdf(peer or [], source, work / "ocrmypdf.pdf")
            shown = run.pop("shown")
            run["needs"] = [turn_needed(s, t) for s, t in zip(shown, truths, strict=True)]
            run["wrong"] = sum(map(bool, run["needs"]))
            runs[side].append(run)
            print(
                f"  round {round_no + 1} {side:8s} {run['s']:7.1f} s wall, "
                f"{run['cpu']:6.1f} s CPU, pages facing the wrong way: {run['wrong']}",
                flush=True,
            )
    return runs


def _load() -> list[float]:
    return [round(x, 1) for x in os.getloadavg()] if hasattr(os, "getloadavg") else []


def report(
    pages: int,
    expected: list[int],
    runs: dict[str, list[dict[str, Any]]],
    load_before: list[float],
    load_after: list[float],
    peer: bool,
) -> dict[str, Any]:
    """Prints the medians and ratios; the figures of the JSON line."""
    ours = runs["docbatch"]
    last = ours[-1]
    figures: dict[str, Any] = {
        "pages": pages,
        "rounds": len(ours),
        "load_before": load_before,
        "load_after": load_after,
        "docbatch_s": round(median(r["s"] for r in ours), 2),
        "docbatch_cpu_s": round(median(r["cpu"] for r in ours), 2),
        "docbatch_runs_s": [round(r["s"], 2) for r in ours],
        "docbatch_cpu_runs_s": [round(r["cpu"], 2) for r in ours],
        "docbatch_wrong_way": max(r["wrong"] for r in ours),
        "docbatch_flagged": max(sum(r["flagged"]) for r in ours),
        "docbatch_max_skew": round(max(abs(s) for r in ours for s in r["skew"]), 2),
        "expected_rotations": expected,
        "docbatch_rotations": last["rotation"],
        "docbatch_still_needs": last["needs"],
    }
    print(f"{pages} scanned pages (rus+eng; turned {sorted(set(TURNS))}; every third "
          f"skewed), 2 workers each, {len(ours)} rounds in turn; "
          f"load {load_before} -> {load_after}")  # fmt: skip
    print(f"  DocBatch offline  median {figures['docbatch_s']:7.1f} s wall, "
          f"{figures['docbatch_cpu_s']:6.1f} s CPU; pages facing the wrong way "
          f"(worst run): {figures['docbatch_wrong_way']}, "
          f"flagged uncertain: {figures['docbatch_flagged']}")  # fmt: skip
    if not peer:
        why = "ocrmypdf is not installed (pip install ocrmypdf: the [dev] extra)"
        print(f"  OCRmyPDF          skipped: {why}")
        return figures | {"ocrmypdf_s": None, "speed_over_ocrmypdf": None, "skipped": why}
    theirs = runs["ocrmypdf"]
    figures |= {
        "ocrmypdf_s": round(median(r["s"] for r in theirs), 2),
        "ocrmypdf_cpu_s": round(median(r["cpu"] for r in theirs), 2),
        "ocrmypdf_runs_s": [round(r["s"], 2) for r in theirs],
        "ocrmypdf_cpu_runs_s": [round(r["cpu"], 2) for r in theirs],
        "ocrmypdf_wrong_way": max(r["wrong"] for r in theirs),
        "ocrmypdf_rotations": theirs[-1]["rotate"],  # its /Rotate: 0, it turns the image
        "ocrmypdf_still_needs": theirs[-1]["needs"],
    }
    figures["speed_over_ocrmypdf"] = round(figures["ocrmypdf_s"] / figures["docbatch_s"], 3)
    figures["cpu_over_ocrmypdf"] = round(figures["ocrmypdf_cpu_s"] / figures["docbatch_cpu_s"], 3)
    print(f"  OCRmyPDF          median {figures['ocrmypdf_s']:7.1f} s wall, "
          f"{figures['ocrmypdf_cpu_s']:6.1f} s CPU; pages facing the wrong way (worst run): "
          f"{figures['ocrmypdf_wrong_way']}")  # fmt: skip
    print(f"  DocBatch's speed over OCRmyPDF's: {figures['speed_over_ocrmypdf']:.2f}x wall, "
          f"{figures['cpu_over_ocrmypdf']:.2f}x CPU (medians)")  # fmt: skip
    print(f"  turns that make each page upright:  {expected}")
    print(f"  DocBatch's rotation per page:       {last['rotation']}")
    print(f"  turn each page still needs, DocBatch: {last['needs']}")
    print(f"  turn each page still needs, OCRmyPDF: {theirs[-1]['needs']}")
    return figures


if __name__ == "__main__":
    main()
