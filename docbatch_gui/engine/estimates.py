"""Cost estimates shown before sending, in sync and batch mode alike.

The offline formula is refined, once per profile, model and prompt, by two free
``count_tokens`` calls: the shared prefix alone, and the prefix with one real page.
The result is kept in the store, so the next run (or another machine of the team)
does not ask again. Any failure of the counter leaves the formula in place: an
estimate must never stop processing.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from typing import Any

from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.models import Page
from docbatch_gui.engine.routing import route_for
from docbatch_gui.llm.caching import cache_ttl
from docbatch_gui.llm.catalogue import load_catalogue
from docbatch_gui.llm.pricing import (
    EstimateBasis,
    PlannedRequest,
    estimate_cost,
    formula_prefix,
    page_tokens,
)
from docbatch_gui.llm.prompt import output_schema, system_blocks
from docbatch_gui.llm.requests import ExtractionRequest
from docbatch_gui.llm.thinking import choose
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.store import Store

log = logging.getLogger(__name__)

BASIS_KEY = "estimate_basis"


class CostEstimator:
    def __init__(self, store: Store, settings: Settings, profile: Profile) -> None:
        self.store = store
        self.settings = settings
        self.catalogue = load_catalogue()
        # the first model reads every page (routing by difficulty): it is what a run
        # costs before any escalation
        first = route_for(settings, profile).first
        self.model = self.catalogue.model(first)
        self.choice = choose(self.model, settings.claude_effort, settings.claude_thinking)
        self.plan = profile.page_plan
        blocks = system_blocks(profile, settings.group_size)
        self.prefix_chars = sum(len(b["text"]) for b in blocks)
        prompt = json.dumps([blocks, output_schema(profile)], sort_keys=True, ensure_ascii=False)
        digest = hashlib.sha256(prompt.encode()).hexdigest()[:16]
        self.key = f"{BASIS_KEY}:{first}:{digest}"
        self._counted: EstimateBasis | None = None

    def basis(self) -> EstimateBasis:
        """The stored basis of this prompt; once it is the counter's, kept in memory:
        the engine asks for it per request and per job, and it no longer changes."""
        if self._counted is not None:
            return self._counted
        saved = self.store.get_setting(self.key)
        if isinstance(saved, dict):
            try:
                basis = EstimateBasis(
                    int(saved["prefix_tokens"]), float(saved["page_factor"]), str(saved["source"])
                )
            except (KeyError, TypeError, ValueError):
                pass
            else:
                if basis.source == "count_tokens":
                    self._counted = basis
                return basis
        return formula_prefix(self.prefix_chars)

    @property
    def measured(self) -> bool:
        """Whether the counter already calibrated this profile, model and prompt (ask
        before building a sample request: that reads a group's page images)."""
        return self.basis().source == "count_tokens"

    async def measure(self, client: Any, sample: ExtractionRequest) -> EstimateBasis:
        """Refine the basis with the real counter, once; ``client`` is an
        ``AsyncAnthropic``. Returns the basis in force afterwards."""
        current = self.basis()
        if current.source == "count_tokens":
            return current
        params = {k: v for k, v in sample.params.items() if k != "max_tokens"}
        bare = {**params, "messages": [{"role": "user", "content": "."}]}
        # asked once, without the SDK's retries: the formula stands in for a failed
        # count, and with Claude unreachable the retries (about 7 s of backoff) came
        # before every attempt of the request itself
        counter = client.with_options(max_retries=0)
        try:
            prefix = (await counter.messages.count_tokens(**bare)).input_tokens
            full = (await counter.messages.count_tokens(**params)).input_tokens
        except Exception as exc:  # the estimate falls back to the formula, never fails
            log.info("count_tokens unavailable (%s); cost estimates use the formula", exc)
            return current
        planned = PlannedRequest(sample.image_pixels, sample.text_chars, len(sample.pages))
        formula = max(1, page_tokens(self.model, planned))
        basis = EstimateBasis(int(prefix), max(0.2, (full - prefix) / formula), "count_tokens")
        self.store.set_setting(self.key, basis.as_dict())
        self._counted = basis
        log.info(
            "cost estimates for %s now use count_tokens: prefix %s tokens, page factor %.2f",
            self.model.id,
            basis.prefix_tokens,
            basis.page_factor,
        )
        return basis

    def cache_ttl(self, *, batch: bool, model: str | None = None) -> str | None:
        """The prompt cache this run's requests ask for (``caching.cache_ttl``): the
        one-hour cache in a batch where the model takes it, none under the model's
        minimum prefix. ``model``: another model than the first (the escalation's)."""
        info = self.catalogue.model(model) if model else self.model
        return cache_ttl(info, self.basis().prefix_tokens, batch=batch)

    def for_pages(
        self, groups: Sequence[Sequence[Page]], *, batch: bool, extra_chars: Sequence[int] = ()
    ) -> float | None:
        """Before any image is read: page sizes and text layers only, plus
        ``extra_chars`` of text per group (the seller's confirmed examples)."""
        return self._priced(self.planned(groups, extra_chars), batch=batch)

    def _priced(self, planned: Sequence[PlannedRequest], *, batch: bool) -> float | None:
        return estimate_cost(
            self.catalogue,
            self.choice,
            self.basis(),
            planned,
            batch=batch,
            cache_ttl=self.cache_ttl(batch=batch),
        )

    def planned(
        self, groups: Sequence[Sequence[Page]], extra_chars: Sequence[int] = ()
    ) -> list[PlannedRequest]:
        """What the estimate knows of each group's request (the forecast prices them
        too)."""
        extra = [*extra_chars, *[0] * (len(groups) - len(extra_chars))]
        return [
            PlannedRequest.of_pages(group, self.plan, more)
            for group, more in zip(groups, extra, strict=False)
        ]

    def for_requests(self, requests: Sequence[ExtractionRequest], *, batch: bool) -> float | None:
        planned = [
            PlannedRequest(r.image_pixels, r.text_chars, len(r.pages), [k.value for k in r.kinds])
            for r in requests
        ]
        return self._priced(planned, batch=batch)
