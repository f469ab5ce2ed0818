"""The profile's ``page_plan`` block: how its pages go to Claude (as images, as text,
or chosen per page), validated from the profile file. What a plan does to one page is
``pipeline.page_plan``'s.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, TypeAdapter, model_validator

from docbatch_gui.config.part import Part

PATCH_PX = 28  # one visual token per 28×28 px patch (build-with-claude/vision)


class PlanMode(StrEnum):
    IMAGE = "image"
    AUTO = "auto"
    TEXT = "text"


_TASKS = TypeAdapter(dict[str, int])


def _sorted_items(tasks: Any) -> Any:
    """The file's {task: edge} as (task, edge) pairs in task order; its errors name
    the task, as the file does."""
    if isinstance(tasks, Mapping):
        return tuple(sorted(_TASKS.validate_python(tasks).items()))
    return tasks


class PagePlan(Part):
    """The profile's ``page_plan`` block."""

    mode: PlanMode = PlanMode.IMAGE
    #: letters and digits a reliable text layer holds at least
    min_text_chars: int = Field(default=200, ge=0)
    #: share of the page raster images may cover
    max_image_cover: float = Field(default=0.5, ge=0, le=1)
    #: fields the offline extractor must read from the page's text
    min_fields: int = Field(default=1, ge=0)
    #: task → the long edge (px) its image must have to be legible, e.g.
    #: {"handwritten_numbers": 1008} in the file, kept as (task, edge) pairs in task
    #: order; empty: the tasks need no image on text pages
    image_tasks: Annotated[tuple[tuple[str, int], ...], BeforeValidator(_sorted_items)] = ()

    @model_validator(mode="after")
    def _sizes(self) -> PagePlan:
        for task, edge in self.image_tasks:
            if not 28 <= edge <= 2576:
                raise ValueError(
                    f"image_tasks.{task}: a long edge of {edge} px; give 28 to 2576 "
                    "(the largest the API reads without downscaling)"
                )
        return self

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
