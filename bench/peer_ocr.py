"""DocBatch against OCRmyPDF on the same 20 scanned pages, in one run.

The pages are generated deterministically (seed 29): a Russian invoice with English
lines, set in a different order and with different numbers on each page, rendered
at 200 dpi in grayscale, turned by 0/90/180/270 degrees in turn, every third one
skewed by 1-2 degrees, with speckle noise; all 20 in one image-only PDF, as a
scanner's feeder gives them.

- **OCRmyPDF** ``--rotate-pages --deskew -l rus+eng -j 2 --output-type pdf``: the
  options that turn pages upright and straighten them, two pages at once. Its fastest
  output type (a plain PDF, no PDF/A conversion) so that it is not charged for work
  DocBatch does not do. Upright means each output page's /Rotate undoes the turn.
- **DocBatch** offline, ``OCR_WORKERS=2`` and ``RENDER_WORKERS=2``: render, Tesseract
  (orientation, deskew, text) and the offline extractor; upright means each stored
  page's rotation undoes the turn.

Both times include everything from the file to the result. The ratio is OCRmyPDF's
time over DocBatch's (> 1: DocBatch is faster). Target: ``bench/targets.toml``.
Each side's CPU (user + sys of this process and of every process it waited for:
OCRmyPDF's Tesseract and Ghostscript, DocBatch's render and OCR children and their
Tesseract) is printed too, with its ratio: on a shared machine the wall times say
more about the load than about the two programs.
OCRmyPDF needs Ghostscript (``apt-get install ghostscript``) and ``ocrmypdf`` in
the venv (the [dev] extra); without them the bench says so and stops.

Run: ``.venv/bin/python bench/peer_ocr.py [--pages 20]``. The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pymupdf
from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docbatch_gui.app.facade import DocBatchApp  # noqa: E402
from docbatch_gui.settings.loading import load_settings  # noqa: E402

SEED = 29
#: the niceness OCRmyPDF gives itself
OCRMYPDF_NICE = 5
SCAN_DPI = 200
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


def upright_fix(turn: int) -> int:
    """The clockwise turn that undoes a scan's clockwise ``turn``."""
    return (360 - turn) % 360


def cpu_seconds() -> float:
    """User + sys seconds of this process and of the children it has waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


#: CPU seconds of each side's run, by name ("ocrmypdf", "docbatch")
CPU: dict[str, float] = {}


def run_ocrmypdf(source: Path, output: Path) -> tuple[float | None, list[int], str]:
    """Seconds, each output page's /Rotate, or why OCRmyPDF could not run."""
    ocrmypdf = Path(sys.executable).with_name("ocrmypdf")
    if not ocrmypdf.exists() and shutil.which("ocrmypdf") is None:
        return None, [], "ocrmypdf is not installed (pip install ocrmypdf: the [dev] extra)"
    if shutil.which("gs") is None:
        return None, [], "Ghostscript is missing (apt-get install ghostscript)"
    command = [str(ocrmypdf) if ocrmypdf.exists() else "ocrmypdf"]
    command += ["--rotate-pages", "--deskew", "-l", "rus+eng", "-j", "2"]
    command += ["--output-type", "pdf", "--quiet", str(source), str(output)]
    started, cpu = time.perf_counter(), cpu_seconds()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    CPU["ocrmypdf"] = cpu_seconds() - cpu
    if done.returncode:
        return None, [], f"ocrmypdf failed ({done.returncode}): {done.stderr.strip()[-300:]}"
    with pymupdf.open(output) as result:
        return seconds, [page.rotation for page in result], ""


