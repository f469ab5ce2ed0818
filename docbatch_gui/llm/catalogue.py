"""The model catalogue: one place for what each Claude model costs and accepts.

Prices, thinking and effort rules, the minimum cacheable prefix and image limits
change with every model release, so they live in
``docbatch_gui/resources/models.json``, not in code. Request building asks the
catalogue which ``thinking`` and ``effort`` to send, and cost reading asks it for
prices. There are no prefix guesses: a model id that is not listed is refused with
the list of known ones.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.resources import resources_dir

TOKENS_PER_MILLION = 1_000_000
PATCH_PX = 28  # one visual token per 28×28 px patch
#: the effort DocBatch asks for when the setting is "auto": the cheapest that reads
#: a page well (extraction is reading, not reasoning)
AUTO_EFFORT = "low"

ForcedToolRule = Literal["always", "without_thinking", "never"]


class UnknownModel(ConfigError):
    """A model id the catalogue does not list."""


@dataclass(frozen=True)
class Usage:
    """Tokens of one or more answers, as ``usage`` reports them.

    ``thinking_tokens`` are part of ``output_tokens`` (billed as output), kept apart
    so the operator sees what thinking cost.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    thinking_tokens: int = 0
    cache_write_1h_tokens: int = 0  # the part of cache_write_tokens written for 1 hour

    def __add__(self, other: Usage) -> Usage:
        return Usage(*(getattr(self, n) + getattr(other, n) for n in self.__dataclass_fields__))

    @property
    def prompt_tokens(self) -> int:
        return self.input_tokens + self.cache_read_tokens + self.cache_write_tokens

    @classmethod
    def of(cls, record: object) -> Usage:
        """The usage a stored request record paid for."""
        return cls(*(int(getattr(record, n, 0) or 0) for n in cls.__dataclass_fields__))

    def as_fields(self) -> dict[str, int]:
        """As a request record's keyword arguments."""
        return {n: getattr(self, n) for n in self.__dataclass_fields__}

    @classmethod
    def from_api(cls, usage: object) -> Usage:
        """From the SDK's ``Usage`` (or a dict of the same keys)."""

        def get(source: object, name: str) -> Any:
            if isinstance(source, dict):
                return source.get(name)
            return getattr(source, name, None)

        details = get(usage, "output_tokens_details")
        creation = get(usage, "cache_creation")
        return cls(
            int(get(usage, "input_tokens") or 0),
            int(get(usage, "output_tokens") or 0),
            int(get(usage, "cache_read_input_tokens") or 0),
            int(get(usage, "cache_creation_input_tokens") or 0),
            int(get(details, "thinking_tokens") or 0) if details is not None else 0,
            int(get(creation, "ephemeral_1h_input_tokens") or 0) if creation is not None else 0,
        )


@dataclass(frozen=True)
class Prices:
    """USD per million tokens."""

    input: float
    output: float
    cache_write_5m: float
    cache_write_1h: float
    cache_read: float


@dataclass(frozen=True)
class ThinkingRules:
    default: str  # what the model does when ``thinking`` is not sent
    off: str | None  # the ``thinking.type`` that turns it off; None: always on
    off_efforts: tuple[str, ...]  # efforts at which ``off`` is accepted
    refused: tuple[str, ...]  # ``thinking.type`` values the API refuses

    @property
    def can_turn_off(self) -> bool:
        return self.off is not None


@dataclass(frozen=True)
class ImageTier:
    max_long_edge: int
    max_tokens: int


@dataclass(frozen=True)
class ModelInfo:
    id: str
    name: str
    status: str  # current | legacy
    prices: Prices
    thinking: ThinkingRules
    efforts: tuple[str, ...]
    default_effort: str | None
    forced_tool_choice: ForcedToolRule
    min_cache_tokens: int
    context_window: int
    max_output_tokens: int
    image_tier: ImageTier
    max_images: int
    long_context_above: int | None = None
    long_context_prices: Prices | None = None
    aliases: tuple[str, ...] = field(default=())
    #: the prompt cache lifetimes the model takes ("5m", and "1h" at a higher write
    #: price); build-with-claude/prompt-caching
    cache_ttls: tuple[str, ...] = ("5m",)

    def prices_for(self, prompt_tokens: int) -> Prices:
        """A request's prompt size decides the band for all of its tokens."""
        above = self.long_context_above
        if above is not None and self.long_context_prices and prompt_tokens > above:
            return self.long_context_prices
        return self.prices

    def image_tokens(self, width: int, height: int) -> int:
        """Visual tokens of one image: ⌈w/28⌉·⌈h/28⌉ after the API's own downscale
        to the model's tier (long edge and token cap)."""
        tier = self.image_tier
        scale = min(1.0, tier.max_long_edge / max(width, height, 1))
        w, h = width * scale, height * scale
        while math.ceil(w / PATCH_PX) * math.ceil(h / PATCH_PX) > tier.max_tokens:
            w, h = w * 0.98, h * 0.98
        return math.ceil(w / PATCH_PX) * math.ceil(h / PATCH_PX)


