"""A rendered PDF page's own text layer: its text, its words with their boxes (and
their stored blob), its orientation vote and the share its images cover, all read
from the one MuPDF text page of the display list the renderer rasterised.

This runs in the render child on every page of every PDF, so it is written for a
dense page: MuPDF builds the text page, its text and its word list once; one Python
pass over the word list then makes the words' boxes and the quick orientation vote's
line directions, and orjson the blob. The cost of each part, measured, is in
docs/architecture.md ("What the text layer costs").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from docbatch_gui.domain.messages import coded
from docbatch_gui.pipeline.child_bounds import is_out_of_memory
from docbatch_gui.pipeline.orientation import MIN_VOTE_LETTERS, Orientation, from_vote
from docbatch_gui.pipeline.page_plan import image_cover
from docbatch_gui.pipeline.words import MAX_WORDS, SCALE, Word, encode, turned

#: the share of a page's letters its lines of two words or more must hold, and the
#: share of those that must run left to right, for the quick vote to call it upright
QUICK_VOTE_COVER = 0.5
QUICK_VOTE_SHARE = 0.95

Vector = tuple[float, float, float]


@dataclass(frozen=True)
class PageLayer:
    """What a page's text layer gives the rendered page."""

    text: str = ""
    orientation: Orientation = field(default_factory=Orientation)
    #: upright, in fractions of the page (``words.py``)
    words: list[Word] = field(default_factory=list)
    #: ``words`` as their stored blob (``words.encode``); empty without words
    words_blob: bytes = b""
    cover: float = 0.0


def read_layer(page: Any, shown: Any) -> PageLayer:
    """The text layer of ``page`` from its display list ``shown``: the page as shown,
    its /Rotate applied, so boxes and line directions need no turning. The text page
    is made with its image blocks, so the image cover needs no second one."""
    # deferred: PyMuPDF, 2.1 s to import
    import pymupdf

    try:
        textpage = pymupdf.TextPage(shown.get_textpage(pymupdf.TEXT_PRESERVE_IMAGES))
        infos = textpage.extractIMGINFO()
        cover = image_cover(page, infos)
    except Exception as exc:  # a damaged image list: the text layer is read on its own
        if is_out_of_memory(exc):
            raise
        textpage, infos, cover = pymupdf.TextPage(shown.get_textpage(0)), [], 0.0
    text = textpage.extractText()
    if not text.strip():
        return PageLayer(text, cover=cover)
    rect = page.rect
    words, vectors, letters = one_pass(textpage.extractWORDS(), rect.width, rect.height)
    orientation = quick_vote(vectors, letters)
    if orientation is None:
        # the exact vote reads line directions from MuPDF's dict, which would carry a
        # copy of every image block: a page with images votes on a text page of its own
        voter = pymupdf.TextPage(shown.get_textpage(0)) if infos else textpage
        orientation = exact_vote(voter, text)
    words = turned(words, orientation.rotation)
    return PageLayer(text, orientation, words, encode(words) if words else b"", cover)


def one_pass(raw: list[Any], width: float, height: float) -> tuple[list[Word], list[Vector], int]:
    """MuPDF's word list (``extractWORDS`` of a text page as shown) walked once: the
    words' boxes in fractions of a ``width`` × ``height`` page (the first ``MAX_WORDS``
    words with text and area), the direction of each line of two words or more with
    its letters (the quick vote's voters), and the letters of every line.

    In a line of two words or more the words come in reading order, so the first
    word's centre to the last's is the line's direction; MuPDF lists a line's words
    one after the other. Letters are counted once per line, on its words joined.
    Boxes are whole ten-thousandths, clamped to the page: plain arithmetic, several
    times quicker than building a ``pymupdf.Rect`` and rounding per word."""
    words: list[Word] = []
    vectors: list[Vector] = []
    letters = 0
    if width <= 0 or height <= 0:
        return words, vectors, letters
    sx, sy = SCALE / width, SCALE / height
    at_block = at_line = -1
    first: Any = None
    last: Any = None
    texts: list[str] = []
    for word in raw:
        x0, y0, x1, y1, text, block, line, _ = word
        if line != at_line or block != at_block:
            if texts:
                letters += _close_line(first, last, texts, vectors)
            at_block, at_line, first, texts = block, line, word, []
        last = word
        texts.append(text)
        if len(words) >= MAX_WORDS:
            continue
        text = text.strip()
        if not text:
            continue
        ax, bx = (x0 * sx, x1 * sx) if x0 <= x1 else (x1 * sx, x0 * sx)
        ay, by = (y0 * sy, y1 * sy) if y0 <= y1 else (y1 * sy, y0 * sy)
        left = 0 if ax < 0 else SCALE if ax > SCALE else int(ax + 0.5)
        right = 0 if bx < 0 else SCALE if bx > SCALE else int(bx + 0.5)
        top = 0 if ay < 0 else SCALE if ay > SCALE else int(ay + 0.5)
        bottom = 0 if by < 0 else SCALE if by > SCALE else int(by + 0.5)
        if right > left and bottom > top:
            words.append((text, left / SCALE, top / SCALE, right / SCALE, bottom / SCALE))
    if texts:
        letters += _close_line(first, last, texts, vectors)
    return words, vectors, letters


def _close_line(first: Any, last: Any, texts: list[str], vectors: list[Vector]) -> int:
    """A line's letters; a line of two words or more also votes with its direction."""
    count = sum(map(str.isalnum, "".join(texts)))
    if len(texts) > 1:
        dx = (last[0] + last[2] - first[0] - first[2]) / 2
        dy = (last[1] + last[3] - first[1] - first[3]) / 2
        vectors.append((dx, dy, float(count)))
    return count


def quick_vote(vectors: list[Vector], letters: int) -> Orientation | None:
    """The quick vote of an upright page, from the lines of ``one_pass``: when lines of
    two words or more hold most of the page's ``letters`` and nearly all of them run
    left to right, the page is upright. Anything else (a short layer, a sideways or
    mixed page) is None: left to the exact vote of every line's ``dir``
    (``exact_vote``), which costs a tenth of the page's rendering."""
    voted = sum(v[2] for v in vectors)
    if voted < MIN_VOTE_LETTERS or voted < QUICK_VOTE_COVER * letters:
        return None
    decision = from_vote(vectors, coded("orient_source_layer"))
    if decision.rotation or decision.uncertain or decision.confidence < QUICK_VOTE_SHARE:
        return None
    return decision


def exact_vote(textpage: Any, text: str) -> Orientation:
    """The vote of the page's text lines (``textpage`` is the page as shown, its
    /Rotate applied): a landscape table set sideways on a portrait page is turned to
    be read. A short layer votes too (``from_vote``: turned when all its lines agree,
    else flagged); a page without letters gets no vote, OCR decides for it."""
    if not any(map(str.isalnum, text)):
        return Orientation()
    vectors = []
    for block in textpage.extractDICT()["blocks"]:
        for line in block.get("lines", ()):
            letters = sum(map(str.isalnum, "".join([span["text"] for span in line["spans"]])))
            dx, dy = line["dir"]
            vectors.append((dx, dy, float(letters)))
    return from_vote(vectors, coded("orient_source_layer"), short_vote=True)
