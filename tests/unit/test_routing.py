"""Routing by difficulty: the profile's models, their checks, and the rules that
decide which groups escalate and which answer is kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.config.profile import default_profile_path, load_profile
from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.domain.models import Document
from docbatch_gui.domain.reasons import ReviewCode
from docbatch_gui.engine.routing import (
    better_groups,
    escalation_id,
    is_escalation,
    reasons_of,
    retarget,
    route_for,
    trigger,
    wanted,
)
from docbatch_gui.llm.requests import PagePayload, build_request, parse_custom_id
from docbatch_gui.settings.checks import check_settings
from docbatch_gui.settings.loading import load_settings
from tests.fakes.anthropic_models import ModelScript, scripts_from_env
from tests.routing_helpers import ESCALATION, FIRST, routed_profile


def _profile_with(tmp_path: Path, models: Any) -> Path:
    data = json.loads(default_profile_path().read_text(encoding="utf-8"))
    data["models"] = models
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _doc(pages: tuple[int, int], *codes: str, confidence: float = 0.9) -> Document:
    return Document(
        job_id=1,
        doc_index=0,
        doc_type="invoice",
        page_from=pages[0],
        page_to=pages[1],
        fields={"number": "1"},
        confidence={"number": confidence},
        review_codes=[ReviewCode(c, "number") for c in codes],
    )


def test_the_bundled_profile_reads_with_haiku_and_escalates_to_sonnet(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path)
    route = route_for(settings, load_profile())
    assert (route.first, route.escalation, route.routed) == (
        "claude-haiku-5-5",
        "claude-sonnet-5-5",
        True,
    )
    assert route.params(route.first) == settings.thinking_choice.params()


@pytest.mark.parametrize("model", ["claude-sonnet-5-5", "claude-opus-5-5"])
def test_the_bundled_profile_never_escalates_to_the_same_or_a_cheaper_model(
    tmp_path: Path, model: str
) -> None:
    """ANTHROPIC_MODEL set to Sonnet or Opus: Sonnet again would pay twice for the same
    reading, and from Opus it is a step down; the settings' model reads alone."""
    route = route_for(load_settings(data_dir=tmp_path, ANTHROPIC_MODEL=model), load_profile())
    assert (route.first, route.escalation, route.routed) == (model, None, False)


def test_settings_the_bundled_escalation_refuses_read_with_one_model(tmp_path: Path) -> None:
    """Sonnet 5.5 takes no forced tool: CLAUDE_OUTPUT=tool with the bundled profile
    starts (its escalation is a default) and reads with Haiku alone."""
    settings = load_settings(data_dir=tmp_path, CLAUDE_OUTPUT="tool")
    route = route_for(settings, load_profile())
    assert (route.first, route.escalation) == ("claude-haiku-5-5", None)


def test_a_written_profile_whose_escalation_refuses_the_settings_stops_the_start(
    tmp_path: Path,
) -> None:
    path = _profile_with(tmp_path, {"escalation": "claude-sonnet-5-5"})
    with pytest.raises(ConfigError, match=r"models.escalation 'claude-sonnet-5-5'"):
        check_settings(
            load_settings(data_dir=tmp_path, DOCBATCH_PROFILE=str(path), CLAUDE_OUTPUT="tool")
        )


def test_a_profile_names_first_and_escalation_models(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path, ANTHROPIC_MODEL="claude-opus-5-5")
    route = route_for(settings, routed_profile(tmp_path))
    assert (route.first, route.escalation) == (FIRST, ESCALATION)  # the profile wins
    settings = load_settings(data_dir=tmp_path, ANTHROPIC_MODEL="claude-haiku-4-5")
    only = route_for(settings, routed_profile(tmp_path, first=None))
    assert (only.first, only.escalation) == ("claude-haiku-4-5", ESCALATION)


def test_an_unknown_or_repeated_model_stops_the_start(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="same answer"):
        load_profile(_profile_with(tmp_path, {"first": FIRST, "escalation": FIRST}))
    with pytest.raises(ConfigError, match=r"models\.nope"):
        load_profile(_profile_with(tmp_path, {"nope": FIRST}))
    unknown = _profile_with(tmp_path, {"escalation": "claude-sonnet-9"})
    with pytest.raises(ConfigError, match=r"models.escalation 'claude-sonnet-9'.*Known models"):
        route_for(load_settings(data_dir=tmp_path), load_profile(unknown))
    with pytest.raises(ConfigError, match="claude-sonnet-9"):
        check_settings(load_settings(data_dir=tmp_path, DOCBATCH_PROFILE=str(unknown)))


