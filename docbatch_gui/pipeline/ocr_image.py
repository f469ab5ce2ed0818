"""The image Tesseract reads: the page rendered again from the source, at about 300 dpi.

The stored page image is sized for Claude (about 110 dpi on an A4 page). That is too
coarse for Tesseract: its orientation detection (OSD) turned upright pages over at
that size, with scores of 1.3-1.7, and read a quarter of the letters of a small-print
page. At 300 dpi the same pages score 11-16 upright and read in full (measured on
the real-world corpus; see README "OCR"). So OCR renders each page for itself, at
``OCR_DPI`` within ``MAX_OCR_PIXELS``, and passes Tesseract the resolution it used.
A page that is a scan of 200 to 300 dpi is read at its own resolution instead: more
pixels than the scanner took add nothing, and cost OSD and OCR their square (a 200
dpi scan read at 300 dpi is 2.25 times the pixels, about twice the time).

An image file is read at its own resolution (scaled down past ``MAX_OCR_PIXELS``),
with its stated dpi when it has one. When the source cannot be rendered again, the
stored page image is read instead: OCR never fails for want of a better picture.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageOps

from docbatch_gui.pipeline.opening import open_pdf
from docbatch_gui.pipeline.render import PrepareTask

OCR_DPI = 300
#: a page an image covers this much of is a scan, read at the scan's own resolution
#: when that is under OCR_DPI and at least MIN_SCAN_DPI (below, it is enlarged)
SCAN_COVER = 0.8
MIN_SCAN_DPI = 200
#: an A4 page at 300 dpi is 8.7 megapixels; larger pages are read at less
MAX_OCR_PIXELS = 9_000_000


@dataclass(frozen=True)
class OcrImage:
    page_no: int
    image: Any  # a grayscale PIL image
    dpi: int | None  # the resolution Tesseract is told; None when nobody knows it


def ocr_images(
    source: str | None, kind: str, file_name: str, pages: Sequence[dict[str, Any]]
) -> Iterator[OcrImage]:
    """Each page (``{"page_no", "path"}``, path being the stored JPEG) as OCR reads it,
    in order, one at a time (memory stays at one page)."""
    document = _open_source(source, kind, file_name)
    try:
        for page in pages:
            number = int(page["page_no"])
            image = _from_source(document, kind, number) if document is not None else None
            yield image or _from_stored(page["path"], number)
    finally:
        if document is not None and hasattr(document, "close"):
            document.close()


def _open_source(source: str | None, kind: str, file_name: str) -> Any | None:
    if not source:
        return None
    try:
        if kind == "pdf":
            return open_pdf(PrepareTask(source=source, file_name=file_name, kind=kind))

        return Image.open(source)
    except Exception:  # the stored page images are still there to read
        return None


def _from_source(document: Any, kind: str, page_no: int) -> OcrImage | None:
    try:
        if kind == "pdf":
            return _render_pdf_page(document, page_no)
        return _image_frame(document, kind, page_no)
    except Exception:
        return None


def _render_pdf_page(document: Any, page_no: int) -> OcrImage:
    # deferred: PyMuPDF, 2.1 s to import
    import pymupdf

    page = document.load_page(page_no - 1)
    rect = page.rect
    dpi = min(OCR_DPI, _scan_dpi(page) or OCR_DPI)
    zoom = min(dpi / 72, math.sqrt(MAX_OCR_PIXELS / max(1.0, rect.width * rect.height)))
    pixmap = page.get_pixmap(
        matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csGRAY, alpha=False
    )
    image = Image.frombytes("L", (pixmap.width, pixmap.height), pixmap.samples)
    return OcrImage(page_no, image, round(zoom * 72))


def _scan_dpi(page: Any) -> int | None:
    """The resolution of the scan a page is, when it is one (an image over most of the
    page) and that is at least ``MIN_SCAN_DPI``: rendering it at more than its own
    pixels adds none to read and makes OSD and OCR read up to 2.25 times as many (a
    200 dpi scan at 300 dpi); OCRmyPDF reads a scan at its own resolution too."""
    try:
        infos = page.get_image_info()
    except Exception:  # a damaged image list: read at OCR_DPI
        return None
    area = abs(page.rect) or 1.0
    best = None
    for info in infos:
        x0, y0, x1, y1 = info.get("bbox", (0, 0, 0, 0))
        width, height = abs(x1 - x0), abs(y1 - y0)
        if width * height < SCAN_COVER * area or not width or not height:
            continue
        pixels_wide, pixels_high = info.get("width", 0), info.get("height", 0)
        # the image may be placed turned a quarter: its longer side on the longer one
        along = max(pixels_wide, pixels_high) / max(width, height)
        across = min(pixels_wide, pixels_high) / min(width, height)
        dpi = round(72 * min(along, across))
        best = dpi if best is None else max(best, dpi)
    return best if best is not None and best >= MIN_SCAN_DPI else None


def _image_frame(source: Any, kind: str, page_no: int) -> OcrImage:
    source.seek(page_no - 1)
    frame = ImageOps.exif_transpose(source) if kind == "jpeg" else source
    gray = frame.convert("L")
    stated = source.info.get("dpi")
    dpi = round(float(stated[0])) if stated and float(stated[0]) >= 50 else None
    pixels = gray.width * gray.height
    if pixels > MAX_OCR_PIXELS:
        scale = math.sqrt(MAX_OCR_PIXELS / pixels)
        size = (max(1, round(gray.width * scale)), max(1, round(gray.height * scale)))
        gray = gray.resize(size, Image.Resampling.LANCZOS)
        dpi = round(dpi * scale) if dpi else None
    return OcrImage(page_no, gray, dpi)


def _from_stored(path: str, page_no: int) -> OcrImage:
    """The stored page JPEG, decoded; an unreadable one is left to the engine to report."""
    try:
        with open(path, "rb") as handle, Image.open(io.BytesIO(handle.read())) as decoded:
            return OcrImage(page_no, decoded.convert("L"), None)
    except Exception:
        return OcrImage(page_no, None, None)
