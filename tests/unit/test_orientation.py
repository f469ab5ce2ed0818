"""The orientation decision: margins on OSD, votes of text lines and word boxes."""

from __future__ import annotations

import pytest

from docbatch_gui.pipeline.orientation import Orientation, from_osd, from_vote


@pytest.mark.parametrize(
    ("answer", "score", "rotation", "uncertain"),
    [
        (0, 12.0, 0, False),
        (180, 9.5, 180, False),
        (180, 1.9, 0, True),  # upside down needs a clear margin
        (180, 4.9, 0, True),  # what a painting scored at 300 dpi
        (90, 0.5, 90, False),  # a blurred sideways photo is still right
        (270, 0.3, 0, True),
        (None, 0.0, 0, False),  # OSD had no answer: nothing to doubt
    ],
)
def test_osd(answer: int | None, score: float, rotation: int, uncertain: bool) -> None:
    decision = from_osd(answer, score, 300)
    assert (decision.rotation, decision.uncertain) == (rotation, uncertain)
    assert decision.note.english.startswith("OSD at 300 dpi")
    if uncertain:
        assert "needed; kept as scanned" in decision.note.english


def test_a_vote_turns_a_page_only_when_most_letters_agree() -> None:
    sideways = [(0.0, -1.0, 60.0), (0.0, -1.0, 40.0), (1.0, 0.0, 10.0)]  # bottom to top
    assert from_vote(sideways, "text layer lines").rotation == 90
    split = [(0.0, -1.0, 60.0), (1.0, 0.0, 40.0)]
    decision = from_vote(split, "text layer lines")
    assert decision == Orientation(0, 0.6, True, decision.note)
    assert "60% of 100 letters read bottom to top, under the 75% needed" in decision.note.english
    assert from_vote([(-1.0, 0.0, 5.0)], "Vision word boxes").rotation == 0  # too few letters
    upright = from_vote([(1.0, 0.02, 80.0)], "text layer lines")
    assert upright.rotation == 0 and not upright.uncertain
    assert (
        upright.note.english == "text layer lines: 100% of 80 letters read left to right; upright"
    )


def test_a_turn_on_writing_the_languages_do_not_use_is_not_made() -> None:
    """The painting OSD read as upside-down Arabic at 300 dpi (score 4.9) stays; a
    Latin page read upside down is turned."""
    latin_cyrillic = frozenset({"Latin", "Cyrillic"})
    noise = from_osd(180, 7.0, 300, script="Arabic", scripts=latin_cyrillic)
    assert (noise.rotation, noise.uncertain) == (0, True)
    assert noise.note.english == (
        "OSD at 300 dpi: 180° (score 7.00, script Arabic), not a script of the OCR "
        "languages; kept as scanned"
    )
    page = from_osd(180, 31.8, 300, script="Latin", scripts=latin_cyrillic)
    assert (page.rotation, page.uncertain) == (180, False)
    assert from_osd(90, 3.0, 300, script="Han", scripts=None).rotation == 90  # unknown languages


def test_languages_name_their_scripts() -> None:
    from docbatch_gui.pipeline.ocr_tesseract import language_scripts

    assert language_scripts("rus+eng") == {"Cyrillic", "Latin"}
    assert language_scripts("eng") == {"Latin"}
    assert language_scripts("rus+chi_sim") is None
