"""The base of every part of a profile: one definition validates the JSON file and is
what the rest of DocBatch reads.

A part is a frozen pydantic model: validated once at load time, then read as plain
attributes (its fields live in the instance ``__dict__``), and assigning to it raises
``AttributeError`` as a frozen dataclass does. ``patterns`` names the compiled values
(``cached_property``) a part derives from its phrases: they are compiled while the file
is validated, so a bad phrase is reported with the other errors of the file instead of
failing on a page.
"""

from __future__ import annotations

from typing import ClassVar, Self

from pydantic import BaseModel, ConfigDict, model_validator


class Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    patterns: ClassVar[tuple[str, ...]] = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: {name} cannot be set")

    @model_validator(mode="after")
    def _compiled(self) -> Self:
        for name in self.patterns:
            getattr(self, name)
        return self
