"""Tesseract, the offline OCR engine: orientation (OSD), then text of the upright page.

This runs inside DocBatch's isolated render children (``child.ocr_pages``): the
caller owns the job deadline and kills the whole process group, Tesseract included.
So this module starts nothing but pytesseract's own ``tesseract`` process, one at a
time, and keeps no state apart from two cached look-ups of what is installed.

Rotation: ``tesseract --psm 0`` prints ``Rotate: N``, the clockwise degrees that turn
the image upright. That is exactly ``OcrResult.rotation`` (verified by the unit tests
on pages turned by 90, 180 and 270 degrees), so it is passed on unchanged.

Confidence: OSD's "Orientation confidence" is an unbounded score (the margin of the
best orientation over the next). On pages rendered here a clean full A4 page scores
about 10 upright or upside down and 4-5 sideways, six lines of text 2-5, and a
blurred, slightly skewed sideways scan 0.4-0.7 (still right). ``min(1, conf / 5)``
maps a clean sideways page to ~0.9 and leaves thin evidence visibly low; OSD failing
("Too few characters", a blank page) gives rotation 0 with confidence 0.

Margin: a 180° answer below ``MIN_CONFIDENCE_180`` is ignored. On the real-world
corpus (``scripts/corpus.py``) every page OSD wanted to turn over with a score under
1 was upright (a painting, a printout), while the pages that really were upside down
scored 5 and more; a sideways answer is still taken at a low score, since blurred
sideways photos score 0.4-0.7 and are right.

Speed: Tesseract parallelises with OpenMP, which on a busy machine (several children
at once, or just two cores) makes a page several times slower, not faster: 1.6 s
against 0.35 s for the text of one A4 page on the 2-core test machine. Each call
therefore runs with ``OMP_THREAD_LIMIT=1`` unless the operator has set it (see
``_single_threaded_tesseract``); DocBatch gets its parallelism from its children.
"""

from __future__ import annotations

import functools
import io
import os
import re
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.pipeline.ocr import OcrEngineName, OcrResult

ENGINE = OcrEngineName.TESSERACT.value
REQUIRED_LANGUAGES = ("rus", "eng")
INSTALL_HINT = (
    "Install it with: apt-get install tesseract-ocr tesseract-ocr-rus tesseract-ocr-eng "
    "(tesseract-ocr-osd as well, for page rotation), or choose another OCR engine."
)
OCR_CONFIG = "--oem 1 --psm 3"  # LSTM engine (the only one the Debian data holds); auto layout
OSD_CONFIG = "--psm 0"
CONFIDENCE_SCALE = 5.0  # OSD orientation confidence at which rotation_confidence reaches 1
#: the OSD confidence below which a 180° answer is not acted on: on real scans OSD
#: turned upright pages over with scores of 0.05-0.7 (a photo, a printout), while
#: pages that really were upside down scored 5 and more
MIN_CONFIDENCE_180 = 2.0
#: images with a long edge under this many pixels are enlarged before reading: a
#: 115×48 "TEST" label reads as nothing at its own size and no stated resolution
SMALL_IMAGE_EDGE = 600
SMALL_IMAGE_DPI = 300
MAX_ENLARGE = 4
_ROTATE = re.compile(r"^Rotate:\s*(\d+)", re.MULTILINE)
_CONFIDENCE = re.compile(r"^Orientation confidence:\s*([\d.]+)", re.MULTILINE)


@functools.cache
def tesseract_languages() -> list[str]:
    """Installed language data (``osd`` included when present); empty without the binary.

    Cached for the life of the process: a child is replaced long before an operator
    installs a language, and asking costs a process start.
    """
    import pytesseract

    try:
        return sorted(pytesseract.get_languages())
    except (pytesseract.TesseractNotFoundError, OSError):
        return []


@functools.cache
def tesseract_available() -> bool:
    """The binary is on the PATH and can read Russian and English (cached)."""
    import pytesseract

    if shutil.which(pytesseract.pytesseract.tesseract_cmd) is None:
        return False
    installed = set(tesseract_languages())
    return all(language in installed for language in REQUIRED_LANGUAGES)


def tesseract_page(
    jpeg: bytes, page_no: int, *, languages: str = "rus+eng", timeout: float = 120
) -> OcrResult:
    """Rotation and text of one page image.

    ``timeout`` bounds the whole page (OSD and OCR together). A timeout or a Tesseract
    failure on this page comes back as ``OcrResult.error`` so the other pages go on;
    a missing binary or language is the installation's fault, not the page's, and
    raises ``ConfigError`` with the command that fixes it.
    """
    import pytesseract
    from PIL import Image

    _check_installed(languages)
    deadline = time.monotonic() + timeout
    try:
        with Image.open(io.BytesIO(jpeg)) as decoded:
            image = decoded.convert("L")
    except Exception as exc:
        return _failed(page_no, f"the page image cannot be read ({_reason(exc)})")
    try:
        with _single_threaded_tesseract():
            if max(image.size) < SMALL_IMAGE_EDGE:
                # a label or a snippet: too little text for OSD, and Tesseract reads
                # it only when enlarged and told a resolution (OCRmyPDF does the same)
                rotation, confidence = 0, 0.0
                upright, config = _enlarged(image), f"{OCR_CONFIG} --dpi {SMALL_IMAGE_DPI}"
            else:
                rotation, confidence = _orientation(image, _remaining(deadline))
                upright, config = _turn(image, rotation), OCR_CONFIG
            text = pytesseract.image_to_string(
                _as_pnm(upright), lang=languages, config=config, timeout=_remaining(deadline)
            )
    except pytesseract.TesseractNotFoundError:
        raise ConfigError(f"Tesseract OCR is not installed. {INSTALL_HINT}") from None
    except _PageTimeout:
        return _failed(page_no, f"Tesseract took longer than {timeout:g} s on this page")
    except pytesseract.TesseractError as exc:  # a RuntimeError too: caught first
        return _failed(page_no, f"Tesseract failed on this page ({_reason(exc)})")
    except RuntimeError as exc:  # pytesseract's "Tesseract process timeout"
        if "timeout" not in str(exc).lower():
            raise
        return _failed(page_no, f"Tesseract took longer than {timeout:g} s on this page")
    return OcrResult(
        page_no=page_no,
        text=text.strip(),
        rotation=rotation,
        rotation_confidence=confidence,
        engine=ENGINE,
    )


