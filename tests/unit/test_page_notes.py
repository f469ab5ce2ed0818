"""A page's orientation note and skip reason are messages: the exact English text
scripts and ``pages --json`` read, and Russian words for a Russian window."""

from __future__ import annotations

import json
import re

import pytest

from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.pipeline.isolate import error_of, note_of
from docbatch_gui.pipeline.orientation import Orientation, from_osd, from_vote

#: the names a Russian note may quote as they are
NAMES = {"OSD", "OCR", "Google", "Vision", "Tesseract", "PAGE_TIMEOUT", "Latin", "Arabic"}
LAYER = coded("orient_source_layer")
VISION = coded("orient_source_vision")
LATIN = frozenset({"Latin", "Cyrillic"})

NOTES: list[tuple[Orientation, str]] = [
    (
        from_vote([(0.0, -1.0, 60.0), (1.0, 0.0, 40.0)], LAYER),
        "text layer lines: 60% of 100 letters read bottom to top, under the 75% needed; kept",
    ),
    (
        from_vote([(1.0, 0.02, 80.0)], LAYER),
        "text layer lines: 100% of 80 letters read left to right; upright",
    ),
    (
        from_vote([(0.0, 1.0, 90.0)], VISION),
        "Vision word boxes: 100% of 90 letters read top to bottom; turned 270°",
    ),
    (
        from_vote([(-1.0, 0.0, 90.0)], VISION),
        "Vision word boxes: 100% of 90 letters read upside down; turned 180°",
    ),
    (
        from_vote([(-1.0, 0.0, 5.0)], VISION),
        "Vision word boxes: too little text to vote (5 letters)",
    ),
    (
        from_osd(None, 0.0, 300),
        "OSD at 300 dpi: no answer (too little text); kept as scanned",
    ),
    (
        from_osd(0, 12.0, None),
        "OSD on the page image: 0° (score 12.00); upright",
    ),
    (
        from_osd(180, 1.9, 300),
        "OSD at 300 dpi: 180° (score 1.90), under the 5 needed; kept as scanned",
    ),
    (
        from_osd(270, 0.3, 300),
        "OSD at 300 dpi: 270° (score 0.30), under the 0.4 needed; kept as scanned",
    ),
    (
        from_osd(180, 7.0, 300, script="Arabic", scripts=LATIN),
        "OSD at 300 dpi: 180° (score 7.00, script Arabic), not a script of the OCR "
        "languages; kept as scanned",
    ),
    (
        from_osd(180, 31.8, 300, script="Latin", scripts=LATIN),
        "OSD at 300 dpi: 180° (score 31.80, script Latin); turned 180°",
    ),
]


def _english_words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_]{2,}", text)) - NAMES


@pytest.mark.parametrize(("decision", "text"), NOTES, ids=[t[:40] for _, t in NOTES])
def test_a_note_keeps_its_english_text_and_reads_in_russian(
    decision: Orientation, text: str
) -> None:
    assert isinstance(decision.note, Message) and decision.note.code
    assert decision.note.english == text
    russian = decision.note.words("ru")
    assert russian != text and re.search("[а-я]", russian), russian
    assert not _english_words(russian), russian


def test_the_render_timeout_and_the_ocr_notes_read_in_russian() -> None:
    skipped = coded("page_render_timeout", seconds=3.0)
    assert skipped.english == "rendering took longer than 3 s (PAGE_TIMEOUT)"
    assert skipped.words("ru") == "отрисовка заняла больше 3 с (PAGE_TIMEOUT)"
    small = coded("orient_small_image")
    assert small.english == "a small image: read enlarged, without OSD"
    assert not _english_words(small.words("ru"))
    layer = from_vote([(1.0, 0.0, 80.0)], LAYER).note
    joined = coded("orient_layer_ocr_not_used", layer=layer, ocr=small)
    assert joined.english == (
        "text layer lines: 100% of 80 letters read left to right; upright; "
        "OCR not used to turn it: a small image: read enlarged, without OSD"
    )
    assert not _english_words(joined.words("ru"))
    alone = coded("orient_ocr_not_used", ocr="an old cached note")
    assert alone.english == "OCR not used to turn it: an old cached note"
    assert "an old cached note" in alone.words("ru")  # an old text is quoted as it is


def test_a_note_crosses_the_child_pipe_as_its_code_and_params() -> None:
    """What ``pipeline.child`` sends for a note and an error, read back by the parent."""
    note = from_osd(90, 3.0, 300).note
    assert note is not None
    sent = json.loads(json.dumps({"orientation_note": note.as_dict(), "error": None}))
    assert note_of(sent["orientation_note"]) == note
    assert note_of(sent["error"]) is None
    text, code, params = coded("pdf_password", file="x.pdf").columns()
    event = json.loads(json.dumps({"message": text, "code": code, "params": params}))
    assert error_of(event) == coded("pdf_password", file="x.pdf")
    assert error_of({"message": "a child with no code", "code": None}) == Message.plain(
        "a child with no code"
    )