def test_settings_refuse_an_escalation_model_that_refuses_the_effort(tmp_path: Path) -> None:
    path = _profile_with(tmp_path, {"escalation": "claude-haiku-4-5"})  # no effort setting
    with pytest.raises(ConfigError, match=r"models.escalation 'claude-haiku-4-5'"):
        check_settings(
            load_settings(data_dir=tmp_path, DOCBATCH_PROFILE=str(path), CLAUDE_EFFORT="high")
        )


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("field_missing", "missing_field"),
        ("low_confidence", "unsure"),
        ("inn_invalid", "check_failed"),
        ("vat_mismatch", "check_failed"),
        ("not_on_page", "contradiction"),
        ("type_unknown", None),
        ("counterparty_name", None),
        ("pages_not_rendered", None),
    ],
)
def test_which_review_codes_escalate(code: str, reason: str | None) -> None:
    assert trigger(code) == reason


def test_the_groups_of_a_document_in_doubt_escalate() -> None:
    pages = {1: [1, 2], 2: [3, 4], 3: [5, 6]}
    documents = [
        _doc((1, 1)),
        _doc((2, 3), "low_confidence", "not_on_page"),  # crosses groups 1 and 2
        _doc((5, 6)),
    ]
    assert wanted(documents, pages) == {
        1: ["unsure", "contradiction"],
        2: ["unsure", "contradiction"],
    }
    assert wanted([_doc((1, 6))], pages) == {}
    assert reasons_of(_doc((1, 1), "inn_invalid", "field_missing")) == [
        "missing_field",
        "check_failed",
    ]


def test_the_escalated_answer_replaces_the_first_only_when_better() -> None:
    pages = {1: [1], 2: [2], 3: [3]}
    first = [_doc((1, 1), "low_confidence", confidence=0.4), _doc((2, 2), "field_missing"),
             _doc((3, 3), "low_confidence", confidence=0.5)]  # fmt: skip
    mixed = [_doc((1, 1)), _doc((2, 2), "field_missing"),
             _doc((3, 3), "low_confidence", confidence=0.55)]  # fmt: skip
    # 1: fewer problems; 2: a tie keeps the first; 3: as unsure, but surer
    assert better_groups(first, mixed, pages, [1, 2, 3]) == {1, 3}


def test_an_escalated_request_is_the_same_request_for_the_other_model(tmp_path: Path) -> None:
    profile = load_profile()
    request = build_request(
        7, "a.pdf", 2, [PagePayload(9, b"", "text")], profile, total_pages=9,
        model=FIRST, group_size=8, max_tokens=1000,
        options={"thinking": {"type": "disabled"}, "output_config": {"effort": "low"}},
    )  # fmt: skip
    new_id = escalation_id(7, 2)
    params = retarget(request.params, request.custom_id, new_id, ESCALATION,
                      {"output_config": {"effort": "medium"}})  # fmt: skip
    assert new_id == "job_7_batch_2_esc" and is_escalation(new_id)
    assert parse_custom_id(new_id) == (7, 2)
    assert params["model"] == ESCALATION and "thinking" not in params
    assert params["output_config"]["effort"] == "medium"
    assert params["output_config"]["format"] == request.params["output_config"]["format"]
    assert f"Request id: {new_id}\n" in params["messages"][0]["content"][0]["text"]
    assert request.params["model"] == FIRST  # the first request is left as it was
    assert "Request id: job_7_batch_2\n" in request.params["messages"][0]["content"][0]["text"]


def test_the_fake_answers_per_model_from_its_environment() -> None:
    env = {"FAKE_ANTHROPIC_MODELS": json.dumps({FIRST: {"confidence": 0.4, "missing": ["date"]}})}
    script = scripts_from_env(env)[FIRST]
    answer = {
        "documents": [
            {"fields": [
                {"key": "number", "found": True, "value": "1", "confidence": 0.9},
                {"key": "date", "found": True, "value": "2024-01-01", "confidence": 0.9},
                {"key": "amount", "found": False, "value": "", "confidence": 0.0},
            ]}
        ]
    }  # fmt: skip
    fields = script.apply(answer)["documents"][0]["fields"]
    assert [(f["found"], f["confidence"]) for f in fields] == [
        (True, 0.4),
        (False, 0.0),
        (False, 0.0),
    ]
    assert answer["documents"][0]["fields"][1]["found"] is True  # a copy
    with pytest.raises(ValueError, match="unknown model script keys"):
        ModelScript.of({"confidense": 0.4})
    assert scripts_from_env({}) == {}


def test_doctor_names_the_route(tmp_path: Path) -> None:
    from docbatch_gui.diagnostics.doctor import _model

    bundled = _model(load_settings(data_dir=tmp_path))
    assert f"with {FIRST} first and sends those in doubt once to {ESCALATION}" in bundled.detail
    plain = _model(load_settings(data_dir=tmp_path, ANTHROPIC_MODEL=ESCALATION))
    assert "sends those in doubt" not in plain.detail
    path = routed_profile(tmp_path).source
    routed = _model(load_settings(data_dir=tmp_path, DOCBATCH_PROFILE=str(path)))
    assert f"with {FIRST} first and sends those in doubt once to {ESCALATION}" in routed.detail


def test_a_missing_profile_file_is_a_settings_error(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.json"
    with pytest.raises(ConfigError, match=r"nowhere\.json"):
        check_settings(load_settings(data_dir=tmp_path, DOCBATCH_PROFILE=str(missing)))