class _PageTimeout(Exception):
    """The page's time ran out between two Tesseract calls."""


def _check_installed(languages: str) -> None:
    """Fail the engine, not the page, when Tesseract or a requested language is missing."""
    import pytesseract

    if shutil.which(pytesseract.pytesseract.tesseract_cmd) is None:
        raise ConfigError(f"Tesseract OCR is not installed. {INSTALL_HINT}")
    installed = set(tesseract_languages())
    missing = [code for code in languages.split("+") if code and code not in installed]
    if missing:
        packages = " ".join(f"tesseract-ocr-{code.lower().replace('_', '-')}" for code in missing)
        raise ConfigError(
            f"Tesseract has no data for {', '.join(missing)} (OCR_LANGUAGES={languages}). "
            f"Install it with: apt-get install {packages}"
        )


def _remaining(deadline: float) -> float:
    """Seconds left for the next call; pytesseract reads 0 as "no limit", so never 0."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise _PageTimeout
    return left


def _orientation(image: Any, timeout: float) -> tuple[int, float]:
    """OSD's clockwise rotation to upright and its confidence squashed into 0..1.

    OSD refuses pages with too little text and fails without ``osd`` data; the text
    can still be read, so both mean "upright, no idea how sure" rather than an error.
    A timeout is not swallowed: the page's time is gone either way.
    """
    import pytesseract

    try:
        report = pytesseract.image_to_osd(_as_pnm(image), config=OSD_CONFIG, timeout=timeout)
    except pytesseract.TesseractError:
        return 0, 0.0
    rotate = _ROTATE.search(report)
    confidence = _CONFIDENCE.search(report)
    if rotate is None or confidence is None:
        return 0, 0.0
    rotation = int(rotate.group(1)) % 360
    if rotation % 90:
        return 0, 0.0
    score = float(confidence.group(1))
    if rotation == 180 and score < MIN_CONFIDENCE_180:
        return 0, 0.0  # never turn a page over on weak evidence: keep it as it is
    return rotation, round(min(1.0, score / CONFIDENCE_SCALE), 3)


def _enlarged(image: Any) -> Any:
    """A small image scaled up (by 2 to 4) so that its text has the pixel height
    Tesseract's models expect."""
    from PIL import Image

    factor = max(2, min(MAX_ENLARGE, SMALL_IMAGE_EDGE // max(1, max(image.size))))
    size = (image.width * factor, image.height * factor)
    return image.resize(size, Image.Resampling.LANCZOS)


def weak_turn_over(rotation: int, rotation_confidence: float) -> bool:
    """A 180° reading below the margin (``rotation_confidence`` as stored, 0..1): what
    ``_orientation`` no longer acts on, and an OCR cache entry made before it did."""
    return rotation == 180 and rotation_confidence < MIN_CONFIDENCE_180 / CONFIDENCE_SCALE


def _turn(image: Any, rotation: int) -> Any:
    """The image turned clockwise by ``rotation``: a lossless transpose, unlike
    ``rotate_jpeg``, since Tesseract reads it in memory and nothing is stored."""
    from PIL import Image

    transpose = {
        90: Image.Transpose.ROTATE_270,  # PIL's ROTATE_* turn counter-clockwise
        180: Image.Transpose.ROTATE_180,
        270: Image.Transpose.ROTATE_90,
    }.get(rotation)
    return image if transpose is None else image.transpose(transpose)


def _as_pnm(image: Any) -> Any:
    """pytesseract hands the image over as a temporary file in ``image.format``.

    A decoded JPEG would be re-encoded as JPEG (another lossy generation) and an
    unnamed image as PNG (~15 ms of compression); an uncompressed PGM costs ~1 ms.
    """
    image.format = "PPM"  # Pillow writes a grayscale image as binary PGM
    return image


@contextmanager
def _single_threaded_tesseract() -> Iterator[None]:
    """Run the ``tesseract`` processes started inside with ``OMP_THREAD_LIMIT=1``.

    pytesseract passes ``os.environ`` itself to its subprocess, so the variable is set
    there for the call and restored after it; an operator's own value is left alone.
    The child is single-threaded, so nothing else sees the change meanwhile.
    """
    if "OMP_THREAD_LIMIT" in os.environ:
        yield
        return
    os.environ["OMP_THREAD_LIMIT"] = "1"
    try:
        yield
    finally:
        os.environ.pop("OMP_THREAD_LIMIT", None)


def _failed(page_no: int, reason: str) -> OcrResult:
    return OcrResult(page_no=page_no, text="", engine=ENGINE, error=reason)


def _reason(exc: BaseException) -> str:
    """The library's words on one line, without object reprs such as ``<_io.BytesIO …>``."""
    text = " ".join(re.sub(r"<[^<>]*>", "", str(exc)).split()) or type(exc).__name__
    return text[:200]
