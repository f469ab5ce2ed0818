"""A page's words with their boxes, as every reader captures them: upright, in
fractions of the page, whatever turn the file or the pipeline gave the page."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest

from docbatch_gui.pipeline.ocr_vision import VisionOcr
from docbatch_gui.pipeline.opening import open_pdf
from docbatch_gui.pipeline.page_layer import one_pass
from docbatch_gui.pipeline.render import PrepareTask
from docbatch_gui.pipeline.words import (
    MAX_WORDS,
    decode,
    encode,
    from_pdf_page,
    from_tesseract_tsv,
    normalised,
    turned,
)
from tests.builders import text_bomb_pdf
from tests.fakes.vision_server import PAGE_HEIGHT, PAGE_WIDTH, FakeVision

JPEG = b"\xff\xd8\xff\xe0 not really a jpeg, the fake only checks it is non-empty"


def _close(box: tuple[float, ...], expected: tuple[float, ...], tolerance: float = 0.002) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(box, expected, strict=True))


def test_a_quarter_turn_moves_the_box_as_the_image_turns() -> None:
    """A word near the top-left corner of a portrait page is near the top-right corner
    once the page is turned clockwise, near the bottom-right after a half turn."""
    word = ("A", 0.1, 0.2, 0.3, 0.25)
    assert turned([word], 90) == [("A", 0.75, 0.1, 0.8, 0.3)]
    assert turned([word], 180) == [("A", 0.7, 0.75, 0.9, 0.8)]
    assert turned([word], 270) == [("A", 0.2, 0.7, 0.25, 0.9)]
    assert turned(turned([word], 90), 270) == [word]
    assert turned([word], -90) == turned([word], 270)


def test_boxes_are_fractions_and_the_blob_round_trips() -> None:
    assert normalised(" x ", 10, 20, 30, 40, 100, 200) == ("x", 0.1, 0.1, 0.3, 0.2)
    assert normalised("", 10, 20, 30, 40, 100, 200) is None
    assert normalised("x", 10, 20, 10, 40, 100, 200) is None  # no area
    words = [("Итого", 0.1, 0.2, 0.3, 0.25), ("118 000,00", 0.5, 0.2, 0.7, 0.25)]
    assert decode(encode(words)) == words
    assert decode(b"not json") == [] and decode(b'{"format": 99, "words": []}') == []


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_text_layer_words_stand_where_the_rendered_page_shows_them(rotate: int) -> None:
    """A page with /Rotate shows its text turned; the word's box follows the page as
    rendered (MuPDF's word boxes are on the unrotated page)."""
    document = pymupdf.open()
    page = document.new_page(width=600, height=800)
    page.insert_text((60, 100), "Total 118000.00", fontsize=20)
    page.set_rotation(rotate)
    pixmap = page.get_pixmap(dpi=36, colorspace=pymupdf.csGRAY)
    (word, *_) = from_pdf_page(page, page.get_textpage(), 0)
    assert word[0] == "Total"
    _, x0, y0, x1, y1 = word
    width, height = pixmap.width, pixmap.height
    dark = [
        (i % width, i // width)
        for i, value in enumerate(pixmap.samples)
        if value < 128
        and x0 * width <= i % width <= x1 * width
        and y0 * height <= i // width <= y1 * height
    ]
    assert len(dark) > 20  # the box holds the word's ink on the rendered page


def test_the_renderers_own_turn_is_applied() -> None:
    document = pymupdf.open()
    page = document.new_page(width=600, height=800)
    page.insert_text((60, 100), "Total", fontsize=20)
    (plain,) = from_pdf_page(page, page.get_textpage(), 0)
    (turned_word,) = from_pdf_page(page, page.get_textpage(), 90)
    assert turned_word == turned([plain], 90)[0]


def test_a_text_bomb_keeps_a_bounded_number_of_words(tmp_path: Path) -> None:
    """Millions of words of repeated text: the first MAX_WORDS are kept."""
    bomb = tmp_path / "bomb.pdf"
    text_bomb_pdf(bomb, repeats=5_000)
    document = open_pdf(PrepareTask(source=str(bomb), file_name="bomb.pdf", kind="pdf"))
    page = document[0]
    words = from_pdf_page(page, page.get_textpage(), 0)
    assert len(words) == MAX_WORDS
    assert len(decode(encode(words * 2))) == MAX_WORDS


def test_tesseract_tsv_rows_of_words() -> None:
    tsv = (
        "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight"
        "\tconf\ttext\n"
        "1\t1\t0\t0\t0\t0\t0\t0\t1000\t2000\t-1\t\n"
        "5\t1\t1\t1\t1\t1\t100\t200\t300\t50\t96.5\tСчёт\n"
        "5\t1\t1\t1\t1\t2\t450\t200\t50\t50\t91\t \n"
    )
    assert from_tesseract_tsv(tsv, 1000, 2000) == [("Счёт", 0.1, 0.1, 0.4, 0.125)]


@pytest.fixture(scope="module")
def vision() -> Iterator[FakeVision]:
    with FakeVision() as server:
        yield server


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_vision_words_are_upright_whatever_the_scan(vision: FakeVision, rotation: int) -> None:
    """The fake lays words out on an upright page, then turns the scan; the engine's
    words, turned by its own rotation, stand where they stood on the upright page."""
    vision.reset()
    vision.text_for_next("Счёт на оплату номер сорок два от первого февраля", rotation)
    result = VisionOcr(endpoint=vision.url, timeout=5.0).recognise(JPEG, 1)
    assert result.rotation == rotation
    first = result.words[0]
    assert first[0] == "Счёт"
    expected = (50 / PAGE_WIDTH, 60 / PAGE_HEIGHT, (50 + 18 * 4) / PAGE_WIDTH, 88 / PAGE_HEIGHT)
    assert _close(first[1:], expected)


def test_the_blob_is_the_json_the_store_always_had() -> None:
    """The blob is written by orjson for speed; its bytes are those the standard
    library wrote before (the same shortest floats, the same escapes), so a page
    stored before and after keeps one blob and one key."""
    words = [
        ("Итого", 0.0001, 0.2, 0.3, 1.0),
        ('"quoted" \\ back\tslash', 0.0, 0.1234, 0.5, 0.9999),
        ("é\u2028\x01", 0.1, 0.2, 0.3, 0.4),
    ]
    body = {"format": 1, "words": [list(w) for w in words], "confidence": [96, 0, 100]}
    expected = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    assert encode(words, [96, 0, 100]) == expected
    assert decode(expected) == words


@pytest.mark.parametrize("rotate", [0, 90, 270])
def test_the_render_childs_one_pass_gives_the_words_of_the_text_layer(rotate: int) -> None:
    """``page_layer.one_pass`` (boxes and the quick vote's lines in one walk of MuPDF's
    word list) gives the words ``from_pdf_page`` gives on the page as shown, and counts
    every line's letters; the two-word lines vote with their direction."""
    document = pymupdf.open()
    page = document.new_page(width=600, height=800)
    page.insert_text((60, 100), "Total 118000.00", fontsize=20)
    page.insert_text((60, 200), "Sum", fontsize=20)
    page.set_rotation(rotate)
    textpage = pymupdf.TextPage(page.get_displaylist().get_textpage(0))
    raw = textpage.extractWORDS()
    words, vectors, letters = one_pass(raw, page.rect.width, page.rect.height)
    assert words == from_pdf_page(page, textpage, 0, matrix=pymupdf.Identity, raw=raw)
    assert [w[0] for w in words] == ["Total", "118000.00", "Sum"]
    assert letters == len("Total11800000") + len("Sum")
    (vector,) = vectors  # the one-word line does not vote
    assert vector[2] == len("Total11800000")
