"""What requests will cost, before they are sent.

An estimate starts from a *basis*: the tokens of the shared prefix (system prompt
and schema) and how far the offline formula is from the real count for a page.
With a key, the basis comes from the API's free ``count_tokens`` (one call for the
prefix, one for a representative page; cached per profile and model by the caller).
Without one the formula stands alone: image tokens ⌈w/28⌉·⌈h/28⌉ after the model's
own downscale, text about four characters a token. Actual costs never come from
here: they are read from each answer's ``usage``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from docbatch_gui.llm.catalogue import Catalogue, ModelInfo, Usage
from docbatch_gui.llm.thinking import ThinkingChoice

OUTPUT_TOKENS_PER_PAGE = 250  # a generous answer per page: documents and fields
OUTPUT_TOKENS_PER_REQUEST = 100
CHARS_PER_TOKEN = 3.5  # mixed Russian and English text, on the newer tokenizer
#: what structured outputs add to the prompt (the schema's injected instructions)
FORMAT_OVERHEAD_TOKENS = 300


@dataclass(frozen=True)
class EstimateBasis:
    prefix_tokens: int  # system blocks and schema: the cacheable prefix
    page_factor: float = 1.0  # real page tokens / formula page tokens
    source: str = "formula"  # formula | count_tokens

    def as_dict(self) -> dict[str, object]:
        return {
            "prefix_tokens": self.prefix_tokens,
            "page_factor": self.page_factor,
            "source": self.source,
        }


@dataclass(frozen=True)
class PlannedRequest:
    """What an estimate needs of one request: its images and text, nothing else."""

    image_sizes: Sequence[tuple[int, int]]
    text_chars: int
    pages: int


def text_tokens(chars: int) -> int:
    return int(chars / CHARS_PER_TOKEN) + 1 if chars else 0


def formula_prefix(system_text_chars: int) -> EstimateBasis:
    return EstimateBasis(text_tokens(system_text_chars) + FORMAT_OVERHEAD_TOKENS)


def page_tokens(model: ModelInfo, request: PlannedRequest) -> int:
    return sum(model.image_tokens(w, h) for w, h in request.image_sizes) + text_tokens(
        request.text_chars
    )


def request_usage(
    model: ModelInfo,
    choice: ThinkingChoice,
    basis: EstimateBasis,
    request: PlannedRequest,
    *,
    first: bool,
) -> Usage:
    """One request's usage: the first of a run writes the cached prefix (when it is
    long enough to be cached at all), the later ones read it."""
    own = int(page_tokens(model, request) * basis.page_factor)
    thinking = choice.guessed_thinking_tokens()
    output = OUTPUT_TOKENS_PER_REQUEST + OUTPUT_TOKENS_PER_PAGE * request.pages + thinking
    prefix = basis.prefix_tokens
    if prefix < model.min_cache_tokens:
        return Usage(own + prefix, output, thinking_tokens=thinking)
    if first:
        return Usage(own, output, cache_write_tokens=prefix, thinking_tokens=thinking)
    return Usage(own, output, cache_read_tokens=prefix, thinking_tokens=thinking)


def estimate_cost(
    catalogue: Catalogue,
    choice: ThinkingChoice,
    basis: EstimateBasis,
    requests: Sequence[PlannedRequest],
    *,
    batch: bool,
) -> float | None:
    """USD for ``requests``, each priced on its own (a long-context band is decided
    per request); None for a model the catalogue does not know."""
    model = catalogue.get(choice.model)
    if model is None:
        return None
    total = 0.0
    for index, request in enumerate(requests):
        usage = request_usage(model, choice, basis, request, first=index == 0)
        total += catalogue.cost(choice.model, usage, batch=batch) or 0.0
    return round(total, 6)
