"""Tesseract, the offline OCR engine: orientation (OSD), then text of the upright page.

This runs inside DocBatch's isolated render children (``child.ocr_pages``): the
caller owns the job deadline and kills the whole process group, Tesseract included.
So this module starts nothing but pytesseract's own ``tesseract`` process, one at a
time, and keeps no state apart from two cached look-ups of what is installed.

A page takes three Tesseract runs: the skew measure (on a copy at ``SKEW_DPI``), OSD
(``ocr_osd``: a first vote on half the letters, all of them when it is not clear)
on the straightened page, and the reading of the page turned upright; a page whose
OSD answer stays weak is read at each candidate angle instead (``orientation_vote``).
Rotation is OSD's ``Rotate: N``, the clockwise degrees that turn the image upright,
exactly ``OcrResult.rotation`` (verified by the unit tests on pages turned by 90, 180
and 270 degrees). OSD reads the image made for OCR (``ocr_image``: the scan's own
resolution, or about 300 dpi), never the smaller one Claude reads.

Speed: Tesseract parallelises with OpenMP, which on a busy machine (several children
at once, or just two cores) makes a page several times slower, not faster: 1.6 s
against 0.35 s for the text of one A4 page on the 2-core test machine. Each call
therefore runs with ``OMP_THREAD_LIMIT=1`` unless the operator has set it (see
``_single_threaded_tesseract``); DocBatch gets its parallelism from its children.
"""

from __future__ import annotations

import functools
import io
import math
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from PIL import Image

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.pipeline.ocr import OcrEngineName, OcrResult
from docbatch_gui.pipeline.ocr_osd import as_pnm, osd
from docbatch_gui.pipeline.orientation import Orientation, turn
from docbatch_gui.pipeline.orientation_vote import Reading, recognition, second_vote
from docbatch_gui.pipeline.words import Word, from_tesseract_tsv

ENGINE = OcrEngineName.TESSERACT.value
REQUIRED_LANGUAGES = ("rus", "eng")
OCR_CONFIG = "--oem 1 --psm 3"  # LSTM engine (the only one the Debian data holds); auto layout
#: Leptonica's skew measure reads a copy at about this resolution: it finds the same
#: angle to 0.1° at 100 dpi as at 200 (1.11° against 1.17° on a page fed 1.2° askew,
#: 0 on straight pages either way) for half the CPU
SKEW_DPI = 100
#: the long edge of an A4 page at ``SKEW_DPI``, for an image of unknown resolution
SKEW_EDGE = 1169
#: images with a long edge under this many pixels are enlarged before reading: a
#: 115×48 "TEST" label reads as nothing at its own size and no stated resolution
SMALL_IMAGE_EDGE = 600
SMALL_IMAGE_DPI = 300
MAX_ENLARGE = 4
#: the writing each Tesseract language is in, as OSD names it ("Script: Latin")
LANGUAGE_SCRIPTS = {
    **dict.fromkeys(("rus", "ukr", "bel", "bul", "srp", "mkd", "kaz", "kir", "tgk"), "Cyrillic"),
    **dict.fromkeys(
        ("eng", "deu", "fra", "spa", "ita", "por", "nld", "pol", "ces", "slk", "fin", "swe",
         "dan", "nor", "est", "lav", "lit", "hun", "ron", "tur", "hrv", "slv", "uzb", "aze"),
        "Latin",
    ),
}  # fmt: skip
_DESKEW = re.compile(r"^Deskew angle:\s*(-?[\d.]+)", re.MULTILINE)
#: degrees of skew under which a page is read as it is: Leptonica measures a straight
#: page at up to 0.2 degrees, and so little tilt does not trouble the reading
MIN_SKEW = 0.3


@functools.cache
def tesseract_languages() -> list[str]:
    """Installed language data (``osd`` included when present); empty without the binary.

    Cached for the life of the process: a child is replaced long before an operator
    installs a language, and asking costs a process start.
    """
    # deferred: pytesseract, 0.25 s to import
    import pytesseract

    try:
        return sorted(pytesseract.get_languages())
    except (pytesseract.TesseractNotFoundError, OSError):
        return []


@functools.cache
def tesseract_available() -> bool:
    """The binary is on the PATH and can read Russian and English (cached)."""
    try:
        _check_installed("+".join(REQUIRED_LANGUAGES))
    except ConfigError:
        return False
    return True


