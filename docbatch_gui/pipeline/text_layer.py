"""The prepare step's verdict on a page's own text layer (``page_plan.TextLayer``):
whether it can stand in for the page's image in a request.

Apart from ``page_plan`` because the verdict runs the offline field extractor, which
reads the profile, and the profile holds a ``page_plan.PagePlan``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docbatch_gui.pipeline.fields import extract_fields
from docbatch_gui.pipeline.page_plan import TextLayer, key_fields, letters
from docbatch_gui.pipeline.textutil import split_lines

if TYPE_CHECKING:
    from docbatch_gui.config.profile import Profile


def judge_text_layer(text: str, image_cover: float, profile: Profile) -> TextLayer:
    """Whether the page's own text layer can stand in for its image: enough text, no
    raster images over much of the page, and text the offline extractor reads key
    fields from (number, date, amount; a layer with a broken font encoding yields
    none). Runs in the render child: it is CPU work the parent's event loop should
    not do (a few milliseconds a page)."""
    plan = profile.page_plan
    if not text.strip():
        return TextLayer.NONE
    if image_cover > plan.max_image_cover:
        return TextLayer.IMAGES
    if letters(text) < plan.min_text_chars:
        return TextLayer.SHORT
    if plan.min_fields:
        result = extract_fields(split_lines(text), [0], key_fields(profile))
        if sum(v is not None for v in result.values.values()) < plan.min_fields:
            return TextLayer.UNREADABLE
    return TextLayer.RELIABLE
