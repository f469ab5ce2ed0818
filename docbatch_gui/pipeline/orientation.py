"""How a page's orientation is decided, from the best evidence the page has.

One decision per page, which the stored image, its thumbnail and its text all follow:

- a page with a text layer: the direction of its text lines (weighted by letters).
  OCR never turns such a page;
- a scan read by Tesseract: OSD on an image rendered for it at about 300 dpi, with a
  margin. At the ~110 dpi of the image Claude reads, OSD turned upright pages over
  with scores of 1.3-1.7; at 300 dpi the same pages score 11-16 upright;
- a scan read by Google Vision: the direction of its word boxes, as for a text layer.

When the evidence is weak, the page is kept as scanned and marked "orientation
uncertain" for review: a page left sideways is a nuisance, a page turned upside down
on a guess ruins its OCR text.

``Orientation.note`` records the evidence in words (the OSD answer and score at the
resolution it read, or the vote of the text lines), for the reviewer and the log: a
message (``texts_pages``), so the Review screen words it in the interface language.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from PIL import Image

from docbatch_gui.domain.messages import Message, coded

#: OSD's score below which a 180° answer is not acted on. On the real-world corpus
#: (scripts/corpus.py) at 300 dpi, text pages score 15-35 whichever way they face,
#: while a painting read as upside down "Arabic" scored 4.9
MIN_OSD_SCORE_180 = 5.0
#: OSD's score below which a sideways answer is not acted on: blurred sideways photos
#: still score 0.4-0.7 and are right, noise on a blank-ish page scores less
MIN_OSD_SCORE_SIDEWAYS = 0.4
#: OSD's score at which ``confidence`` reaches 1
OSD_SCORE_SCALE = 5.0
#: the share of letters (text layer) or word letters (Vision) that must agree on a
#: direction before a page is turned, and how many letters make a vote at all
MIN_VOTE_SHARE = 0.75
MIN_VOTE_LETTERS = 20
#: a text layer's own lines under ``MIN_VOTE_LETTERS`` turn a page when all of them
#: agree and hold at least this many letters (a page number, a ten-letter stamp)
MIN_SHORT_VOTE_LETTERS = 4


@dataclass(frozen=True)
class Orientation:
    rotation: int = 0  # clockwise degrees the page image is turned to be upright
    confidence: float = 0.0  # 0..1
    uncertain: bool = False  # kept as scanned on weak evidence: a reviewer should look
    note: Message | None = None  # the evidence, in words


def rotation_from_vectors(vectors: Iterable[tuple[float, float, float]]) -> tuple[int, float]:
    """Clockwise degrees to turn the image upright, and the share of text agreeing.

    Each vector is ``(dx, dy, weight)``: the direction of a line or word (its baseline
    in reading order) in image coordinates, where y grows downwards. Upright text
    points right (0°). If it points down (+90° here, i.e. turned 90° clockwise on the
    scan) the image must be turned 270° clockwise; pointing left needs 180°; pointing
    up needs 90°. In short: rotation = (360 - direction) mod 360, with the direction
    snapped to the nearest quarter turn. No usable vectors -> ``(0, 0.0)``.
    """
    weights = _weights(vectors)
    total = sum(weights.values())
    if total == 0:
        return 0, 0.0
    rotation = max(weights, key=lambda r: (weights[r], r == 0))  # a tie keeps the page as is
    return rotation, round(weights[rotation] / total, 3)


def _weights(vectors: Iterable[tuple[float, float, float]]) -> dict[int, float]:
    weights = {0: 0.0, 90: 0.0, 180: 0.0, 270: 0.0}
    for dx, dy, weight in vectors:
        if (dx == 0 and dy == 0) or weight <= 0:
            continue
        direction = math.degrees(math.atan2(dy, dx)) % 360
        snapped = (round(direction / 90) % 4) * 90
        weights[(360 - snapped) % 360] += weight
    return weights


def from_vote(
    vectors: Iterable[tuple[float, float, float]], source: Message, *, short_vote: bool = False
) -> Orientation:
    """The decision of a text-direction vote (``source`` names the voters: a message
    such as ``coded("orient_source_layer")``, so the note reads in either language).

    ``short_vote``: the voters are a file's own text layer, whose line directions are
    exact (MuPDF's ``dir``), so even a few letters vote: under ``MIN_VOTE_LETTERS`` a
    page is turned when every line agrees on it and there are ``MIN_SHORT_VOTE_LETTERS``
    of them, and flagged uncertain when the lines point elsewhere than upright but do
    not make a vote; a sideways page with a text layer is never left silently."""
    vectors = list(vectors)
    letters = sum(w for dx, dy, w in vectors if (dx or dy) and w > 0)
    rotation, share = rotation_from_vectors(vectors)
    vote = {"source": source, "share": share, "letters": letters, "direction": _direction(rotation)}
    if letters < MIN_VOTE_LETTERS:
        if short_vote and letters and rotation:
            if share == 1.0 and letters >= MIN_SHORT_VOTE_LETTERS:
                note = coded("orient_vote_short_turned", **vote, rotation=rotation)
                return Orientation(rotation, round(letters / MIN_VOTE_LETTERS, 3), False, note)
            return Orientation(0, 0.0, True, coded("orient_vote_short_weak", **vote))
        return Orientation(note=coded("orient_vote_too_little", source=source, letters=letters))
    if rotation == 0:
        return Orientation(0, share, False, coded("orient_vote_upright", **vote))
    if share < MIN_VOTE_SHARE:
        note = coded("orient_vote_weak", **vote, needed=MIN_VOTE_SHARE)
        return Orientation(0, share, True, note)
    note = coded("orient_vote_turned", **vote, rotation=rotation)
    return Orientation(rotation, share, False, note)


def from_osd(
    rotation: int | None,
    score: float,
    dpi: int | None,
    *,
    script: str = "",
    scripts: frozenset[str] | None = None,
) -> Orientation:
    """The decision on Tesseract's OSD answer (``None``: OSD gave none) at ``dpi``.

    ``script`` is the writing OSD believes it saw; ``scripts`` those the OCR languages
    write (None: not known). A turn on writing in none of them is noise read as text
    (a painting read as "Arabic"), so it is not acted on.
    """
    where = _where(dpi)
    if rotation is None or rotation % 90:
        return Orientation(note=coded("orient_osd_none", where=where))
    confidence = round(min(1.0, score / OSD_SCORE_SCALE), 3)
    said = osd_said(rotation, score, dpi, script)
    if rotation == 0:
        return Orientation(0, confidence, False, coded("orient_osd_upright", said=said))
    needed = MIN_OSD_SCORE_180 if rotation == 180 else MIN_OSD_SCORE_SIDEWAYS
    if score < needed:
        return Orientation(0, 0.0, True, coded("orient_osd_weak", said=said, needed=needed))
    if script and scripts is not None and script not in scripts:
        return Orientation(0, 0.0, True, coded("orient_osd_foreign", said=said))
    note = coded("orient_osd_turned", said=said, rotation=rotation)
    return Orientation(rotation, confidence, False, note)


def _where(dpi: int | None) -> Message:
    return coded("orient_osd_at", dpi=dpi) if dpi else coded("orient_osd_page")


def osd_said(rotation: int | None, score: float, dpi: int | None, script: str = "") -> Message:
    """What OSD answered, in words, without the decision on it."""
    where = _where(dpi)
    if rotation is None or rotation % 90:
        return coded("orient_osd_no_answer", where=where)
    answer = {"where": where, "rotation": rotation, "score": score}
    if script:
        return coded("orient_osd_said_script", **answer, script=script)
    return coded("orient_osd_said", **answer)


def _direction(rotation: int) -> Message:
    """Which way the letters run, as a message of its own (``orient_dir_0`` …)."""
    return coded(f"orient_dir_{rotation}")


def turn(image: Any, rotation: int) -> Any:
    """A PIL image turned clockwise by ``rotation`` (a lossless transpose)."""
    transpose = {
        90: Image.Transpose.ROTATE_270,  # PIL's ROTATE_* turn counter-clockwise
        180: Image.Transpose.ROTATE_180,
        270: Image.Transpose.ROTATE_90,
    }.get(rotation % 360)
    return image if transpose is None else image.transpose(transpose)


def turn_pixels(pixels: Any, rotation: int) -> Any:
    """A page's pixel array turned clockwise by ``rotation``, as a view (``numpy``
    turns counter-clockwise for a positive count)."""
    # deferred: numpy, for the render child alone
    import numpy as np

    quarter_turns, rest = divmod(rotation % 360, 90)
    # as ``turn``: only a whole number of quarter turns turns the page
    return np.rot90(pixels, -quarter_turns) if quarter_turns and not rest else pixels