def tesseract_page(
    image: bytes | Any,
    page_no: int,
    *,
    languages: str = "rus+eng",
    timeout: float = 120,
    dpi: int | None = None,
) -> OcrResult:
    """Rotation and text of one page image (JPEG bytes, or a decoded PIL image).

    ``dpi`` is the image's resolution when known (Tesseract is told it rather than
    guessing). ``timeout`` bounds the whole page (OSD and OCR together). A timeout or
    a Tesseract failure on this page comes back as ``OcrResult.error`` so the other
    pages go on; a missing binary or language is the installation's fault, not the
    page's, and raises ``ConfigError`` with the command that fixes it.
    """
    # deferred: pytesseract, 0.25 s to import
    import pytesseract

    _check_installed(languages)
    deadline = time.monotonic() + timeout
    skew = 0.0
    try:
        gray = _grayscale(image)
    except Exception as exc:
        return _failed(page_no, coded("ocr_image_unreadable", detail=_reason(exc)))
    try:
        with _single_threaded_tesseract():
            if max(gray.size) < SMALL_IMAGE_EDGE:
                # a label or a snippet: too little text for OSD, and Tesseract reads
                # it only when enlarged and told a resolution (OCRmyPDF does the same)
                orientation = Orientation(note=coded("orient_small_image"))
                upright, config = _enlarged(gray), f"{OCR_CONFIG} --dpi {SMALL_IMAGE_DPI}"
                text, words, _tsv = read_text_and_words(
                    as_pnm(upright), languages, config, _remaining(deadline)
                )
            else:
                skew = measured_skew(gray, dpi, _remaining(deadline))
                straight = _straightened(gray, skew)
                orientation, text, words = _read_upright(straight, dpi, languages, deadline)
    except pytesseract.TesseractNotFoundError:
        raise ConfigError.coded("tesseract_not_installed") from None
    except _PageTimeout:
        return _failed(page_no, coded("ocr_page_timeout", seconds=f"{timeout:g}"))
    except pytesseract.TesseractError as exc:  # a RuntimeError too: caught first
        return _failed(page_no, coded("ocr_page_failed", detail=_reason(exc)))
    except RuntimeError as exc:  # pytesseract's "Tesseract process timeout"
        if "timeout" not in str(exc).lower():
            raise
        return _failed(page_no, coded("ocr_page_timeout", seconds=f"{timeout:g}"))
    return OcrResult(
        page_no=page_no,
        text=text.strip(),
        words=words,
        word_confidences=list(getattr(words, "confidences", ())),
        rotation=orientation.rotation,
        rotation_confidence=orientation.confidence,
        engine=ENGINE,
        orientation_note=orientation.note,
        orientation_uncertain=orientation.uncertain,
        skew=skew,
    )


def measured_skew(image: Any, dpi: int | None, timeout: float) -> float:
    """Degrees ``image`` is askew (counter-clockwise positive), by Leptonica's measure
    through Tesseract's layout analysis (``--psm 2`` reports "Deskew angle" in
    radians; the ``osd`` data is the smallest to load: 0.35 s of CPU on an A4 page at
    200 dpi, a tenth of its reading). 0 when the page gives no measure."""
    # deferred: pytesseract, 0.25 s to import
    from pytesseract import pytesseract as engine

    args = engine.subprocess_args()
    image, dpi = _for_skew(image, dpi)
    with engine.save(as_pnm(image)) as (_base, path):
        command = [engine.tesseract_cmd, path, "stdout", "--psm", "2", "-l", "osd"]
        if dpi:
            command += ["--dpi", str(dpi)]
        with subprocess.Popen(command, **args) as process:
            try:
                out, err = process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                raise _PageTimeout from None
    found = _DESKEW.search((out + err).decode("utf-8", "replace"))  # it says so on stderr
    if process.returncode or found is None:
        return 0.0
    # Tesseract prints the turn that straightens the page: the skew is its opposite
    return round(-math.degrees(float(found.group(1))), 2) + 0.0  # no "-0.0"


