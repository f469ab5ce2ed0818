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

from docbatch_gui.pipeline.page_plan import PageKind, page_kind, small_size

if TYPE_CHECKING:
    from docbatch_gui.config.page_plan import PagePlan

#: the small image's JPEG quality: legible stamps and ink at a third of the bytes
SMALL_QUALITY = 80


def small_jpeg(jpeg: bytes, long_edge: int) -> bytes:
    """The page JPEG at ``long_edge`` px on its long side (``page_plan.small_size``);
    the page as it is when it is no larger."""
    with Image.open(io.BytesIO(jpeg)) as image:
        size = small_size(long_edge, *image.size)
        if size == image.size or size == (0, 0):
            return jpeg
        buffer = io.BytesIO()
        # Pillow's bilinear filter is widened to the reduction, so it is antialiased;
        # a third of LANCZOS's time (6 against 17 ms a page)
        small = image.convert("L").resize(size, Image.Resampling.BILINEAR)
        small.save(buffer, "JPEG", quality=SMALL_QUALITY)
    return buffer.getvalue()


def planned_small_image(plan: PagePlan, text_layer: str, text: str, jpeg: bytes) -> bytes:
    """The small image of a rendered page the plan sends as text and a small image;
    empty for any other page (a full image, text only, or no image at all)."""
    if not jpeg or page_kind(plan, text_layer, text, True) is not PageKind.TEXT_SMALL_IMAGE:
        return b""
    return small_jpeg(jpeg, plan.small_long_edge)


def image_size(jpeg: bytes) -> tuple[int, int] | None:
    """A stored JPEG's size from its header (no decoding); None when it is not one
    (a blob damaged or cut short)."""
    try:
        with Image.open(io.BytesIO(jpeg)) as image:
            return image.size
    except (OSError, ValueError, Image.DecompressionBombError):
        return None
