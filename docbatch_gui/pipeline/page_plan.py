"""The per-page request plan: how each page goes to Claude, the cheapest way that still
reads it right.

A born-digital page's text layer already holds every character: sending its
1,500-token image as well mostly pays for what the text says. A scan has no text
layer (or an OCR layer over a full-page picture), so its image is what Claude reads.
The prepare step judges each page's text layer once (``text_layer.judge_text_layer``,
stored on the page); request building then picks the page's *kind* from that verdict and
the profile's ``page_plan``:

- ``image``: every page as a full image with its text (the behaviour before plans);
- ``auto``: a page with a reliable text layer goes as text, plus a small image when
  the profile's tasks need one (stamps, handwritten numbers); any other page as a
  full image;
- ``text``: every page with any text (its own layer or OCR) as text only; a page
  without text still goes as a full image, there being nothing else to read.

The small image's size follows the documented image token formula (visual tokens
⌈w/28⌉·⌈h/28⌉, docs: build-with-claude/vision): its long edge is the largest the
profile's image tasks ask for, rounded up to whole 28-px patches, so it is never
below what those tasks need and never pays for a partial patch.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any

from docbatch_gui.config.page_plan import PagePlan, PlanMode

if TYPE_CHECKING:
    from docbatch_gui.config.profile import Profile
    from docbatch_gui.domain.models import Page


class TextLayer(StrEnum):
    """The prepare step's verdict on a page's own text layer."""

    UNJUDGED = ""  # pages stored before plans existed, or pages without a verdict yet
    RELIABLE = "reliable"
    NONE = "none"  # no text layer (an image file, a scan)
    SHORT = "short"  # too little text to stand for the page
    IMAGES = "images"  # raster images cover much of the page (a scan with an OCR layer)
    UNREADABLE = "unreadable"  # the offline extractor reads no field from it


class PageKind(StrEnum):
    """How one page goes into a request."""

    IMAGE = "image"  # the full page image (and its text, when it has some)
    TEXT_SMALL_IMAGE = "text+small_image"  # the text, and a small image for stamps/ink
    TEXT = "text"  # the text only


def letters(text: str) -> int:
    return sum(ch.isalnum() for ch in text)


def image_cover(page: Any, infos: list[dict[str, Any]] | None = None) -> float:
    """The share of the page its embedded raster images cover (their boxes clipped to
    the page, overlaps counted once per image; capped at 1). A scan, even one with an
    OCR text layer, is a page-sized picture: its text layer is not the document's own
    text. A logo or a signature covers a few percent.

    ``infos``: the page's image blocks when the caller has them already (a text page
    made with ``TEXT_PRESERVE_IMAGES``, its ``extractIMGINFO()``)."""
    # deferred: PyMuPDF, 2.1 s to import
    import pymupdf

    if infos is None:
        try:
            infos = page.get_image_info()
        except Exception:  # a damaged image list: the text layer is judged on its own
            return 0.0
    if not infos:
        return 0.0
    area = abs(page.rect)
    if not area:
        return 0.0
    frames = [page.rect, page.rect * page.derotation_matrix]
    covered = 0.0
    for info in infos:
        box = pymupdf.Rect(info.get("bbox", (0, 0, 0, 0)))
        covered += max(abs(box & frame) for frame in frames)
    return round(min(1.0, covered / area), 3)


#: the field kinds the verdict asks the offline extractor for: the key ones (reading
#: every field of the profile costs ten times as much, on every page of every file)
KEY_KINDS = ("number", "date", "amount")
_key_profile: list[tuple[Profile, Profile]] = []


def key_fields(profile: Profile) -> Profile:
    """``profile`` with only its fields of ``KEY_KINDS``, made once per profile."""
    if not _key_profile or _key_profile[0][0] is not profile:
        keys = tuple(f for f in profile.fields if f.kind in KEY_KINDS) or profile.fields
        _key_profile[:] = [(profile, profile.model_copy(update={"fields": keys}))]
    return _key_profile[0][1]


def page_kind(plan: PagePlan, text_layer: str, text: str, has_image: bool) -> PageKind:
    """The kind of one page under ``plan``. A page the renderer gave up has no image
    to send: it stays ``image`` here and goes with the note that it has none."""
    if not has_image:
        return PageKind.IMAGE
    if plan.mode is PlanMode.IMAGE:
        return PageKind.IMAGE
    if plan.mode is PlanMode.TEXT:
        return PageKind.TEXT if text.strip() else PageKind.IMAGE
    if text_layer != TextLayer.RELIABLE:
        return PageKind.IMAGE
    return PageKind.TEXT_SMALL_IMAGE if plan.needs_image else PageKind.TEXT


def kind_of(plan: PagePlan, page: Page) -> PageKind:
    """How ``plan`` sends a stored page. Only the file's own text layer can be judged
    reliable: a page whose text came from OCR goes as an image."""
    layer = page.text_layer if page.ocr_engine is None else ""
    return page_kind(plan, layer, page.text, bool(page.image_sha))


def small_size(long_edge_px: int, width: int, height: int) -> tuple[int, int]:
    """The small image's size for a page of ``width``×``height``: ``long_edge_px``
    (``PagePlan.small_long_edge``; never more than the page has), aspect ratio kept."""
    long_edge = max(width, height, 1)
    target = min(long_edge_px, long_edge)
    if target <= 0:
        return 0, 0
    scale = target / long_edge
    return max(1, round(width * scale)), max(1, round(height * scale))


def planned_size(plan: PagePlan, kind: PageKind, width: int, height: int) -> tuple[int, int]:
    """The image size a page of this kind is sent at ((0, 0): no image)."""
    if kind is PageKind.IMAGE:
        return width, height
    if kind is PageKind.TEXT_SMALL_IMAGE:
        return small_size(plan.small_long_edge, width, height)
    return 0, 0
