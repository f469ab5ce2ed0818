"""The one JPEG encoder: what it writes decodes to the pixels it was given, gray as
gray, colour as colour, and a page turned as a view is written turned."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from docbatch_gui.pipeline.jpeg import encode_image, encode_pixels
from docbatch_gui.pipeline.orientation import turn, turn_pixels


def _page(width: int = 90, height: int = 60) -> np.ndarray:
    """A gray page with a dark block in its top-left corner: which way it faces shows."""
    pixels = np.full((height, width), 255, np.uint8)
    pixels[: height // 3, : width // 3] = 0
    return pixels


def _decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_gray_pixels_decode_to_themselves_as_a_gray_jpeg() -> None:
    pixels = _page()
    image = _decoded(encode_pixels(pixels, 80))
    assert image.format == "JPEG" and image.mode == "L" and image.size == (90, 60)
    assert np.abs(np.asarray(image, np.int16) - pixels).mean() < 3


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_a_page_turned_as_a_view_is_written_as_pillow_turns_it(rotation: int) -> None:
    pixels = _page()
    turned = turn_pixels(pixels, rotation)
    expected = np.asarray(turn(Image.fromarray(pixels), rotation))
    assert turned.shape == expected.shape
    written = np.asarray(_decoded(encode_pixels(turned, 90)), np.int16)
    assert np.abs(written - expected).mean() < 3


def test_a_cropped_view_of_wider_rows_is_written_without_the_padding() -> None:
    """A pixmap's rows may be wider than its image (its stride): the view is written."""
    rows = np.zeros((60, 100), np.uint8)
    rows[:, :90] = _page()
    image = _decoded(encode_pixels(rows[:, :90], 80))
    assert image.size == (90, 60)
    assert np.abs(np.asarray(image, np.int16) - _page()).mean() < 3


def test_pillow_images_keep_gray_and_colour_and_other_modes_become_rgb() -> None:
    assert _decoded(encode_image(Image.fromarray(_page()), 80)).mode == "L"
    red = Image.new("RGB", (40, 30), (200, 20, 20))
    decoded = _decoded(encode_image(red, 90))
    assert decoded.mode == "RGB"
    assert np.abs(np.asarray(decoded, np.int16) - (200, 20, 20)).mean() < 6
    assert _decoded(encode_image(Image.new("RGBA", (8, 8), (0, 0, 255, 128)), 80)).mode == "RGB"


def test_quality_is_obeyed() -> None:
    noise = np.random.default_rng(7).integers(0, 256, (120, 160), dtype=np.uint8)
    assert len(encode_pixels(noise, 30)) < len(encode_pixels(noise, 95)) / 2


def test_colour_is_subsampled_as_pillow_writes_it() -> None:
    """4:2:0, as Pillow writes colour: simplejpeg's own default, 4:4:4, doubles the bytes."""
    photo = np.random.default_rng(3).integers(0, 256, (64, 64, 3), dtype=np.uint8)
    ours = encode_image(Image.fromarray(photo), 80)
    pillows = io.BytesIO()
    Image.fromarray(photo).save(pillows, "JPEG", quality=80)
    assert len(ours) < 1.2 * len(pillows.getvalue())


@pytest.mark.parametrize("rotation", [45, 135, 359])
def test_a_rotation_that_is_no_quarter_turn_leaves_the_page_as_turn_does(rotation: int) -> None:
    pixels = _page()
    assert turn_pixels(pixels, rotation) is pixels
    assert np.array_equal(np.asarray(turn(Image.fromarray(pixels), rotation)), pixels)
