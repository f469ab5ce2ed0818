"""Routing by difficulty: which model reads a document first, and when a second,
stronger one reads it again.

A profile may name ``models.first`` and ``models.escalation``. The first model reads
every document; a document whose first answer is missing a key field, is unsure,
fails a field check or contradicts the page's text goes to the escalation model
once. The decision is taken on the first answers only, so an escalated answer is
never escalated again: routing cannot loop. The escalated answer replaces the first
when it is better (fewer of those problems, else a higher lowest confidence).

This module holds the rules and the configuration (pure, checked against the model
catalogue); ``engine.escalation`` applies them to a job's requests and records.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from docbatch_gui.checks.document import CHECK_CODES
from docbatch_gui.config.profile import Profile, default_profile_path
from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.domain.models import Document
from docbatch_gui.llm.catalogue import Catalogue, load_catalogue
from docbatch_gui.llm.requests import custom_id
from docbatch_gui.llm.thinking import choose
from docbatch_gui.settings.model import Settings

#: the request tiers a record can belong to
FIRST = "first"
ESCALATION = "escalation"
#: the suffix of an escalated request's id: ``job_7_batch_1_esc``
ESCALATION_SUFFIX = "_esc"

#: why a document is escalated, by the review code that shows it
MISSING_FIELD = "missing_field"
UNSURE = "unsure"
CHECK_FAILED = "check_failed"
CONTRADICTION = "contradiction"
REASONS = (MISSING_FIELD, UNSURE, CHECK_FAILED, CONTRADICTION)


def trigger(code: str) -> str | None:
    """The escalation reason a review code stands for, or None (not a trigger)."""
    if code == "field_missing":
        return MISSING_FIELD
    if code == "low_confidence":
        return UNSURE
    if code == "not_on_page":
        return CONTRADICTION
    if code in CHECK_CODES:
        return CHECK_FAILED
    return None


@dataclass(frozen=True)
class Route:
    """The models a job's requests go to; ``escalation`` None: one model, as before."""

    first: str
    escalation: str | None
    #: the request fragment (``thinking``, ``output_config.effort``) of each model
    options: Mapping[str, Mapping[str, Any]]

    @property
    def routed(self) -> bool:
        return self.escalation is not None

    def params(self, model: str) -> dict[str, Any]:
        return {k: dict(v) if isinstance(v, Mapping) else v for k, v in self.options[model].items()}


def route_for(settings: Settings, profile: Profile) -> Route:
    """The route of ``profile`` under ``settings``; ConfigError naming the profile when a
    model is unknown or refuses the settings' effort, thinking or output mode.

    The settings' ``ANTHROPIC_MODEL`` is the model of a profile without
    ``models.first``; the profile's ``models.first`` wins where it is set (the profile
    is what an administrator tuned for the document mix). An escalation model no dearer
    than the first is no escalation (``_stronger``)."""
    named = profile.models
    first = named.first or settings.anthropic_model
    catalogue = load_catalogue()
    escalation = named.escalation if _stronger(catalogue, first, named.escalation) else None
    if escalation and _refused_default(settings, profile, escalation):
        escalation = None
    models = [first] + ([escalation] if escalation else [])
    options: dict[str, Mapping[str, Any]] = {}
    for role, model in zip(("first", "escalation"), models, strict=False):
        if catalogue.get(model) is None:
            raise ConfigError(
                f"Profile {profile.source}: models.{role} {model!r} is not in the model "
                f"catalogue. Known models: {', '.join(catalogue.models)}. Fix the profile "
                "or add the model to docbatch_gui/resources/models.json.",
                file=str(profile.source),
            )
        problem = settings.refusal_by(model)
        if problem:
            raise ConfigError(
                f"Profile {profile.source}: models.{role} {model!r} cannot be used with "
                f"these settings: {problem}",
                file=str(profile.source),
            )
        info = catalogue.model(model)
        options[model] = choose(info, settings.claude_effort, settings.claude_thinking).params()
    return Route(first, escalation, options)


def _refused_default(settings: Settings, profile: Profile, escalation: str) -> bool:
    """Whether the bundled profile's escalation model refuses these settings (Sonnet
    5.5 takes no forced tool, ``CLAUDE_OUTPUT=tool``). The bundled escalation is a
    default, never a reason to refuse a start: such settings read with one model, as
    before routing. A profile an administrator wrote is held to its word instead."""
    if profile.source != default_profile_path():
        return False
    return settings.refusal_by(escalation) is not None