@dataclass(frozen=True)
class Catalogue:
    models: dict[str, ModelInfo]
    default_model: str
    batch_discount: float
    checked: str

    def get(self, model: str) -> ModelInfo | None:
        if model in self.models:
            return self.models[model]
        return next((m for m in self.models.values() if model in m.aliases), None)

    def model(self, model: str) -> ModelInfo:
        info = self.get(model)
        if info is None:
            raise UnknownModel(
                f"Unknown Claude model {model!r}. Known models: {', '.join(self.models)} "
                f"(docbatch_gui/resources/models.json, checked {self.checked}). Set "
                "ANTHROPIC_MODEL to one of them, or add the model to the catalogue with its "
                "prices and rules."
            )
        return info

    def cost(self, model: str, usage: Usage, *, batch: bool = False) -> float | None:
        """USD for ``usage``; None for a model the catalogue does not know."""
        info = self.get(model)
        if info is None:
            return None
        prices = info.prices_for(usage.prompt_tokens)
        write_1h = min(usage.cache_write_1h_tokens, usage.cache_write_tokens)
        total = (
            usage.input_tokens * prices.input
            + usage.output_tokens * prices.output
            + (usage.cache_write_tokens - write_1h) * prices.cache_write_5m
            + write_1h * prices.cache_write_1h
            + usage.cache_read_tokens * prices.cache_read
        ) / TOKENS_PER_MILLION
        return round(total * (self.batch_discount if batch else 1.0), 6)


def catalogue_path() -> Path:
    return resources_dir() / "models.json"


def _prices(data: dict[str, Any]) -> Prices:
    return Prices(
        float(data["input"]),
        float(data["output"]),
        float(data["cache_write_5m"]),
        float(data["cache_write_1h"]),
        float(data["cache_read"]),
    )


def _model(model_id: str, data: dict[str, Any], tiers: dict[str, ImageTier]) -> ModelInfo:
    thinking = data["thinking"]
    long_context = data.get("long_context")
    return ModelInfo(
        id=model_id,
        name=data["name"],
        status=data["status"],
        prices=_prices(data["prices"]),
        thinking=ThinkingRules(
            thinking["default"],
            thinking["off"],
            tuple(thinking["off_efforts"]),
            tuple(thinking["refused"]),
        ),
        efforts=tuple(data["efforts"]),
        default_effort=data["default_effort"],
        forced_tool_choice=data["forced_tool_choice"],
        min_cache_tokens=int(data["min_cache_tokens"]),
        context_window=int(data["context_window"]),
        max_output_tokens=int(data["max_output_tokens"]),
        image_tier=tiers[data["image_tier"]],
        max_images=int(data["max_images"]),
        long_context_above=int(long_context["above_prompt_tokens"]) if long_context else None,
        long_context_prices=_prices(long_context) if long_context else None,
        aliases=tuple(data.get("aliases", ())),
        cache_ttls=tuple(data.get("cache_ttls", ("5m",))),
    )


@cache
def load_catalogue(path: Path | None = None) -> Catalogue:
    """Read and check the catalogue once; a broken file is one clear ConfigError."""
    source = path or catalogue_path()
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
        tiers = {
            name: ImageTier(int(t["max_long_edge"]), int(t["max_tokens"]))
            for name, t in data["image_tiers"].items()
        }
        models = {mid: _model(mid, m, tiers) for mid, m in data["models"].items()}
        catalogue = Catalogue(
            models, data["default_model"], float(data["batch_discount"]), data["checked"]
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"The model catalogue {source} is broken: {exc!r}") from exc
    catalogue.model(catalogue.default_model)  # the default must be listed
    for info in models.values():
        for effort in (*info.thinking.off_efforts, info.default_effort):
            if effort is not None and effort not in info.efforts:
                raise ConfigError(
                    f"The model catalogue {source}: {info.id} lists an effort it refuses: {effort}"
                )
    return catalogue
