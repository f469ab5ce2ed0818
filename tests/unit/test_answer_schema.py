"""The answer schema stays inside the API's structured-output limits, by shape.

Checked twice: by DocBatch's own limits check (what a profile load runs) and by the
fake server's independent copy of the documented rules, so that a mistake in one of
the two cannot let a schema through that the API would refuse.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.config import answer_schema
from docbatch_gui.config.profile import load_profile
from docbatch_gui.config.schema_limits import schema_problems
from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.llm.prompt import output_schema
from tests.fakes.anthropic_rules import Refusal, check_message

RESOURCES = Path(__file__).resolve().parents[2] / "docbatch_gui" / "resources"
PROFILES = sorted((RESOURCES / "profiles").glob("*.json"))


def _through_the_fake(schema: dict[str, Any]) -> None:
    check_message(
        {
            "model": "claude-haiku-5-5",
            "max_tokens": 100,
            "messages": [{"role": "user", "content": "x"}],
            "output_config": {"format": {"type": "json_schema", "schema": schema}},
        }
    )


def _flat_schema(keys: list[str]) -> dict[str, Any]:
    """The first release's shape: one nullable property per field, ranged confidences."""
    nullable = {"type": ["string", "null"]}
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["fields", "confidence"],
        "properties": {
            "fields": {
                "type": "object",
                "additionalProperties": False,
                "required": keys,
                "properties": {k: nullable for k in keys},
            },
            "confidence": {
                "type": "object",
                "additionalProperties": False,
                "required": keys,
                "properties": {k: {"type": "number", "minimum": 0, "maximum": 1} for k in keys},
            },
        },
    }


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.name)
def test_every_bundled_profile_schema_is_inside_the_limits(path: Path) -> None:
    schema = output_schema(load_profile(path))
    assert schema_problems(schema) == []
    _through_the_fake(schema)
    text = json.dumps(schema)
    for keyword in ("minimum", "maximum", "minLength", "maxLength", '"null"'):
        assert keyword not in text


def test_adding_fields_never_crosses_a_limit() -> None:
    keys = [f"field_{n}" for n in range(300)]
    schema = answer_schema.answer_schema(keys, ["invoice", "unknown"])
    assert schema_problems(schema) == []
    _through_the_fake(schema)


def test_the_old_flat_shape_is_refused_by_both_checks() -> None:
    keys = [f"f{n}" for n in range(19)]
    problems = {p.limit for p in schema_problems(_flat_schema(keys))}
    assert problems == {"unsupported keyword", "union-typed parameters"}
    with pytest.raises(Refusal, match="property 'minimum' is not supported"):
        _through_the_fake(_flat_schema(keys))
    no_ranges = _flat_schema(keys)
    for item in no_ranges["properties"]["confidence"]["properties"].values():
        item.pop("minimum"), item.pop("maximum")
    with pytest.raises(Refusal, match="19 parameters with union types; at most 16"):
        _through_the_fake(no_ranges)


def test_a_profile_whose_schema_crosses_a_limit_is_refused_at_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No bundled profile can cross a limit with today's shape; the load check is the
    guard for whatever a profile adds to the schema later."""
    monkeypatch.setattr(
        answer_schema, "answer_schema", lambda keys, types, *lines: _flat_schema(keys)
    )
    with pytest.raises(ConfigError) as caught:
        load_profile()
    message = caught.value.text
    assert "structured-output limits" in message
    assert "is not supported in a schema (unsupported keyword)" in message
    assert "more like it" in message
    assert len(message) < 600  # one line per broken limit, not one per property


@pytest.mark.parametrize(
    ("schema", "limit"),
    [
        ({"type": "object", "properties": {}}, "additionalProperties"),
        ({"type": "array", "items": {"type": "string"}, "minItems": 2}, "array constraint"),
        ({"type": "string", "maxLength": 5}, "unsupported keyword"),
        ({"$ref": "https://example.com/s.json"}, "external $ref"),
        (
            {
                "type": "object",
                "additionalProperties": False,
                "required": [],
                "properties": {f"p{n}": {"type": "string"} for n in range(25)},
            },
            "optional parameters",
        ),
    ],
)
def test_each_limit_is_named(schema: dict[str, Any], limit: str) -> None:
    assert limit in {p.limit for p in schema_problems(schema)}
    with pytest.raises(Refusal):
        _through_the_fake(schema)


def test_lines_stay_inside_the_limits_however_many_columns() -> None:
    """Every line property is required and a string (``""`` for absent): 40 columns
    add no optional and no union-typed parameter, and the fake accepts the schema."""
    columns = ["no", "name", "net", *(f"col_{n}" for n in range(37))]
    schema = answer_schema.answer_schema(["number", "amount"], ["invoice", "unknown"], columns)
    assert schema_problems(schema) == []
    _through_the_fake(schema)
    row = schema["properties"]["documents"]["items"]["properties"]["lines"]["items"]
    assert set(row["required"]) == set(row["properties"]) >= set(columns)


def test_a_nullable_line_column_is_refused_by_both_checks() -> None:
    """The shape the API refuses: a nullable string per column is a union each, and
    17 of them cross the 16 union-typed parameters allowed per request."""
    columns = ["no", "name", "net", *(f"col_{n}" for n in range(14))]
    schema = answer_schema.answer_schema(["number"], ["invoice", "unknown"], columns)
    row = schema["properties"]["documents"]["items"]["properties"]["lines"]["items"]
    for name in columns:
        row["properties"][name] = {"type": ["string", "null"]}
    assert {p.limit for p in schema_problems(schema)} == {"union-typed parameters"}
    with pytest.raises(Refusal, match="parameters with union types; at most 16"):
        _through_the_fake(schema)
