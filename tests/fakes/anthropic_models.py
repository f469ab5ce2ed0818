"""Per-model answers of the fake Anthropic server: "model Y answers with confidence X".

Routing by difficulty (a first model, then an escalation model for documents the
first one read badly) is tested and benchmarked against the fake, so the fake must
let a test decide how sure each model is and what it misses. A script applies to
every answer of one model id, sync or batch, on top of what the fake would say:

- ``confidence``: every value found gets this confidence;
- ``missing``: these fields are answered as not found;
- ``values``: these fields are answered with these values (a wrong INN, an amount
  printed nowhere on the page).

Set them per test with ``FakeAnthropic.answer_as(model, ...)``, for a whole server
with ``FakeAnthropic(model_scripts=...)``, or from the environment (a ``bench/``
script, a subprocess) with ``FAKE_ANTHROPIC_MODELS``, a JSON object::

    FAKE_ANTHROPIC_MODELS='{"claude-haiku-5-5": {"confidence": 0.4},
                            "claude-sonnet-5-5": {"confidence": 0.95}}'
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

ENV = "FAKE_ANTHROPIC_MODELS"


@dataclass(frozen=True)
class ModelScript:
    confidence: float | None = None
    missing: tuple[str, ...] = ()
    values: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, raw: ModelScript | Mapping[str, Any]) -> ModelScript:
        if isinstance(raw, ModelScript):
            return raw
        unknown = set(raw) - {"confidence", "missing", "values"}
        if unknown:
            raise ValueError(f"unknown model script keys: {sorted(unknown)}")
        confidence = raw.get("confidence")
        return cls(
            None if confidence is None else float(confidence),
            tuple(raw.get("missing") or ()),
            dict(raw.get("values") or {}),
        )

    def apply(self, answer: dict[str, Any]) -> dict[str, Any]:
        """``answer`` (the answer object) as this model says it; a copy."""
        answer = copy.deepcopy(answer)
        for document in answer.get("documents") or []:
            for item in document.get("fields") or []:
                key = item.get("key")
                if key in self.missing:
                    item.update(found=False, value="", confidence=0.0)
                    continue
                if key in self.values:
                    item.update(found=True, value=self.values[key])
                    item.setdefault("confidence", 0.9)
                if self.confidence is not None and item.get("found"):
                    item["confidence"] = self.confidence
        return answer


def scripts(raw: Mapping[str, ModelScript | Mapping[str, Any]] | None) -> dict[str, ModelScript]:
    return {model: ModelScript.of(script) for model, script in (raw or {}).items()}


def scripts_from_env(environ: Mapping[str, str] | None = None) -> dict[str, ModelScript]:
    """The scripts ``FAKE_ANTHROPIC_MODELS`` names; none when it is unset or empty."""
    text = (environ if environ is not None else os.environ).get(ENV, "").strip()
    if not text:
        return {}
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"{ENV} must be a JSON object of model id -> script")
    return scripts(data)
