"""The OCR port: what every engine returns, and turning a page upright.

Engines (``tesseract`` offline, ``google_vision`` online, or ``none``) read one page
image and return its text and rotation. Rotation is clockwise degrees (0, 90, 180,
270) the image must be turned to be upright; the pipeline turns the page image and
its thumbnail before anything else reads them.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from PIL import Image

from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.models import Page
from docbatch_gui.pipeline.jpeg import encode_image
from docbatch_gui.pipeline.words import Word


class OcrEngineName(StrEnum):
    GOOGLE_VISION = "google_vision"
    TESSERACT = "tesseract"
    NONE = "none"


@dataclass(frozen=True)
class OcrResult:
    page_no: int
    text: str
    rotation: int = 0  # clockwise degrees to turn the image upright: 0, 90, 180, 270
    rotation_confidence: float = 0.0  # 0..1
    engine: str = ""
    error: Message | None = None  # this page's OCR failed (other pages are unaffected)
    orientation_note: Message | None = None  # the evidence for ``rotation``, in words
    orientation_uncertain: bool = False  # kept as scanned on weak evidence
    #: the words read, with their boxes on the image the engine read turned upright
    #: by ``rotation`` (``words.py``)
    words: list[Word] = field(default_factory=list)
    #: the engine's recognition confidence (0..100) of each of ``words``, in order;
    #: empty when it gives none
    word_confidences: list[int] = field(default_factory=list)
    #: degrees the image was askew (counter-clockwise positive), straightened before
    #: it was read; 0: straight, or not measured
    skew: float = 0.0


class OcrEngine(Protocol):
    name: str

    def recognise(self, jpeg: bytes, page_no: int) -> OcrResult:
        """Text and rotation of one page image; raises CriticalError (billing, auth) or
        RetryableError (unavailable, deadline) for the whole engine, and returns a
        result with ``error`` for a failure of this page alone."""
        ...


def rotate_jpeg(jpeg: bytes, rotation: int, quality: int = 80) -> bytes:
    """Turn a JPEG clockwise by ``rotation`` degrees (a multiple of 90)."""
    rotation %= 360
    if rotation == 0:
        return jpeg

    with Image.open(io.BytesIO(jpeg)) as image:
        # PIL rotates counter-clockwise for positive angles
        return encode_image(image.rotate(-rotation, expand=True), quality)


def needs_ocr(page: Page, min_text_chars: int) -> bool:
    """A page with (almost) no text layer, that was rendered: a page the renderer
    gave up would only hang OCR's own rendering of it the same way."""
    return (
        page.ocr_engine is None
        and not page.render_error
        and len(page.text.strip()) < min_text_chars
    )
