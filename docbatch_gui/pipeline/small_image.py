"""The small image of a text page (``page_plan.PageKind.TEXT_SMALL_IMAGE``): the page
JPEG at the profile's ``small_long_edge``, for a page Claude reads from its text and
whose image only has to show stamps and handwriting.

Made in the render child, beside the page's verdict, and stored as the page's
``small_image_sha`` blob: the engine then reads a few kilobytes per request instead
of decoding and resizing the full page in its own process (about 5 ms of CPU a page,
most of a batch job's bookkeeping). Only a page Claude will read gets one: an offline
job's child is given no profile and makes none. A page stored without one (before
this, or turned by OCR since) is shrunk when its request is built.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from PIL import Image

from docbatch_gui.pipeline.jpeg import encode_image
from docbatch_gui.pipeline.page_plan import PageKind, page_kind, small_size

if TYPE_CHECKING:
    from docbatch_gui.config.page_plan import PagePlan

#: the small image's JPEG quality: legible stamps and ink at a third of the bytes
SMALL_QUALITY = 80


def small_jpeg(jpeg: bytes, long_edge: int) -> bytes:
    """The page JPEG at ``long_edge`` px on its long side (``page_plan.small_size``);
    the page as it is when it is no larger."""
    known = jpeg_size(jpeg)
    if known is not None and small_size(long_edge, *known) == known:
        return jpeg  # made at this size already (by the render child): not opened
    with Image.open(io.BytesIO(jpeg)) as image:
        size = small_size(long_edge, *image.size)
        if size == image.size or size == (0, 0):
            return jpeg
        # Pillow's bilinear filter is widened to the reduction, so it is antialiased;
        # a third of LANCZOS's time (6 against 17 ms a page)
        small = image.convert("L").resize(size, Image.Resampling.BILINEAR)
    return encode_image(small, SMALL_QUALITY)


def planned_small_image(plan: PagePlan, text_layer: str, text: str, jpeg: bytes) -> bytes:
    """The small image of a rendered page the plan sends as text and a small image;
    empty for any other page (a full image, text only, or no image at all)."""
    if not jpeg or page_kind(plan, text_layer, text, True) is not PageKind.TEXT_SMALL_IMAGE:
        return b""
    return small_jpeg(jpeg, plan.small_long_edge)


#: the start-of-frame markers, which hold a JPEG's size (not DHT C4, JPG C8, DAC CC)
_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
#: markers without a length: TEM, the restart markers, SOI
_BARE = frozenset({0x01, *range(0xD0, 0xD9)})


def jpeg_size(data: bytes) -> tuple[int, int] | None:
    """A JPEG's (width, height) from its frame header, walking the segments before it:
    a few bytes read, where opening it with Pillow costs a tenth of a millisecond (a
    batch request's small image was opened three times, each to learn its size);
    None when the header is not found, for Pillow to say."""
    if data[:2] != b"\xff\xd8":
        return None
    at, end = 2, len(data)
    while at + 4 <= end:
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # a fill byte
            at += 1
            continue
        if marker in _BARE:
            at += 2
            continue
        if marker in _FRAMES:
            if at + 9 > end:
                return None
            height = int.from_bytes(data[at + 5 : at + 7], "big")
            width = int.from_bytes(data[at + 7 : at + 9], "big")
            return (width, height) if width and height else None
        length = int.from_bytes(data[at + 2 : at + 4], "big")
        if length < 2:
            return None
        at += 2 + length
    return None


def image_size(jpeg: bytes) -> tuple[int, int] | None:
    """A stored JPEG's size from its header (no decoding); None when it is not one
    (a blob damaged or cut short)."""
    size = jpeg_size(jpeg)
    if size is not None:
        return size
    try:
        with Image.open(io.BytesIO(jpeg)) as image:
            return image.size
    except (OSError, ValueError, Image.DecompressionBombError):
        return None
