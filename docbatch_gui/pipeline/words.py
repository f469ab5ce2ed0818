"""Where each word of a page stands: its text and its box, kept beside the page text.

A reader can say a value came from the page; only the words with their boxes can show
where, and catch a value that stands nowhere on it (an invented number, a swapped
party). So the words are captured where the text is: the renderer takes them from
the file's text layer, OCR from its own reading.

A box is ``(x0, y0, x1, y1)`` in fractions of the page's width and height, origin
top-left, in the frame of the upright page the operator sees (after the pipeline
turned it). Fractions stay valid at whatever size the page image is shown, and four
decimals (a tenth of a millimetre on A4) keep a page's blob small.

Stored as one compact JSON blob per page (``Page.words_sha``): a dense page is some
tens of kilobytes, outside the database.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

#: (text, x0, y0, x1, y1): the box in fractions of the page, origin top-left
Word = tuple[str, float, float, float, float]

FORMAT = 1
DIGITS = 4
#: words kept of a page: a dense printed page has one or two thousand; a text bomb
#: (a few kilobytes of repeated text) has millions, and its page text is cut too
MAX_WORDS = 10_000


def _fraction(value: float) -> float:
    return round(min(1.0, max(0.0, value)), DIGITS)


def normalised(
    text: str, x0: float, y0: float, x1: float, y1: float, width: float, height: float
) -> Word | None:
    """A word in pixels or points as fractions of a ``width`` × ``height`` page; None
    for an empty word or one without area."""
    text = text.strip()
    if not text or width <= 0 or height <= 0:
        return None
    box = (
        _fraction(min(x0, x1) / width),
        _fraction(min(y0, y1) / height),
        _fraction(max(x0, x1) / width),
        _fraction(max(y0, y1) / height),
    )
    if box[2] <= box[0] or box[3] <= box[1]:
        return None
    return (text, *box)


def _turn_point(x: float, y: float, rotation: int) -> tuple[float, float]:
    """A point of a page turned clockwise by ``rotation`` (a multiple of 90)."""
    if rotation == 90:
        return 1 - y, x
    if rotation == 180:
        return 1 - x, 1 - y
    if rotation == 270:
        return y, 1 - x
    return x, y


def turned(words: Iterable[Word], rotation: int) -> list[Word]:
    """``words`` as they stand once the page is turned clockwise by ``rotation`` degrees
    (what ``orientation.turn`` does to its image)."""
    rotation %= 360
    if rotation not in (90, 180, 270):
        return list(words)
    out = []
    for text, x0, y0, x1, y1 in words:
        ax, ay = _turn_point(x0, y0, rotation)
        bx, by = _turn_point(x1, y1, rotation)
        out.append(
            (
                text,
                _fraction(min(ax, bx)),
                _fraction(min(ay, by)),
                _fraction(max(ax, bx)),
                _fraction(max(ay, by)),
            )
        )
    return out


def encode(words: Sequence[Word]) -> bytes:
    """The blob of a page's words."""
    body = {"format": FORMAT, "words": [list(w) for w in words[:MAX_WORDS]]}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def decode(data: bytes) -> list[Word]:
    """A page's words from its blob; a blob this version cannot read gives none (the
    page then cannot tell where anything is, which is never an error)."""
    try:
        body = json.loads(data)
        return as_words(body["words"]) if body.get("format") == FORMAT else []
    except (ValueError, KeyError, TypeError, AttributeError):
        return []


def as_words(raw: Iterable[Any]) -> list[Word]:
    """Words that crossed a process boundary as JSON lists, as ``Word`` tuples."""
    out = []
    for item in raw:
        try:
            text, x0, y0, x1, y1 = item
            out.append((str(text), float(x0), float(y0), float(x1), float(y1)))
        except (TypeError, ValueError):
            continue
    return out


def from_pdf_page(page: Any, textpage: Any, rotation: int) -> list[Word]:
    """The text layer's words of a MuPDF page, upright.

    MuPDF gives word boxes on the unrotated page; its rotation matrix puts them where
    the page is shown (its /Rotate applied, which is what the renderer draws), and
    ``rotation`` is the turn the renderer then gave the image.
    """
    import pymupdf

    matrix = page.rotation_matrix
    rect = page.rect
    out = []
    for x0, y0, x1, y1, text, *_ in page.get_text("words", textpage=textpage):
        box = pymupdf.Rect(x0, y0, x1, y1) * matrix
        word = normalised(text, box.x0, box.y0, box.x1, box.y1, rect.width, rect.height)
        if word is not None:
            out.append(word)
            if len(out) >= MAX_WORDS:
                break
    return turned(out, rotation)


def from_tesseract_tsv(tsv: str, width: int, height: int) -> list[Word]:
    """The words of Tesseract's TSV output (level 5 rows) on a ``width`` × ``height``
    image."""
    out: list[Word] = []
    for line in tsv.splitlines()[1:]:
        if len(out) >= MAX_WORDS:
            break
        cells = line.split("\t")
        if len(cells) < 12 or cells[0] != "5":
            continue
        try:
            left, top, w, h = (int(c) for c in cells[6:10])
        except ValueError:
            continue
        word = normalised(cells[11], left, top, left + w, top + h, width, height)
        if word is not None:
            out.append(word)
    return out