def _for_skew(image: Any, dpi: int | None) -> tuple[Any, int | None]:
    """``image`` reduced by a whole factor to about ``SKEW_DPI`` for the skew measure,
    and its resolution then; an image at that or less is measured as it is."""
    factor = dpi // SKEW_DPI if dpi else max(image.size) // SKEW_EDGE
    if factor < 2:
        return image, dpi
    return image.reduce(factor), (dpi // factor if dpi else None)


def _straightened(image: Any, skew: float) -> Any:
    """``image`` turned back by its skew when that is measurable (``MIN_SKEW``)."""
    if abs(skew) < MIN_SKEW:
        return image
    return image.rotate(-skew, resample=Image.Resampling.BICUBIC, fillcolor=255)


def _read_upright(
    gray: Any, dpi: int | None, languages: str, deadline: float
) -> tuple[Orientation, str, list[Word]]:
    """OSD's decision and the page read the way it decides; on a weak answer (or
    none), the second vote of ``orientation_vote``: the page read at each candidate
    angle, the clearly better reading kept."""
    scripts = language_scripts(languages)
    config = _with_dpi(OCR_CONFIG, dpi)
    orientation, answer, said = osd(gray, dpi, _remaining(deadline), scripts=scripts)
    if not orientation.uncertain and answer is not None:
        upright = as_pnm(turn(gray, orientation.rotation))
        text, words, _tsv = read_text_and_words(upright, languages, config, _remaining(deadline))
        return orientation, text, words

    def read(rotation: int) -> Reading:
        upright = as_pnm(turn(gray, rotation))
        text, words, tsv = read_text_and_words(upright, languages, config, _remaining(deadline))
        confidence, share = recognition(tsv, scripts)
        return Reading(rotation, text, words, confidence, share)

    orientation, best = second_vote(read, orientation, answer, said)
    return orientation, best.text, best.words


def read_text_and_words(
    image: Any, languages: str, config: str, timeout: float
) -> tuple[str, list[Word], str]:
    """The text, as ``image_to_string`` gives it, the words with their boxes (in
    fractions of ``image``) and the TSV itself (its word confidences), from one
    Tesseract run writing both its ``txt`` and its ``tsv`` output: a second run for
    the boxes would double the time OCR takes."""
    # deferred: pytesseract, 0.25 s to import
    from pytesseract import pytesseract as engine

    with engine.save(image) as (base, path):
        engine.run_tesseract(
            path, base, "txt", languages, f"{config} -c tessedit_create_tsv=1", timeout=timeout
        )
        text = Path(f"{base}.txt").read_text(encoding="utf-8", errors="replace")
        tsv = Path(f"{base}.tsv").read_text(encoding="utf-8", errors="replace")
    return text, from_tesseract_tsv(tsv, image.width, image.height), tsv


def _grayscale(image: bytes | Any) -> Any:
    if image is None:
        raise ValueError("no image")
    if isinstance(image, bytes | bytearray):
        with Image.open(io.BytesIO(image)) as decoded:
            return decoded.convert("L")
    return image if image.mode == "L" else image.convert("L")


def _with_dpi(config: str, dpi: int | None) -> str:
    return f"{config} --dpi {dpi}" if dpi else config


class _PageTimeout(Exception):
    """The page's time ran out between two Tesseract calls."""


def _check_installed(languages: str) -> None:
    """Fail the engine, not the page, when Tesseract or a requested language is missing."""
    # deferred: pytesseract, 0.25 s to import
    import pytesseract

    if shutil.which(pytesseract.pytesseract.tesseract_cmd) is None:
        raise ConfigError.coded("tesseract_not_installed")
    installed = set(tesseract_languages())
    missing = [code for code in languages.split("+") if code and code not in installed]
    if missing:
        packages = " ".join(f"tesseract-ocr-{code.lower().replace('_', '-')}" for code in missing)
        raise ConfigError.coded(
            "tesseract_no_language",
            {"missing": ", ".join(missing), "languages": languages, "packages": packages},
        )


def _remaining(deadline: float) -> float:
    """Seconds left for the next call; pytesseract reads 0 as "no limit", so never 0."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise _PageTimeout
    return left


def language_scripts(languages: str) -> frozenset[str] | None:
    """The scripts ``languages`` ("rus+eng") are written in; None if one is unknown."""
    codes = [code for code in languages.split("+") if code]
    if not codes or any(code not in LANGUAGE_SCRIPTS for code in codes):
        return None
    return frozenset(LANGUAGE_SCRIPTS[code] for code in codes)


def _enlarged(image: Any) -> Any:
    """A small image scaled up (by 2 to 4) so that its text has the pixel height
    Tesseract's models expect."""
    factor = max(2, min(MAX_ENLARGE, SMALL_IMAGE_EDGE // max(1, max(image.size))))
    size = (image.width * factor, image.height * factor)
    return image.resize(size, Image.Resampling.LANCZOS)


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


def _failed(page_no: int, reason: Message) -> OcrResult:
    return OcrResult(page_no=page_no, text="", engine=ENGINE, error=reason)


def _reason(exc: BaseException) -> str:
    """The library's words on one line, without object reprs such as ``<_io.BytesIO …>``."""
    text = " ".join(re.sub(r"<[^<>]*>", "", str(exc)).split()) or type(exc).__name__
    return text[:200]
