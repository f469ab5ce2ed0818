"""Which ``thinking`` and ``effort`` a request carries, decided from the catalogue.

Current models think unless told otherwise, and thinking tokens are billed as
output and count toward ``max_tokens``. Reading a page into fields needs no long
reasoning, so ``auto`` asks for the cheapest combination the model accepts: thinking
off where the model allows it, at the lowest effort. Every choice is checked against
the model's documented rules here, at settings load, so a combination the API would
refuse never reaches it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.llm.catalogue import AUTO_EFFORT, ModelInfo

AUTO = "auto"
THINKING_CHOICES = ("auto", "off", "on")
EFFORT_CHOICES = ("auto", "low", "medium", "high", "xhigh", "max")
#: a rough guess of thinking tokens per request, for estimates before sending only
#: (actual costs read the real figure from ``usage``)
THINKING_GUESS = {"low": 400, "medium": 1200, "high": 3000, "xhigh": 6000, "max": 12000}


@dataclass(frozen=True)
class ThinkingChoice:
    """What to send: ``thinking_type`` None and ``effort`` None mean "leave it out"."""

    model: str
    thinking_type: str | None
    effort: str | None
    thinking_on: bool

    @property
    def label(self) -> str:
        """For the Batches tab, ``batches --json`` and the job's cost line."""
        effort = self.effort or "default"
        return f"effort {effort}, thinking {'on' if self.thinking_on else 'off'}"

    def params(self) -> dict[str, Any]:
        """The request fragment: ``thinking`` and ``output_config.effort``."""
        params: dict[str, Any] = {}
        if self.thinking_type is not None:
            params["thinking"] = {"type": self.thinking_type}
        if self.effort is not None:
            params["output_config"] = {"effort": self.effort}
        return params

    def guessed_thinking_tokens(self) -> int:
        return THINKING_GUESS.get(self.effort or "medium", 1200) if self.thinking_on else 0


def choose(info: ModelInfo, effort: str = AUTO, thinking: str = AUTO) -> ThinkingChoice:
    """The combination for ``info``; ConfigError when the model refuses it."""
    if effort not in EFFORT_CHOICES:
        raise ConfigError(
            f"CLAUDE_EFFORT={effort} is invalid: allowed is {', '.join(EFFORT_CHOICES)}"
        )
    if thinking not in THINKING_CHOICES:
        raise ConfigError(
            f"CLAUDE_THINKING={thinking} is invalid: allowed is {', '.join(THINKING_CHOICES)}"
        )
    rules = info.thinking
    if effort == AUTO:
        chosen = AUTO_EFFORT if AUTO_EFFORT in info.efforts else None
    elif effort not in info.efforts:
        accepted = ", ".join(info.efforts) or "none (the model has no effort setting)"
        raise ConfigError(
            f"CLAUDE_EFFORT={effort} is not accepted by {info.name} ({info.id}); "
            f"it accepts: {accepted}. Use auto."
        )
    else:
        chosen = effort
    level = chosen or info.default_effort
    can_off = rules.can_turn_off and (not info.efforts or level in rules.off_efforts)
    if thinking == "off" and not can_off:
        why = (
            "thinking cannot be turned off on this model"
            if not rules.can_turn_off
            else f"thinking can be turned off only at effort {', '.join(rules.off_efforts)}"
        )
        raise ConfigError(f"CLAUDE_THINKING=off is refused by {info.name} ({info.id}): {why}.")
    if thinking == "on" and rules.default != "adaptive" and "adaptive" in rules.refused:
        raise ConfigError(
            f"CLAUDE_THINKING=on is not supported by {info.name} ({info.id}) in DocBatch: "
            "it has only manual extended thinking. Use auto or off."
        )
    if thinking == "on" or (thinking == AUTO and not can_off):
        on = rules.default == "adaptive" or thinking == "on"
        thinking_type = None if rules.default == "adaptive" else "adaptive"
        return ThinkingChoice(info.id, thinking_type, chosen, on)
    off_type = rules.off if rules.default != rules.off else None
    return ThinkingChoice(info.id, off_type, chosen, False)


def forced_tool_refusal(info: ModelInfo, choice: ThinkingChoice) -> Message | None:
    """Why forced tool use (``CLAUDE_OUTPUT=tool``) would be refused, or None."""
    if info.forced_tool_choice == "never":
        return coded("tool_choice_refused", model=info.name)
    if info.forced_tool_choice == "without_thinking" and choice.thinking_on:
        return coded("tool_choice_refused_thinking", model=info.name)
    return None
