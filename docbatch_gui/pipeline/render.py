"""Render pages to the size Claude reads without resizing, plus thumbnails and text.

This runs inside an isolated child process (see ``isolate.py``). It streams one
result per page, so memory stays bounded on a 2,000-page file and the parent can
save pages as they arrive.

Size: the API downscales anything over ~1.15 megapixels or a 1568 px long edge, so
rendering larger only costs time and bytes. Grayscale JPEG through Pillow is the
fastest legible encoding (``bench/prepare.py`` measures it).
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from PIL import Image, ImageOps

from docbatch_gui.domain.errors import UnsupportedInput
from docbatch_gui.domain.messages import Message
from docbatch_gui.pipeline.child_bounds import is_out_of_memory
from docbatch_gui.pipeline.jpeg import encode_image, encode_pixels
from docbatch_gui.pipeline.opening import (
    check_images,
    open_image,
    open_pdf,
    short_reason,
    unsupported,
)
from docbatch_gui.pipeline.orientation import turn_pixels
from docbatch_gui.pipeline.page_layer import read_layer
from docbatch_gui.pipeline.words import Word

MAX_PIXELS = 1_150_000
MAX_LONG_EDGE = 1568
THUMB_LONG_EDGE = 200
STORE_SHRINK_EVERY = 64


@dataclass(frozen=True)
class PrepareTask:
    """Everything a child needs; plain values so it crosses the process boundary."""

    source: str  # a local path to the bytes (usually the blob)
    file_name: str  # the operator's name, for messages
    kind: str  # pdf | tiff | jpeg | png (from formats.check_file)
    jpeg_quality: int = 80
    max_pages: int = 10_000
    max_image_pixels: int = 200_000_000
    first_page: int = 1  # 1-based, inclusive
    last_page: int | None = None  # inclusive; None = to the end
    #: the profile whose ``page_plan`` judges each page's text layer; empty: not judged
    profile_path: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class RenderedPage:
    """One page's artifacts. The JPEG bytes travel to the parent over the child's pipe
    (no temporary files: nothing to clean up after a kill)."""

    page_no: int
    width: int
    height: int
    image: bytes
    thumb: bytes  # empty except on a file's first page; see make_thumbnail
    text: str
    #: why the page has no image (it could not be rendered in time); empty otherwise
    error: Message | None = None
    #: clockwise degrees the image was turned, by the direction of its text lines
    rotation: int = 0
    rotation_confidence: float = 0.0
    orientation_note: Message | None = None
    orientation_uncertain: bool = False
    #: the text layer's words with their boxes, upright (``words.py``)
    words: list[Word] = field(default_factory=list)
    #: the same words as their stored blob (``words.encode``), as the child sends them
    words_blob: bytes = b""
    #: share of the page embedded raster images cover (1.0: an image file, a scan)
    image_cover: float = 0.0
    #: the text layer's verdict (``page_plan.TextLayer``), set by the render child
    text_layer: str = ""
    #: the page at the request plan's small size (``pipeline.small_image``), made by
    #: the render child only for a page Claude will read as text and a small image
    small_image: bytes = b""
    #: the text the page is sent with when its text layer holds a table of goods,
    #: laid out as printed (``pipeline.table_text``; None: it holds none), judged by
    #: the render child with the line fields ``table_key`` names (empty: not judged)
    table_layout: str | None = None
    table_key: str = ""


def target_size(width: float, height: float) -> tuple[int, int]:
    """Largest size within both API limits, keeping the aspect ratio; never upscale
    more than needed for a small source (a 200 px photo stays small)."""
    if width <= 0 or height <= 0:
        return 1, 1
    scale = min(math.sqrt(MAX_PIXELS / (width * height)), MAX_LONG_EDGE / max(width, height))
    return max(1, round(width * scale)), max(1, round(height * scale))


def _encode(image: Any, quality: int, *, with_thumb: bool) -> tuple[bytes, bytes]:
    """The page JPEG, and for a file's first page its thumbnail (the queue shows it).

    Other pages get theirs on demand (``make_thumbnail``): a 2,000-page file then
    does not pay for 1,999 thumbnails nobody may look at.
    """
    return encode_image(image, quality), _thumb_jpeg(image) if with_thumb else b""


def _thumb_jpeg(image: Any) -> bytes:
    """An integer box reduction: several times cheaper than a resampling resize and
    just as clean at this size."""
    factor = max(1, round(max(image.size) / THUMB_LONG_EDGE))
    return encode_image(image.reduce(factor), 70)


def make_thumbnail(page_jpeg: bytes) -> bytes:
    """A page's thumbnail from its stored JPEG; decodes at reduced scale (DCT scaling)."""
    with Image.open(io.BytesIO(page_jpeg)) as image:
        scale = THUMB_LONG_EDGE / max(image.size)
        image.draft("L", (int(image.width * scale), int(image.height * scale)))
        return _thumb_jpeg(image.convert("L"))


def render_pages(
    task: PrepareTask,
    on_count: Callable[[int], None],
    before_page: Callable[[int], None] = lambda page_no: None,
) -> Iterator[RenderedPage]:
    """Yield each rendered page in order; raise UnsupportedInput on bad input.
    ``before_page(page_no)`` is called as each page starts (a test's seam)."""
    if task.kind == "pdf":
        yield from _render_pdf(task, on_count, before_page)
    else:
        yield from _render_image(task, on_count, before_page)


