"""A page's orientation note and skip reason are messages: the exact English text
scripts and ``pages --json`` read, and Russian words for a Russian window."""

from __future__ import annotations

import json
import re

import pytest

from docbatch_gui.domain.messages import Message, Worded, coded, said_of, with_said, words_of
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
    assert isinstance(decision.note, Worded)
    assert decision.note == text
    russian = words_of(decision.note, "ru")
    assert russian != text and re.search("[а-я]", russian), russian
    assert not _english_words(russian), russian


def test_the_render_timeout_and_the_ocr_notes_read_in_russian() -> None:
    skipped = coded("page_render_timeout", seconds=3.0)
    assert skipped == "rendering took longer than 3 s (PAGE_TIMEOUT)"
    assert words_of(skipped, "ru") == "отрисовка заняла больше 3 с (PAGE_TIMEOUT)"
    small = coded("orient_small_image")
    assert small == "a small image: read enlarged, without OSD"
    assert not _english_words(words_of(small, "ru"))
    layer = from_vote([(1.0, 0.0, 80.0)], LAYER).note
    joined = coded("orient_layer_ocr_not_used", layer=layer, ocr=small)
    assert joined == (
        "text layer lines: 100% of 80 letters read left to right; upright; "
        "OCR not used to turn it: a small image: read enlarged, without OSD"
    )
    assert not _english_words(words_of(joined, "ru"))
    alone = coded("orient_ocr_not_used", ocr="an old cached note")
    assert alone == "OCR not used to turn it: an old cached note"
    assert "an old cached note" in words_of(alone, "ru")  # an old text is quoted as it is


def test_codes_cross_json_beside_the_texts_and_come_back_worded() -> None:
    note = from_osd(90, 3.0, 300).note
    assert isinstance(note, Worded)
    fields = {"orientation_note": note, "error": "Tesseract failed", "text": "x"}
    said = json.loads(json.dumps(said_of(fields)))
    assert set(said) == {"orientation_note"}  # a plain text has no code to send
    back = with_said({k: str(v) for k, v in fields.items()}, said)
    assert isinstance(back["orientation_note"], Worded)
    assert back["orientation_note"].message == note.message
    assert not isinstance(back["error"], Worded) and back["error"] == "Tesseract failed"


def test_a_code_this_version_cannot_word_leaves_the_stored_text() -> None:
    said = {
        "orientation_note": {"code": "orient_from_the_future", "params": {}},
        "render_error": Message("page_render_timeout", {}).as_dict(),  # its seconds lost
    }
    back = with_said({"orientation_note": "as stored", "render_error": "old text"}, said)
    assert back == {"orientation_note": "as stored", "render_error": "old text"}
    assert not any(isinstance(v, Worded) for v in back.values())
