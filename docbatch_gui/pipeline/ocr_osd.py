"""Tesseract's orientation detection (OSD), asked once on a clear page.

``tesseract --psm 0`` prints ``Rotate: N``, the clockwise degrees that turn the image
upright (exactly ``OcrResult.rotation``), and an "Orientation confidence": an
unbounded score, the margin of the best orientation over the next, which grows with
the letters judged. Whether the page is turned on that answer is
``orientation.from_osd``'s decision (a margin per direction; weak evidence keeps the
page as scanned and marks it uncertain).

OSD judges up to five times ``min_characters_to_try`` letters (50 by default: 250
letters, 0.7 s of CPU on an A4 page at 200 dpi, more than reading the page's text).
The first vote judges half of them (``FIRST_VOTE_CONFIG``, 0.45 s): on a page of
text it scores about half the full score (9-12 on the peer bench's invoices, 19-23
in full), so a first vote at ``FIRST_VOTE_SCORE`` is past every margin of
``from_osd`` and is decided on. A weaker one (a short page, a picture, a painting
read as "Arabic" at 4.9 in full) is asked again with every letter, and that answer
is decided on, as before the first vote existed.
"""

from __future__ import annotations

import re
import time
from typing import Any

from docbatch_gui.domain.messages import Message
from docbatch_gui.pipeline.orientation import Orientation, from_osd, osd_said

OSD_CONFIG = "--psm 0"
FIRST_VOTE_CONFIG = "-c min_characters_to_try=25"
#: twice ``orientation.MIN_OSD_SCORE_180`` on half the letters' evidence: clear
FIRST_VOTE_SCORE = 6.0
#: pytesseract reads a timeout of 0 as "no limit": the least it is given
MIN_TIMEOUT = 0.01
_SCRIPT = re.compile(r"^Script:\s*(\S+)", re.MULTILINE)
_ROTATE = re.compile(r"^Rotate:\s*(\d+)", re.MULTILINE)
_CONFIDENCE = re.compile(r"^Orientation confidence:\s*([\d.]+)", re.MULTILINE)


def orientation_of(
    image: Any, dpi: int | None, timeout: float, *, scripts: frozenset[str] | None = None
) -> Orientation:
    """OSD's answer, decided on with a margin (``orientation.from_osd``)."""
    return osd(image, dpi, timeout, scripts=scripts)[0]


def osd(
    image: Any, dpi: int | None, timeout: float, *, scripts: frozenset[str] | None = None
) -> tuple[Orientation, int | None, Message]:
    """OSD's decision, its raw answer (None: none) and that answer in words.

    The first vote judges half the letters (``FIRST_VOTE_CONFIG``); when it is not
    clear (``FIRST_VOTE_SCORE``) OSD is asked again with all of them, and that answer
    is the one decided on. OSD refuses pages with too little text and fails without
    ``osd`` data; the text can still be read, so both mean "no answer" rather than
    an error. A timeout is not swallowed: the page's time is gone either way.
    """
    deadline = time.monotonic() + timeout
    first = _osd_answer(image, dpi, timeout, FIRST_VOTE_CONFIG)
    if first is None or first[1] < FIRST_VOTE_SCORE:
        answer = _osd_answer(image, dpi, max(MIN_TIMEOUT, deadline - time.monotonic()))
    else:
        answer = first
    if answer is None:
        return from_osd(None, 0.0, dpi), None, osd_said(None, 0.0, dpi)
    rotation, score, script = answer
    decision = from_osd(rotation, score, dpi, script=script, scripts=scripts)
    return decision, rotation, osd_said(rotation, score, dpi, script)


def _osd_answer(
    image: Any, dpi: int | None, timeout: float, extra: str = ""
) -> tuple[int, float, str] | None:
    """One OSD run: (clockwise turn, score, script), None when it gave no answer."""
    # deferred: pytesseract, 0.25 s to import
    import pytesseract

    config = _with_dpi(OSD_CONFIG, dpi) + (f" {extra}" if extra else "")
    try:
        report = pytesseract.image_to_osd(as_pnm(image), config=config, timeout=timeout)
    except pytesseract.TesseractError:
        return None
    rotate = _ROTATE.search(report)
    confidence = _CONFIDENCE.search(report)
    if rotate is None or confidence is None:
        return None
    found = _SCRIPT.search(report)
    script = found.group(1) if found else ""
    return int(rotate.group(1)) % 360, float(confidence.group(1)), script


def _with_dpi(config: str, dpi: int | None) -> str:
    return f"{config} --dpi {dpi}" if dpi else config


def as_pnm(image: Any) -> Any:
    """pytesseract hands the image over as a temporary file in ``image.format``.

    A decoded JPEG would be re-encoded as JPEG (another lossy generation) and an
    unnamed image as PNG (~15 ms of compression); an uncompressed PGM costs ~1 ms.
    """
    image.format = "PPM"  # Pillow writes a grayscale image as binary PGM
    return image
