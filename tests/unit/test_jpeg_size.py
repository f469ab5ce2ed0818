"""A JPEG's size read from its frame header is Pillow's, for every kind of JPEG the
pages and photos come as; a header it cannot walk is left to Pillow."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from docbatch_gui.llm.requests import fit_image
from docbatch_gui.pipeline.small_image import image_size, jpeg_size, small_jpeg


def _jpeg(mode: str, size: tuple[int, int], **options: object) -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, size, 128 if mode == "L" else None).save(buffer, "JPEG", **options)
    return buffer.getvalue()


KINDS = [
    _jpeg("RGB", (595, 842)),
    _jpeg("L", (842, 595), quality=80),
    _jpeg("RGB", (300, 200), progressive=True),
    _jpeg("CMYK", (17, 31)),
    _jpeg("RGB", (64, 48), exif=Image.Exif().tobytes(), dpi=(300, 300)),
    _jpeg("RGB", (1, 1), optimize=True, icc_profile=b"\0" * 600),
]


@pytest.mark.parametrize("data", KINDS)
def test_the_header_gives_pillows_size(data: bytes) -> None:
    with Image.open(io.BytesIO(data)) as image:
        assert jpeg_size(data) == image.size == image_size(data)


@pytest.mark.parametrize("data", [b"", b"\xff\xd8", b"not a jpeg", KINDS[0][:40], b"\xff\xd8\xff"])
def test_what_is_not_a_whole_header_is_none(data: bytes) -> None:
    assert jpeg_size(data) is None
    assert image_size(data) is None  # and Pillow cannot read it either


def test_an_image_within_limits_goes_as_it_is() -> None:
    page = KINDS[0]
    assert fit_image(page, max_side=2000, max_base64=5 * 2**20) == (page, 595, 842)
    assert small_jpeg(page, 842) is page
    shrunk, width, height = fit_image(page, max_side=421, max_base64=5 * 2**20)
    assert height == 421 and jpeg_size(shrunk) == (width, height)
    small = small_jpeg(page, 421)
    assert small is not page and max(jpeg_size(small) or ()) == 421