def run_docbatch(source: Path, data: Path) -> tuple[float, list[int], list[bool], list[float]]:
    """Seconds, each stored page's rotation, uncertain flag and skew."""
    settings = load_settings(
        data_dir=data,
        OCR_ENGINE="tesseract",
        OCR_LANGUAGES="ru,en",
        OCR_WORKERS=2,
        RENDER_WORKERS=2,
        JOB_TIMEOUT=3600,
        OCR_TIMEOUT=600,
    )
    cpu = cpu_seconds()
    app = DocBatchApp(settings)
    try:
        started = time.perf_counter()
        ids = [job.id for job in app.add([source], mode="offline").jobs]
        (job,) = asyncio.run(app.run(ids))
        seconds = time.perf_counter() - started
        pages = app.store.list_pages(job.id)
        skews = [float(getattr(page, "skew", 0.0) or 0.0) for page in pages]
        return seconds, [p.rotation for p in pages], [p.orientation_uncertain for p in pages], skews
    finally:
        app.close()
        CPU["docbatch"] = cpu_seconds() - cpu  # its children are reaped by now


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="docbatch-peer-"))
    try:
        pages = scanned_pages(args.pages)
        expected = [upright_fix(turn) for _image, turn in pages]
        source = scans_pdf(tmp / "scans.pdf", pages)
        peer_s, peer_rotations, why = run_ocrmypdf(source, tmp / "ocrmypdf.pdf")
        # OCRmyPDF lowers its own priority (os.nice(5) in its __main__); DocBatch runs at
        # the same, so that a busy machine favours neither
        if hasattr(os, "nice"):
            os.nice(OCRMYPDF_NICE)
        ours_s, our_rotations, flagged, skews = run_docbatch(source, tmp / "data")
        ours_wrong = sum(a != b for a, b in zip(our_rotations, expected, strict=True))
        print(f"{args.pages} scanned pages (rus+eng; turned {sorted(set(TURNS))}; "
              f"every third skewed), 2 workers each")  # fmt: skip
        print(f"  DocBatch offline  {ours_s:7.1f} s  pages facing the wrong way: "
              f"{ours_wrong}, flagged uncertain: {sum(flagged)}")  # fmt: skip
        figures: dict[str, object] = {
            "pages": args.pages,
            "docbatch_s": round(ours_s, 2),
            "docbatch_cpu_s": round(CPU["docbatch"], 2),
            "docbatch_wrong_way": ours_wrong,
            "docbatch_flagged": sum(flagged),
            "docbatch_max_skew": round(max((abs(s) for s in skews), default=0.0), 2),
        }
        if peer_s is None:
            print(f"  OCRmyPDF          skipped: {why}")
            figures |= {"ocrmypdf_s": None, "speed_over_ocrmypdf": None, "skipped": why}
        else:
            peer_wrong = sum(a != b for a, b in zip(peer_rotations, expected, strict=True))
            ratio = peer_s / ours_s
            print(f"  OCRmyPDF          {peer_s:7.1f} s  pages facing the wrong way: {peer_wrong}")
            print(f"  DocBatch's speed over OCRmyPDF's: {ratio:.2f}x")
            cpu_ratio = CPU["ocrmypdf"] / CPU["docbatch"]
            print(f"  CPU (user + sys, with children): OCRmyPDF {CPU['ocrmypdf']:.1f} s, "
                  f"DocBatch {CPU['docbatch']:.1f} s, ratio {cpu_ratio:.2f}x")  # fmt: skip
            print(f"  turns that make each page upright: {expected}")
            print(f"  OCRmyPDF's /Rotate per page:      {peer_rotations}")
            print(f"  DocBatch's rotation per page:     {our_rotations}")
            figures |= {
                "ocrmypdf_s": round(peer_s, 2),
                "ocrmypdf_cpu_s": round(CPU["ocrmypdf"], 2),
                "cpu_over_ocrmypdf": round(cpu_ratio, 3),
                "ocrmypdf_wrong_way": peer_wrong,
                "expected_rotations": expected,
                "ocrmypdf_rotations": peer_rotations,
                "docbatch_rotations": our_rotations,
                "speed_over_ocrmypdf": round(ratio, 3),
            }
        print(json.dumps(figures))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
