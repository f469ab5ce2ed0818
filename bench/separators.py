"""What looking for separator sheets costs per page: zxing-cpp on a rendered page image
(the size the render step makes, grayscale JPEG), for a text page without a barcode
(every page of a file is scanned) and for a separator sheet.

    .venv/bin/python bench/separators.py [--pages 20]

Ends with one JSON line: milliseconds per page for each kind.
"""

from __future__ import annotations

import argparse
import io
import json
import time
from pathlib import Path

import numpy
import pymupdf
import zxingcpp
from PIL import Image

from docbatch_gui.pipeline.separators import page_barcodes

SAMPLE = (
    Path(__file__).resolve().parents[1] / "docbatch_gui/resources/samples/ru_three_documents.pdf"
)


def _page_jpeg(document: pymupdf.Document) -> bytes:
    return document[0].get_pixmap(dpi=130, colorspace="gray").pil_tobytes("jpeg", quality=85)


def _sheet_jpeg() -> bytes:
    code = Image.fromarray(
        numpy.asarray(
            zxingcpp.create_barcode("PATCHT", zxingcpp.BarcodeFormat.QRCode).to_image(scale=8)
        )
    )
    page = Image.new("L", (1075, 1521), 255)
    page.paste(code, (420, 640))
    buffer = io.BytesIO()
    page.save(buffer, "JPEG", quality=85)
    return buffer.getvalue()


def _ms(image: bytes, pages: int) -> float:
    page_barcodes(image)
    started = time.perf_counter()
    for _ in range(pages):
        page_barcodes(image)
    return round((time.perf_counter() - started) / pages * 1000, 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=20)
    args = parser.parse_args()
    with pymupdf.open(SAMPLE) as document:
        text_page = _page_jpeg(document)
    figures = {
        "bench": "separators",
        "text_page_ms": _ms(text_page, args.pages),
        "sheet_ms": _ms(_sheet_jpeg(), args.pages),
        "pages": args.pages,
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