def page_text(task: PrepareTask, page_no: int) -> str:
    """The text layer of one page, without rendering it: what is kept of a page the
    renderer could not finish. Images have no text layer."""
    if task.kind != "pdf":
        return ""
    document = open_pdf(task)
    try:
        if not 1 <= page_no <= document.page_count:
            return ""
        return str(document.load_page(page_no - 1).get_text("text")).strip()
    finally:
        document.close()


def _page_range(task: PrepareTask, count: int) -> range:
    last = count if task.last_page is None else min(task.last_page, count)
    return range(max(1, task.first_page), last + 1)


def _render_pdf(
    task: PrepareTask, on_count: Callable[[int], None], before_page: Callable[[int], None]
) -> Iterator[RenderedPage]:
    # deferred: PyMuPDF, 2.1 s to import
    import pymupdf

    document = open_pdf(task)
    try:
        on_count(document.page_count)
        for page_no in _page_range(task, document.page_count):
            before_page(page_no)
            try:
                page = document.load_page(page_no - 1)
                check_images(task, page, page_no)
                rect = page.rect
                width, height = target_size(rect.width, rect.height)
                matrix = pymupdf.Matrix(width / rect.width, height / rect.height)
                # one display list, run twice: to pixels and to text (parsing the page
                # once instead of twice saves about a tenth of the page's time)
                shown = page.get_displaylist()
                pixmap = shown.get_pixmap(matrix=matrix, colorspace=pymupdf.csGRAY, alpha=False)
                layer = read_layer(page, shown)
                del shown
            except UnsupportedInput:
                raise
            except Exception as exc:
                if is_out_of_memory(exc):  # the child's memory cap, not a damaged page
                    raise MemoryError(str(exc)) from None
                raise unsupported(
                    task,
                    f"page {page_no} is damaged and cannot be rendered ({short_reason(exc, task)})",
                    "Get a fresh copy from its source, or re-save it with a PDF tool.",
                    "pdf_page_damaged",
                    page=page_no,
                    detail=short_reason(exc, task),
                ) from None
            orientation = layer.orientation
            jpeg, thumb, size = _encode_pixmap(
                pixmap, orientation.rotation, task.jpeg_quality, with_thumb=page_no == 1
            )
            del pixmap
            yield RenderedPage(
                page_no,
                *size,
                jpeg,
                thumb,
                layer.text.strip(),
                rotation=orientation.rotation,
                rotation_confidence=orientation.confidence,
                orientation_note=orientation.note,
                orientation_uncertain=orientation.uncertain,
                words=layer.words,
                words_blob=layer.words_blob,
                image_cover=layer.cover,
            )
            del page
            if page_no % STORE_SHRINK_EVERY == 0:
                # MuPDF caches parsed objects up to 256 MB; empty the cache now and
                # then so a 3,000-page file stays as small as a 100-page one.
                pymupdf.TOOLS.store_shrink(100)
    finally:
        document.close()


def _encode_pixmap(
    pixmap: Any, rotation: int, quality: int, *, with_thumb: bool
) -> tuple[bytes, bytes, tuple[int, int]]:
    """The page JPEG (and thumbnail) of a gray pixmap turned by ``rotation``, and its
    size. The encoder reads the pixmap's own memory (``samples_mv``), not a copy of it
    (``samples``: a megabyte a page, 0.2 ms), turned as a view; the arrays that map it
    end with this call, before the pixmap is freed (PyMuPDF cannot release a view
    still mapped)."""
    # deferred: numpy (70 ms), which the window importing this module never needs
    import numpy as np

    rows = np.frombuffer(pixmap.samples_mv, np.uint8).reshape(pixmap.height, pixmap.stride)
    pixels = turn_pixels(rows[:, : pixmap.width], rotation)
    jpeg = encode_pixels(pixels, quality)
    thumb = _thumb_jpeg(Image.fromarray(pixels)) if with_thumb else b""
    size = pixels.shape[1], pixels.shape[0]
    del rows, pixels
    return jpeg, thumb, size


def _render_image(
    task: PrepareTask, on_count: Callable[[int], None], before_page: Callable[[int], None]
) -> Iterator[RenderedPage]:
    with open_image(task) as source:
        frames = getattr(source, "n_frames", 1)
        if frames > task.max_pages:
            raise unsupported(
                task,
                f"the image has {frames} pages, over the limit of {task.max_pages} (MAX_PAGES)",
                "Split it into smaller files, or raise MAX_PAGES.",
                "image_too_many_pages",
                count=frames,
                max=task.max_pages,
            )
        on_count(frames)
        for page_no in _page_range(task, frames):
            before_page(page_no)
            try:
                source.seek(page_no - 1)
                if task.kind == "jpeg":
                    source.draft("L", target_size(*source.size))  # DCT scaling: cheap
                    frame = ImageOps.exif_transpose(source)
                else:
                    frame = source
                gray = frame.convert("L")
                if gray.width * gray.height > MAX_PIXELS or max(gray.size) > MAX_LONG_EDGE:
                    gray = gray.resize(
                        target_size(*gray.size), Image.Resampling.BILINEAR, reducing_gap=2.0
                    )
            except MemoryError:  # the child's memory cap, not a damaged page
                raise
            except Exception as exc:
                raise unsupported(
                    task,
                    f"page {page_no} of the image is damaged ({short_reason(exc, task)})",
                    "Get a fresh copy from its source, or re-save it with an image tool.",
                    "image_page_damaged",
                    page=page_no,
                    detail=short_reason(exc, task),
                ) from None
            jpeg, thumb = _encode(gray, task.jpeg_quality, with_thumb=page_no == 1)
            yield RenderedPage(page_no, gray.width, gray.height, jpeg, thumb, "", image_cover=1.0)
