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

from docbatch_gui.config.page_plan import PagePlan
from docbatch_gui.domain.models import Page
from docbatch_gui.llm.catalogue import Catalogue, ModelInfo, Usage
from docbatch_gui.llm.thinking import ThinkingChoice
from docbatch_gui.pipeline.page_plan import PageKind, kind_of, planned_size

OUTPUT_TOKENS_PER_PAGE = 250  # a generous answer per page: documents and fields
OUTPUT_TOKENS_PER_REQUEST = 100
CHARS_PER_TOKEN = 3.5  # mixed Russian and English text, on the newer tokenizer
#: what structured outputs add to the prompt (the schema's injected instructions)
FORMAT_OVERHEAD_TOKENS = 300
PAGE_TEXT_MARKUP = 40  # the <page index=… source_page=… kind=…> wrapper around each page's text


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
    """What an estimate needs of one request: its images and text, nothing else.

    ``image_sizes`` are the sizes the plan sends, (0, 0) for a page without an image;
    ``kinds`` (``page_plan.PageKind`` values, one per page) say how each page goes."""

    image_sizes: Sequence[tuple[int, int]]
    text_chars: int
    pages: int
    kinds: Sequence[str] = ()

    @classmethod
    def of_pages(
        cls, pages: Sequence[Page], plan: PagePlan, extra_chars: int = 0
    ) -> PlannedRequest:
        """A group of stored pages as ``plan`` will send them: a text page without an
        image, a text page with its small image, any other page with its full image."""
        kinds = [kind_of(plan, p) for p in pages]
        sizes = [
            planned_size(plan, k, p.width, p.height) for k, p in zip(kinds, pages, strict=True)
        ]
        chars = sum(len(p.text) + PAGE_TEXT_MARKUP for p in pages) + extra_chars
        return cls(sizes, chars, len(pages), [k.value for k in kinds])

    def count(self, *kinds: PageKind) -> int:
        """Pages of these kinds (every page of a request from before plans is an image)."""
        if not self.kinds:
            return self.pages if PageKind.IMAGE in kinds else 0
        return sum(k in kinds for k in self.kinds)


def text_tokens(chars: int) -> int:
    return int(chars / CHARS_PER_TOKEN) + 1 if chars else 0


def formula_prefix(system_text_chars: int) -> EstimateBasis:
    return EstimateBasis(text_tokens(system_text_chars) + FORMAT_OVERHEAD_TOKENS)


def page_tokens(model: ModelInfo, request: PlannedRequest) -> int:
    """The request's own tokens (beyond the shared prefix): each image it sends by the
    documented formula (none for a text page, the small size for a text page that
    keeps one), and its text."""
    images = sum(model.image_tokens(w, h) for w, h in request.image_sizes if w and h)
    return images + text_tokens(request.text_chars)


def request_usage(
    model: ModelInfo,
    choice: ThinkingChoice,
    basis: EstimateBasis,
    request: PlannedRequest,
    *,
    first: bool,
    cache_ttl: str | None = "5m",
) -> Usage:
    """One request's usage: the first of a run writes the cached prefix (when it is
    long enough to be cached at all, and ``cache_ttl`` marks it: "5m", "1h", or None
    for no cache), the later ones read it."""
    own = int(page_tokens(model, request) * basis.page_factor)
    thinking = choice.guessed_thinking_tokens()
    output = OUTPUT_TOKENS_PER_REQUEST + OUTPUT_TOKENS_PER_PAGE * request.pages + thinking
    prefix = basis.prefix_tokens
    if cache_ttl is None or prefix < model.min_cache_tokens:
        return Usage(own + prefix, output, thinking_tokens=thinking)
    if first:
        hour = prefix if cache_ttl == "1h" else 0
        return Usage(
            own,
            output,
            cache_write_tokens=prefix,
            thinking_tokens=thinking,
            cache_write_1h_tokens=hour,
        )
    return Usage(own, output, cache_read_tokens=prefix, thinking_tokens=thinking)


def estimate_cost(
    catalogue: Catalogue,
    choice: ThinkingChoice,
    basis: EstimateBasis,
    requests: Sequence[PlannedRequest],
    *,
    batch: bool,
    cache_ttl: str | None = "5m",
) -> float | None:
    """USD for ``requests``, each priced on its own (a long-context band is decided
    per request); None for a model the catalogue does not know. ``cache_ttl`` is the
    prompt cache the requests ask for (``caching.cache_ttl``)."""
    model = catalogue.get(choice.model)
    if model is None:
        return None
    total = 0.0
    for index, request in enumerate(requests):
        usage = request_usage(model, choice, basis, request, first=index == 0, cache_ttl=cache_ttl)
        total += catalogue.cost(choice.model, usage, batch=batch) or 0.0
    return round(total, 6)
