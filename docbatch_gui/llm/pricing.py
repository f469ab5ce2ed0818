"""What a request costs, from token counts and a price table kept as data.

Estimates are made before sending (no network: image tokens ≈ w·h/750, text ≈ chars/3
for Cyrillic-heavy text, the prompt counted once per request); actual costs from the
usage each answer reports, cache reads and writes priced apart.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from docbatch_gui.resources import resources_dir

TOKENS_PER_MILLION = 1_000_000
OUTPUT_TOKENS_PER_PAGE = 250  # a generous answer per page: documents, fields, confidences
OUTPUT_TOKENS_PER_REQUEST = 100


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_read_tokens + other.cache_read_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
        )

    @classmethod
    def from_api(cls, usage: object) -> Usage:
        """From the SDK's ``Usage`` (or a dict of the same keys)."""

        def get(name: str) -> int:
            value = usage.get(name) if isinstance(usage, dict) else getattr(usage, name, None)
            return int(value or 0)

        return cls(
            get("input_tokens"),
            get("output_tokens"),
            get("cache_read_input_tokens"),
            get("cache_creation_input_tokens"),
        )


@dataclass(frozen=True)
class Prices:
    input: float
    output: float
    cache_write: float
    cache_read: float


@dataclass(frozen=True)
class PriceTable:
    models: dict[str, Prices]
    batch_discount: float

    def prices(self, model: str) -> Prices | None:
        """Exact model id, else the longest known id it starts with (dated snapshots)."""
        if model in self.models:
            return self.models[model]
        matches = [m for m in self.models if model.startswith(m)]
        return self.models[max(matches, key=len)] if matches else None

    def cost(self, model: str, usage: Usage, *, batch: bool = False) -> float | None:
        prices = self.prices(model)
        if prices is None:
            return None
        total = (
            usage.input_tokens * prices.input
            + usage.output_tokens * prices.output
            + usage.cache_write_tokens * prices.cache_write
            + usage.cache_read_tokens * prices.cache_read
        ) / TOKENS_PER_MILLION
        return round(total * (self.batch_discount if batch else 1.0), 6)


def pricing_path() -> Path:
    return resources_dir() / "pricing.json"


@cache
def load_prices(path: Path | None = None) -> PriceTable:
    data = json.loads((path or pricing_path()).read_text(encoding="utf-8"))
    return PriceTable(
        {name: Prices(**values) for name, values in data["models"].items()},
        float(data["batch_discount"]),
    )


def image_tokens(width: int, height: int) -> int:
    return (width * height + 749) // 750


def estimate_usage(
    image_sizes: list[tuple[int, int]], text_chars: int, prompt_chars: int, pages: int
) -> Usage:
    """An upper-bound guess for one request, before sending: no cache hits assumed."""
    input_tokens = (
        sum(image_tokens(w, h) for w, h in image_sizes) + text_chars // 3 + prompt_chars // 4
    )
    output_tokens = OUTPUT_TOKENS_PER_REQUEST + OUTPUT_TOKENS_PER_PAGE * pages
    return Usage(input_tokens=input_tokens, output_tokens=output_tokens)