def _stronger(catalogue: Catalogue, first: str, escalation: str | None) -> bool:
    """Whether ``escalation`` is a step up from ``first``: a dearer model (input price)
    of the catalogue. Escalating to the same model, or to a cheaper one (the bundled
    profile's Sonnet when ANTHROPIC_MODEL is Opus), would pay again for no better
    reading, so the route then has no escalation. An unknown model is left to the
    caller's check, which names it."""
    if escalation is None or escalation == first:
        return False
    first_info, escalation_info = catalogue.get(first), catalogue.get(escalation)
    if first_info is None or escalation_info is None:
        return True
    return escalation_info.prices.input > first_info.prices.input


# -- request ids ----------------------------------------------------------------------


def escalation_id(job_id: int, group: int) -> str:
    return custom_id(job_id, group) + ESCALATION_SUFFIX


def is_escalation(request_id: str) -> bool:
    return request_id.endswith(ESCALATION_SUFFIX)


def retarget(request_params: Mapping[str, Any], request_id: str, new_id: str, model: str,
             options: Mapping[str, Any]) -> dict[str, Any]:  # fmt: skip
    """A request's ``params`` for another model: its own thinking and effort, and the
    id marker of the header changed to ``new_id``. Images and text are shared, not
    copied."""
    params = {k: v for k, v in request_params.items() if k != "thinking"}
    params["model"] = model
    config = {k: v for k, v in (params.get("output_config") or {}).items() if k != "effort"}
    for key, value in options.items():
        if key == "output_config":
            config.update(value)
        else:
            params[key] = dict(value) if isinstance(value, Mapping) else value
    if config:
        params["output_config"] = config
    else:
        params.pop("output_config", None)
    message = dict(params["messages"][0])
    content = list(message["content"])
    if content and content[0].get("type") == "text":
        marker = re.escape(f"Request id: {request_id}")
        text = re.sub(rf"^{marker}$", f"Request id: {new_id}", content[0]["text"], flags=re.M)
        content[0] = {**content[0], "text": text}
    message["content"] = content
    params["messages"] = [message, *params["messages"][1:]]
    return params


# -- the decision ---------------------------------------------------------------------


def reasons_of(document: Document) -> list[str]:
    """The escalation reasons a checked document shows, in ``REASONS`` order."""
    found = {trigger(code.code) for code in document.review_codes}
    return [r for r in REASONS if r in found]


def problems_of(document: Document) -> int:
    return sum(trigger(code.code) is not None for code in document.review_codes)


def _touches(document: Document, pages: Iterable[int]) -> bool:
    return any(document.page_from <= p <= document.page_to for p in pages)


def wanted(
    documents: Sequence[Document], group_pages: Mapping[int, Sequence[int]]
) -> dict[int, list[str]]:
    """The request groups to send to the escalation model, with the reasons of the
    documents on their pages (a document crossing groups sends each of them)."""
    found: dict[int, list[str]] = {}
    for document in documents:
        reasons = reasons_of(document)
        if not reasons:
            continue
        for group, pages in group_pages.items():
            if _touches(document, pages):
                merged = set(found.get(group, [])) | set(reasons)
                found[group] = [r for r in REASONS if r in merged]
    return dict(sorted(found.items()))


def score(documents: Sequence[Document], pages: Sequence[int]) -> tuple[int, float]:
    """How bad the documents on ``pages`` are: (problems, minus the lowest confidence
    of a value found); lower is better."""
    mine = [d for d in documents if _touches(d, pages)]
    problems = sum(problems_of(d) for d in mine)
    found = [d.confidence.get(k, 0.0) for d in mine for k, v in d.fields.items() if v is not None]
    return problems, -min(found, default=0.0)


def better_groups(
    first: Sequence[Document],
    mixed: Sequence[Document],
    group_pages: Mapping[int, Sequence[int]],
    escalated: Iterable[int],
) -> set[int]:
    """The escalated groups whose answer is better than the first one: the documents
    on their pages score lower with the escalated answers in (``mixed``) than with the
    first answers alone. A tie keeps the first answer."""
    return {
        group
        for group in escalated
        if score(mixed, group_pages[group]) < score(first, group_pages[group])
    }
