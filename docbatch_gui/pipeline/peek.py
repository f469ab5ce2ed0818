"""How many pages a file has and how large its first page is, without rendering it.

The forecast before a run needs pages × size for files not prepared yet. Only the
file's page tree is read (PyMuPDF opens the cross-reference table; Pillow reads the
image header), never a page's content, so a hostile page cannot make it slow: what
renders content runs in a child with a deadline. ``None`` when the file cannot be
read this way; the forecast then counts one page and says so.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from docbatch_gui.pipeline.formats import stored_kind

log = logging.getLogger(__name__)

A4_POINTS = (595.0, 842.0)


@dataclass(frozen=True)
class PageCount:
    pages: int
    #: the first page's size in its own units (points for PDF, pixels for images)
    width: float = A4_POINTS[0]
    height: float = A4_POINTS[1]


def peek(path: Path, *, max_pages: int) -> PageCount | None:
    try:
        kind = stored_kind(path)
        if kind == "pdf":
            # deferred: PyMuPDF, 2.1 s to import
            import pymupdf

            with pymupdf.open(path) as document:
                count = document.page_count
                if count == 0:
                    return None
                rect = document.load_page(0).rect  # the page's dictionary, not its content
                return PageCount(min(count, max_pages), float(rect.width), float(rect.height))

        with Image.open(path) as image:
            frames = int(getattr(image, "n_frames", 1) or 1)
            return PageCount(min(frames, max_pages), float(image.width), float(image.height))
    except Exception as exc:  # a forecast never fails a file: rendering will say why
        log.debug("could not count the pages of %s: %s", path, exc)
        return None
