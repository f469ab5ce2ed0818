"""The second vote on a weak OSD answer: the page read at each candidate angle."""

from __future__ import annotations

from docbatch_gui.domain.messages import Message
from docbatch_gui.pipeline.orientation import Orientation
from docbatch_gui.pipeline.orientation_vote import (
    Reading,
    candidates,
    decide,
    recognition,
    second_vote,
)

TSV_HEADER = (
    "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext"
)


def _tsv(*words: tuple[str, float]) -> str:
    rows = [
        f"5\t1\t1\t1\t1\t{n}\t10\t10\t50\t20\t{conf}\t{text}"
        for n, (text, conf) in enumerate(words)
    ]
    return "\n".join([TSV_HEADER, *rows])


def test_candidate_angles() -> None:
    assert candidates(180) == (0, 180)
    assert candidates(90) == (0, 90)
    assert candidates(None) == (0, 90, 180, 270)


def test_recognition_weighs_confidence_by_letters_and_counts_words_of_the_scripts() -> None:
    confidence, share = recognition(
        _tsv(("Invoice", 90.0), ("Итого", 80.0), ("'ʻ", 10.0), ("12", 95.0)),
        frozenset({"Latin", "Cyrillic"}),
    )
    assert share == 0.5  # Invoice, Итого; not the fragment, not the number
    assert 80 < confidence < 90
    assert recognition(_tsv(("Ελλάδα", 90.0)), frozenset({"Latin"}))[1] == 0.0
    assert recognition(TSV_HEADER, None) == (0.0, 0.0)


def test_the_clearly_better_reading_wins_and_a_close_one_flags_the_page() -> None:
    upright = Reading(180, "Total", [("Total", 0, 0, 1, 1)], 90.0, 0.9)
    wrong = Reading(0, "ɐʇoʇ", [("x", 0, 0, 1, 1)], 40.0, 0.2)
    orientation, best = decide([wrong, upright], "OSD at 300 dpi: 180° (score 2.52)")
    assert (orientation.rotation, orientation.uncertain, best) == (180, False, upright)
    assert "turned 180° reads best (score 81, next 8)" in orientation.note.english
    close = Reading(180, "Tota1", [("x", 0, 0, 1, 1)], 45.0, 0.3)
    orientation, best = decide([wrong, close], "OSD at 300 dpi: 180° (score 2.52)")
    assert (orientation.rotation, orientation.uncertain, best) == (0, True, wrong)
    assert orientation.note.english.endswith("kept as scanned")


def test_a_page_without_words_is_read_once() -> None:
    read: list[int] = []

    def reading(rotation: int) -> Reading:
        read.append(rotation)
        return Reading(rotation, "")

    osd = Orientation(note=Message.plain("OSD at 300 dpi: no answer (too little text); kept"))
    said = Message.plain("OSD at 300 dpi: no answer")
    assert second_vote(reading, osd, None, said) == (osd, Reading(0, ""))
    assert read == [0]
