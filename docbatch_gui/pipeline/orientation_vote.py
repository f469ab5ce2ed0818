"""A second vote on a scan's orientation, when OSD's answer is weak: read it each way.

OSD judges a page from the shapes of its letters, and a page with little text gives
it little to judge: a clean three-line page scanned upside down scores 2.5 for its
right answer of 180°, under the margin that keeps upright pages from being turned
over on noise (``orientation.MIN_OSD_SCORE_180``). Tesseract's recognition settles it:
the page read the right way up gives words with high confidence in the OCR languages'
scripts; read the wrong way up it gives low-confidence fragments.

So when OSD's answer is under its margin (or OSD has none), the page is read at each
candidate angle (0° and OSD's answer; all four when OSD has none), and the angle whose
reading is clearly better wins. The readings are kept: the winner's text and words
are the page's, so the vote costs one extra reading of the page per extra angle
(about one OCR run, a second or two on an A4 page; only on weak pages). When the
readings are close (a picture, a script outside the OCR languages), the page is kept
as scanned and flagged uncertain.

A reading's score is its mean word confidence (Tesseract's 0-100, weighted by
letters) times the share of its words that look like words of the OCR languages
(two letters or more, all in one script those languages write).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.pipeline.orientation import Orientation
from docbatch_gui.pipeline.words import Word

#: the winner's score at least (an upright clean page scores 70-95, noise under 20)
MIN_READING_SCORE = 35.0
#: and its lead over the next reading, in score points
MIN_READING_LEAD = 15.0


@dataclass(frozen=True)
class Reading:
    """One reading of the page turned clockwise by ``rotation``."""

    rotation: int
    text: str
    words: list[Word] = field(default_factory=list)
    confidence: float = 0.0  # mean word confidence, 0-100, weighted by letters
    word_share: float = 0.0  # share of words in the OCR languages' scripts

    @property
    def score(self) -> float:
        return round(self.confidence * self.word_share, 1)


def candidates(osd_rotation: int | None) -> tuple[int, ...]:
    """The angles to read at: as scanned and OSD's answer, or all four without one."""
    if osd_rotation is None or osd_rotation % 90:
        return (0, 90, 180, 270)
    return (0,) if osd_rotation % 360 == 0 else (0, osd_rotation % 360)


def recognition(tsv: str, scripts: frozenset[str] | None) -> tuple[float, float]:
    """(mean word confidence weighted by letters, share of words in ``scripts``) of
    Tesseract's TSV output; ``scripts`` None: any alphabetic word counts."""
    weighted = letters_total = 0.0
    words = in_script = 0
    for line in tsv.splitlines()[1:]:
        cells = line.split("\t")
        if len(cells) < 12 or cells[0] != "5":
            continue
        try:
            confidence = float(cells[10])
        except ValueError:
            continue
        text = cells[11].strip()
        letters = sum(map(str.isalnum, text))
        if confidence < 0 or not letters:
            continue
        weighted += confidence * letters
        letters_total += letters
        words += 1
        in_script += _in_scripts(text, scripts)
    if not words:
        return 0.0, 0.0
    return round(weighted / letters_total, 1), round(in_script / words, 3)


def _in_scripts(text: str, scripts: frozenset[str] | None) -> bool:
    """A word of two letters or more, all of one script the languages write."""
    letters = [ch for ch in text if ch.isalpha()]
    if len(letters) < 2 or len(letters) < len(text.strip(".,:;!?()«»\"'-")):
        return False
    names = {unicodedata.name(ch, "?").split(" ")[0].capitalize() for ch in letters}
    return len(names) == 1 and (scripts is None or names <= scripts)


def decide(readings: Sequence[Reading], said: Message) -> tuple[Orientation, Reading]:
    """The orientation the readings vote for, and the reading that goes with it.

    The best-scoring reading wins when it scores ``MIN_READING_SCORE`` and leads the
    next by ``MIN_READING_LEAD``; otherwise the page is kept as scanned (the 0°
    reading) and flagged uncertain. ``said`` is OSD's answer in words
    (``orientation.osd_said``), which the note carries on.
    """
    ranked = sorted(readings, key=lambda r: (r.score, r.rotation == 0), reverse=True)
    best = ranked[0]
    runner_up = ranked[1].score if len(ranked) > 1 else 0.0
    scanned = next(r for r in readings if r.rotation == 0)
    vote = {
        "said": said,
        "rotation": best.rotation,
        "score": best.score,
        "next": runner_up,
        "angles": len(readings),
    }
    if best.score >= MIN_READING_SCORE and best.score - runner_up >= MIN_READING_LEAD:
        confidence = round(min(1.0, (best.score - runner_up) / 50), 3)
        if best.rotation == 0:
            return Orientation(0, confidence, False, coded("orient_read_upright", **vote)), best
        note = coded("orient_read_turned", **vote)
        return Orientation(best.rotation, confidence, False, note), best
    return Orientation(0, 0.0, True, coded("orient_read_close", **vote)), scanned


def second_vote(
    read: Callable[[int], Reading], osd: Orientation, osd_rotation: int | None, said: Message
) -> tuple[Orientation, Reading]:
    """Read the page at each candidate angle (``read(rotation)``) and decide.

    The page is read as scanned first: a page with no word on it (a blank page, a
    picture) has nothing to orient, keeps OSD's decision ``osd`` and costs no more
    readings."""
    scanned = read(0)
    if not scanned.words:
        return osd, scanned
    others = [read(rotation) for rotation in candidates(osd_rotation) if rotation]
    return decide([scanned, *others], said)
