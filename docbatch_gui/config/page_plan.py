"""The profile's ``page_plan`` block: how its pages go to Claude (as images, as text,
or chosen per page), compiled from the profile file. What a plan does to one page is
``pipeline.page_plan``'s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

PATCH_PX = 28  # one visual token per 28×28 px patch (build-with-claude/vision)


class PlanMode(StrEnum):
    IMAGE = "image"
    AUTO = "auto"
    TEXT = "text"


@dataclass(frozen=True)
class PagePlan:
    """The profile's ``page_plan`` block, compiled."""

    mode: PlanMode = PlanMode.IMAGE
    min_text_chars: int = 200  # letters and digits a reliable text layer holds at least
    max_image_cover: float = 0.5  # share of the page raster images may cover
    min_fields: int = 1  # fields the offline extractor must read from the page's text
    #: task → the long edge (px) its image must have to be legible, e.g.
    #: {"handwritten_numbers": 1008}; empty: the tasks need no image on text pages
    image_tasks: tuple[tuple[str, int], ...] = ()

    @property
    def needs_image(self) -> bool:
        return bool(self.image_tasks)

    @property
    def small_long_edge(self) -> int:
        """The small image's long edge: the largest any task needs, in whole patches."""
        if not self.image_tasks:
            return 0
        need = max(edge for _task, edge in self.image_tasks)
        return math.ceil(need / PATCH_PX) * PATCH_PX
