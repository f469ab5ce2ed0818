"""The model catalogue: prices, thinking and effort rules, image tokens.

The strongest check here is the cross-check: for every model in the catalogue,
every effort/thinking combination that settings accept must be accepted by the
fake's independent table of the documented rules, and every one settings refuse
must be refused there too.
"""

from __future__ import annotations

import itertools

import pytest

from docbatch_gui.config.profile import load_profile
from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.llm.catalogue import Usage, load_catalogue
from docbatch_gui.llm.requests import OutputMode, PagePayload, build_request
from docbatch_gui.llm.thinking import EFFORT_CHOICES, THINKING_CHOICES, choose, forced_tool_refusal
from docbatch_gui.settings.loading import load_settings
from tests.fakes.anthropic_rules import Refusal, check_message
from tests.unit.test_requests import jpeg

CATALOGUE = load_catalogue()
PROFILE = load_profile()  # frozen: one for every request


def _request(model: str, options: dict, mode: OutputMode = OutputMode.JSON_SCHEMA) -> dict:
    page = PagePayload(1, jpeg((90, 120)), "Счёт № 5")
    return build_request(
        1,
        "f.pdf",
        1,
        [page],
        PROFILE,
        total_pages=1,
        model=model,
        group_size=8,
        max_tokens=4096,
        output_mode=mode,
        options=options,
    ).params


@pytest.mark.parametrize("model", list(CATALOGUE.models))
def test_settings_and_the_documented_rules_agree_on_every_combination(model: str) -> None:
    info = CATALOGUE.model(model)
    for effort, thinking in itertools.product(EFFORT_CHOICES, THINKING_CHOICES):
        try:
            choice = choose(info, effort, thinking)
        except ConfigError:
            accepted = False
        else:
            accepted = True
            check_message(_request(model, choice.params()))  # must not raise
        if not accepted and effort != "auto" and thinking != "auto":
            # what the refused combination would have sent
            kind = (info.thinking.off or "disabled") if thinking == "off" else "adaptive"
            options = {"output_config": {"effort": effort}, "thinking": {"type": kind}}
            with pytest.raises(Refusal):
                check_message(_request(model, options))


@pytest.mark.parametrize("model", list(CATALOGUE.models))
def test_forced_tool_use_is_allowed_exactly_where_the_api_allows_it(model: str) -> None:
    info = CATALOGUE.model(model)
    choice = choose(info)
    params = _request(model, choice.params(), OutputMode.TOOL)
    if forced_tool_refusal(info, choice) is None:
        check_message(params)
    else:
        with pytest.raises(Refusal, match="tool_choice"):
            check_message(params)


def test_the_default_is_the_cheapest_current_model_with_thinking_off() -> None:
    settings = load_settings()
    assert settings.anthropic_model == CATALOGUE.default_model == "claude-haiku-5-5"
    choice = settings.thinking_choice
    assert (choice.effort, choice.thinking_on) == ("low", False)
    assert choice.params() == {"thinking": {"type": "disabled"}, "output_config": {"effort": "low"}}
    current = [m for m in CATALOGUE.models.values() if m.status == "current"]
    assert min(current, key=lambda m: m.prices.input).id == settings.anthropic_model


def test_unknown_models_are_refused_without_prefix_guesses() -> None:
    for name in ("claude-opus-5-5-20261201", "claude-opus", "gpt-5"):
        assert CATALOGUE.get(name) is None
        with pytest.raises(ConfigError, match="ANTHROPIC_MODEL") as caught:
            load_settings(ANTHROPIC_MODEL=name)
        assert "claude-haiku-5-5" in caught.value.text  # names the known ones
    assert CATALOGUE.cost("claude-opus-5-5", Usage(1_000_000)) == 4.0  # its own price
    assert CATALOGUE.get("claude-haiku-4-5-20251001") is CATALOGUE.model("claude-haiku-4-5")


def test_settings_refuse_what_the_model_refuses() -> None:
    with pytest.raises(ConfigError, match="cannot be turned off"):
        load_settings(ANTHROPIC_MODEL="claude-opus-5-5", CLAUDE_THINKING="off")
    with pytest.raises(ConfigError, match="only at effort low, medium, high"):
        load_settings(CLAUDE_EFFORT="max", CLAUDE_THINKING="off")
    with pytest.raises(ConfigError, match="forced tool_choice"):
        load_settings(ANTHROPIC_MODEL="claude-sonnet-5-5", CLAUDE_OUTPUT="tool")
    with pytest.raises(ConfigError, match="no effort setting"):
        load_settings(ANTHROPIC_MODEL="claude-haiku-4-5", CLAUDE_EFFORT="low")
    with pytest.raises(ConfigError, match="MAX_OUTPUT_TOKENS"):
        load_settings(ANTHROPIC_MODEL="claude-haiku-4-5", MAX_OUTPUT_TOKENS=100_000)


def test_costs_count_thinking_cache_and_the_long_context_band() -> None:
    haiku = "claude-haiku-5-5"
    # thinking tokens are part of output_tokens: billed once, as output
    assert CATALOGUE.cost(haiku, Usage(0, 1_000_000, thinking_tokens=600_000)) == 0.5
    cached = Usage(0, 0, cache_read_tokens=50_000, cache_write_tokens=50_000)
    assert CATALOGUE.cost(haiku, cached) == round((0.01 + 0.125) / 20, 6)
    one_hour = Usage(0, 0, cache_write_tokens=50_000, cache_write_1h_tokens=50_000)
    assert CATALOGUE.cost(haiku, one_hour) == round(0.2 / 20, 6)
    # a prompt over 100,000 tokens puts every token of that request in the higher band
    assert CATALOGUE.cost(haiku, Usage(100_000, 1000)) == round(0.01 + 0.0005, 6)
    assert CATALOGUE.cost(haiku, Usage(100_001, 1000)) == round(100_001 * 0.5e-6 + 0.0025, 6)
    assert CATALOGUE.cost(haiku, Usage(50_000), batch=True) == round(0.005 / 2, 6)


@pytest.mark.parametrize(
    ("model", "size", "tokens"),
    [
        # build-with-claude/vision: ⌈w/28⌉·⌈h/28⌉, after the tier's own downscale
        ("claude-haiku-4-5", (1000, 1000), 1296),
        ("claude-haiku-5-5", (1000, 1000), 1296),
        ("claude-haiku-4-5", (1920, 1080), 1560),
        ("claude-haiku-5-5", (1920, 1080), 2691),
        ("claude-haiku-5-5", (902, 1275), 33 * 46),
    ],
)
def test_image_tokens_follow_the_documented_formula(
    model: str, size: tuple[int, int], tokens: int
) -> None:
    assert CATALOGUE.model(model).image_tokens(*size) == tokens


def test_usage_reads_thinking_and_cache_detail_from_the_api() -> None:
    usage = Usage.from_api(
        {
            "input_tokens": 10,
            "output_tokens": 400,
            "cache_read_input_tokens": 5,
            "cache_creation_input_tokens": 7,
            "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 7},
            "output_tokens_details": {"thinking_tokens": 300},
        }
    )
    assert usage == Usage(10, 400, 5, 7, 300, 7)
