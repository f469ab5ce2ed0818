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

from collections.abc import Iterable, Sequence
from typing import Any

import orjson

#: (text, x0, y0, x1, y1): the box in fractions of the page, origin top-left
Word = tuple[str, float, float, float, float]

FORMAT = 1
DIGITS = 4
#: words kept of a page: a dense printed page has one or two thousand; a text bomb
#: (a few kilobytes of repeated text) has millions, and its page text is cut too
MAX_WORDS = 10_000


SCALE = 10**DIGITS


def _fraction(value: float) -> float:
    """``value`` clamped to 0..1 and rounded to ``DIGITS`` decimals; integer arithmetic
    is five times quicker than ``round(x, 4)``, and a dense page has thousands."""
    clamped = 0.0 if value < 0.0 else 1.0 if value > 1.0 else value
    return int(clamped * SCALE + 0.5) / SCALE


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


def encode(words: Sequence[Word], confidences: Sequence[int] = ()) -> bytes:
    """The blob of a page's words, with the OCR's confidence of each when it gave them
    (one per word, in order: ``decode_confidences``).

    orjson writes the same bytes as ``json.dumps(..., ensure_ascii=False,
    separators=(",", ":"))`` (the same shortest float form), five times quicker: the
    render child makes one blob a page."""
    body: dict[str, Any] = {"format": FORMAT, "words": list(words[:MAX_WORDS])}
    if confidences and len(confidences) == len(words):
        body["confidence"] = [int(c) for c in confidences[:MAX_WORDS]]
    return orjson.dumps(body)


def decode(data: bytes) -> list[Word]:
    """A page's words from its blob; a blob this version cannot read gives none (the
    page then cannot tell where anything is, which is never an error). orjson reads
    what ``encode`` wrote four times quicker than ``json``: a page's words are read
    for its request and again for the checks."""
    try:
        body = orjson.loads(data)
        return as_words(body["words"]) if body.get("format") == FORMAT else []
    except (ValueError, KeyError, TypeError, AttributeError):
        return []


def decode_confidences(data: bytes) -> list[int]:
    """The OCR confidences (0..100) of a blob's words, in their order; empty when the
    blob has none (a text layer, Vision, an older blob)."""
    try:
        body = orjson.loads(data)
        found = body.get("confidence") if body.get("format") == FORMAT else None
        return [int(c) for c in found] if isinstance(found, list) else []
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


def from_pdf_page(
    page: Any, textpage: Any, rotation: int, *, matrix: Any = None, raw: Any = None
) -> list[Word]:
    """The text layer's words of a MuPDF page, upright.

    MuPDF gives a page's word boxes on the unrotated page; its rotation matrix (the
    default ``matrix``) puts them where the page is shown (its /Rotate applied, which
    is what the renderer draws); a text page made from the page's display list is
    already as shown (``matrix=pymupdf.Identity``). ``rotation`` is the turn the
    renderer then gave the image. ``raw``: the text page's ``extractWORDS()`` when the
    caller has it already.

    Plain arithmetic on the matrix's six numbers, in whole ten-thousandths: a /Rotate
    is a quarter turn, so two corners bound the box. Building a ``pymupdf.Rect`` and
    rounding per word cost 4 ms on a dense page (130 words), more than rendering it;
    this costs 0.3 ms beyond MuPDF's own word list (``bench/prepare.py``).
    """
    a, b, c, d, e, f = page.rotation_matrix if matrix is None else matrix
    rect = page.rect
    if rect.width <= 0 or rect.height <= 0:
        return []
    # in whole ten-thousandths of the page (``DIGITS``), clamped to it
    sx, sy = SCALE / rect.width, SCALE / rect.height
    out: list[Word] = []
    for x0, y0, x1, y1, text, *_ in textpage.extractWORDS() if raw is None else raw:
        text = text.strip()
        if not text:
            continue
        ax, ay = (x0 * a + y0 * c + e) * sx, (x0 * b + y0 * d + f) * sy
        bx, by = (x1 * a + y1 * c + e) * sx, (x1 * b + y1 * d + f) * sy
        if ax > bx:
            ax, bx = bx, ax
        if ay > by:
            ay, by = by, ay
        left = 0 if ax < 0 else SCALE if ax > SCALE else int(ax + 0.5)
        right = 0 if bx < 0 else SCALE if bx > SCALE else int(bx + 0.5)
        top = 0 if ay < 0 else SCALE if ay > SCALE else int(ay + 0.5)
        bottom = 0 if by < 0 else SCALE if by > SCALE else int(by + 0.5)
        if right <= left or bottom <= top:
            continue
        out.append((text, left / SCALE, top / SCALE, right / SCALE, bottom / SCALE))
        if len(out) >= MAX_WORDS:
            break
    return turned(out, rotation)


class OcrWords(list[Word]):
    """Words an OCR engine read, with its recognition confidence of each (0..100, in
    the same order; ``confidences`` is empty when the engine gives none). A list, so
    that every reader of words takes it as it is; the offline reader doubts a value
    read from words the engine itself was unsure of."""

    confidences: list[int]

    def __init__(self, words: Iterable[Word] = (), confidences: Iterable[int] = ()) -> None:
        super().__init__(words)
        self.confidences = list(confidences)


def from_tesseract_tsv(tsv: str, width: int, height: int) -> OcrWords:
    """The words of Tesseract's TSV output (level 5 rows) on a ``width`` × ``height``
    image, with Tesseract's confidence of each (``OcrWords.confidences``)."""
    out = OcrWords()
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
            out.confidences.append(_confidence(cells[10]))
    return out


def _confidence(cell: str) -> int:
    """Tesseract's word confidence as 0..100 (-1, or unreadable: 0)."""
    try:
        return max(0, min(100, round(float(cell))))
    except ValueError:
        return 0
