"""Each documented rule the fake enforces, shown refusing a bad request through the
real SDK: the status, the SDK's exception class, the error type and the wording."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anthropic
import pytest

from tests.fakes.anthropic_rules import MAX_BATCH_BYTES, Refusal, check_batch
from tests.fakes.anthropic_server import FakeAnthropic
from tests.fakes.test_anthropic_fake import IMAGE, _client, _content

MODEL = "claude-haiku-5-5"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as server:
        yield server


@pytest.fixture
def client(fake: FakeAnthropic) -> Iterator[anthropic.Anthropic]:
    fake.reset()
    with _client(fake, key="k") as sdk:
        yield sdk


def _params(**extra: Any) -> dict[str, Any]:
    return {
        "model": MODEL,
        "max_tokens": 4000,
        "messages": [{"role": "user", "content": _content([(1, "Счёт № 5")])}],
        **extra,
    }


def _schema(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {
        "output_config": {
            "format": {
                "type": "json_schema",
                "schema": {
                    "type": "object",
                    "properties": properties,
                    "required": list(properties) if required is None else required,
                    "additionalProperties": False,
                },
            }
        }
    }


def _refused(client: anthropic.Anthropic, params: dict[str, Any], status: int = 400) -> str:
    with pytest.raises(anthropic.APIStatusError) as caught:
        client.messages.create(**params)
    assert caught.value.status_code == status
    body = caught.value.body
    assert isinstance(body, dict) and body["type"] == "error"
    return f"{body['error']['type']}: {body['error']['message']}"


# --------------------------------------------------------------- structured outputs


def test_numeric_and_length_constraints_are_refused(client: anthropic.Anthropic) -> None:
    reason = _refused(client, _params(**_schema({"n": {"type": "integer", "minimum": 1}})))
    assert reason == (
        "invalid_request_error: output_config.format.schema.properties.n: For 'integer' "
        "type, property 'minimum' is not supported (numerical constraints are not supported)"
    )
    reason = _refused(client, _params(**_schema({"s": {"type": "string", "maxLength": 9}})))
    assert "'maxLength' is not supported" in reason


def test_more_than_16_union_typed_parameters_are_refused(client: anthropic.Anthropic) -> None:
    union = {"type": ["string", "null"]}
    assert client.messages.create(**_params(**_schema({f"p{n}": union for n in range(16)})))
    reason = _refused(client, _params(**_schema({f"p{n}": union for n in range(17)})))
    assert "17 parameters with union types; at most 16" in reason


def test_more_than_24_optional_parameters_are_refused(client: anthropic.Anthropic) -> None:
    props = {f"p{n}": {"type": "string"} for n in range(26)}
    assert client.messages.create(**_params(**_schema(props, required=["p0", "p1"])))
    reason = _refused(client, _params(**_schema(props, required=["p0"])))
    assert "25 optional parameters; at most 24" in reason


def test_objects_must_forbid_additional_properties(client: anthropic.Anthropic) -> None:
    params = _params(**_schema({"o": {"type": "object", "properties": {}}}))
    assert "'additionalProperties' must be explicitly set to false" in _refused(client, params)


# ---------------------------------------------------------------- thinking, effort


def test_forced_tool_choice_is_refused_while_thinking_is_on(client: anthropic.Anthropic) -> None:
    tool = {"name": "record", "input_schema": {"type": "object"}}
    forced = {"tools": [tool], "tool_choice": {"type": "tool", "name": "record"}}
    assert "while thinking is on" in _refused(client, _params(**forced))  # Haiku 5.5 default
    off = client.messages.create(**_params(thinking={"type": "disabled"}, **forced))
    assert off.content[-1].type == "tool_use"
    sonnet = _params(model="claude-sonnet-5-5", thinking={"type": "between_tools"}, **forced)
    assert 'type "tool" and "any" are not supported for this model' in _refused(client, sonnet)


def test_thinking_and_effort_values_a_model_does_not_accept(client: anthropic.Anthropic) -> None:
    opus = _params(model="claude-opus-5-5", thinking={"type": "disabled"})
    assert '"thinking.type.disabled" is not supported for this model' in _refused(client, opus)
    sonnet = _params(model="claude-sonnet-5-5", thinking={"type": "disabled"})
    assert "not supported for this model" in _refused(client, sonnet)
    xhigh = _params(thinking={"type": "disabled"}, output_config={"effort": "xhigh"})
    assert 'not supported at effort "xhigh"' in _refused(client, xhigh)
    haiku45 = _params(model="claude-haiku-4-5", output_config={"effort": "low"})
    assert "'low' is not supported for this model" in _refused(client, haiku45)
    with pytest.raises(anthropic.BadRequestError, match=r"output_config\.effort"):
        client.messages.create(**_params(output_config={"effort": "extreme"}))
    with pytest.raises(anthropic.BadRequestError, match="temperature"):
        client.messages.create(**_params(), extra_body={"temperature": 0})


def test_thinking_tokens_are_reported_and_can_run_out(client: anthropic.Anthropic) -> None:
    on = client.messages.create(**_params())  # Haiku 5.5 thinks by default, effort medium
    assert on.usage.output_tokens_details is not None
    assert on.usage.output_tokens_details.thinking_tokens == 900
    assert on.content[0].type == "thinking" and on.stop_reason == "end_turn"
    assert on.usage.output_tokens > 900
    off = client.messages.create(**_params(thinking={"type": "disabled"}))
    assert off.usage.output_tokens_details.thinking_tokens == 0
    assert off.content[0].type == "text"
    short = client.messages.create(**_params(max_tokens=950))
    assert short.stop_reason == "max_tokens" and short.usage.output_tokens == 950
    with pytest.raises(json.JSONDecodeError):
        json.loads(short.content[-1].text)
    too_many = _params(max_tokens=128_001, timeout=30)
    assert "maximum allowed number of output tokens" in _refused(client, too_many)


# ------------------------------------------------------------------ sizes, counts


def test_more_than_100_images_are_refused(client: anthropic.Anthropic) -> None:
    image = {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/jpeg", "data": IMAGE},
    }
    params = _params(messages=[{"role": "user", "content": [image] * 101}])
    assert "too many images (101); at most 100" in _refused(client, params)


def test_a_request_over_32_mb_is_too_large(client: anthropic.Anthropic) -> None:
    big = _params(messages=[{"role": "user", "content": "x" * (32 * 1024 * 1024 + 1)}])
    with pytest.raises(anthropic.RequestTooLargeError) as caught:
        client.messages.create(**big)
    assert caught.value.status_code == 413
    assert caught.value.body["error"]["type"] == "request_too_large"


def test_an_unknown_model_is_not_found(client: anthropic.Anthropic) -> None:
    with pytest.raises(anthropic.NotFoundError, match=r"model: claude-opus-5-5-preview"):
        client.messages.create(**_params(model="claude-opus-5-5-preview"))
    with pytest.raises(anthropic.NotFoundError):
        client.messages.count_tokens(model="claude-x", messages=[{"role": "user", "content": "."}])


def test_count_tokens_holds_the_same_rules(client: anthropic.Anthropic) -> None:
    with pytest.raises(anthropic.BadRequestError, match="'minimum' is not supported"):
        client.messages.count_tokens(
            model=MODEL,
            messages=[{"role": "user", "content": "."}],
            **_schema({"n": {"type": "integer", "minimum": 1}}),
        )


# ------------------------------------------------------------------------- batches


def test_batch_custom_ids_must_be_unique_and_well_formed(client: anthropic.Anthropic) -> None:
    params = _params(thinking={"type": "disabled"})
    for bad in ("job 1", "j" * 65, "", "job/1"):
        with pytest.raises(anthropic.BadRequestError, match="custom_id"):
            client.messages.batches.create(requests=[{"custom_id": bad, "params": params}])
    twice = [{"custom_id": "a", "params": params}, {"custom_id": "a", "params": params}]
    with pytest.raises(anthropic.BadRequestError, match="duplicate custom_id"):
        client.messages.batches.create(requests=twice)


@pytest.mark.slow
def test_a_batch_over_100000_requests_is_refused(client: anthropic.Anthropic) -> None:
    tiny = {"model": MODEL, "max_tokens": 1, "messages": [{"role": "user", "content": "."}]}
    requests = [{"custom_id": f"r{n}", "params": tiny} for n in range(100_001)]
    with pytest.raises(anthropic.BadRequestError, match="at most 100000 requests"):
        client.messages.batches.create(requests=requests)


def test_a_batch_over_256_mb_is_too_large() -> None:
    """Checked on the rule itself: sending 256 MB through a test would take minutes."""
    body = {"requests": [{"custom_id": "a", "params": {}}]}
    with pytest.raises(Refusal) as caught:
        check_batch(body, MAX_BATCH_BYTES + 1)
    assert (caught.value.status, caught.value.error_type) == (413, "request_too_large")
    assert check_batch(body, MAX_BATCH_BYTES) == [("a", {})]


def test_an_invalid_entry_comes_back_errored(
    client: anthropic.Anthropic, fake: FakeAnthropic
) -> None:
    good = _params(thinking={"type": "disabled"})
    bad = _params(model="claude-opus-5-5", thinking={"type": "disabled"})
    batch = client.messages.batches.create(
        requests=[{"custom_id": "good", "params": good}, {"custom_id": "bad", "params": bad}]
    )
    client.messages.batches.retrieve(batch.id)
    results = {r.custom_id: r.result for r in client.messages.batches.results(batch.id)}
    assert results["good"].type == "succeeded"
    assert results["bad"].type == "errored"
    assert results["bad"].error.error.type == "invalid_request_error"
    assert "thinking.type.disabled" in results["bad"].error.error.message


def test_batches_are_listed_newest_first(client: anthropic.Anthropic) -> None:
    params = _params(thinking={"type": "disabled"})
    ids = [
        client.messages.batches.create(requests=[{"custom_id": "a", "params": params}]).id
        for _ in range(3)
    ]
    listed = [b.id for b in client.messages.batches.list(limit=10)]
    assert listed[:3] == ids[::-1]


def test_a_prefix_under_the_models_minimum_is_not_cached(client: anthropic.Anthropic) -> None:
    """build-with-claude/prompt-caching: no error, and no cache write or read."""
    short = [{"type": "text", "text": "Rules. " * 300, "cache_control": {"type": "ephemeral"}}]
    for _ in range(2):
        usage = client.messages.create(**_params(system=short)).usage
        assert usage.cache_creation_input_tokens == usage.cache_read_input_tokens == 0
    long = [{"type": "text", "text": "Rules. " * 3000, "cache_control": {"type": "ephemeral"}}]
    first = client.messages.create(**_params(system=long)).usage
    second = client.messages.create(**_params(system=long)).usage
    assert first.cache_creation_input_tokens > 4096 and second.cache_read_input_tokens > 4096


def _system(*ttls: str | None) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    for index, ttl in enumerate(ttls):
        mark: dict[str, Any] = {"type": "ephemeral"}
        if ttl is not None:
            mark["ttl"] = ttl
        blocks.append({"type": "text", "text": f"Rules {index}. " * 400, "cache_control": mark})
    return blocks


def test_a_cache_lifetime_other_than_5m_or_1h_is_refused(client: anthropic.Anthropic) -> None:
    """build-with-claude/prompt-caching: ``ttl`` is "5m" or "1h"."""
    message = _refused(client, _params(system=_system("24h")))
    assert "system.0.cache_control.ttl" in message
    client.messages.create(**_params(system=_system("1h")))  # both lifetimes pass
    client.messages.create(**_params(system=_system("5m")))


def test_a_1h_cache_mark_after_a_5m_one_is_refused(client: anthropic.Anthropic) -> None:
    """build-with-claude/prompt-caching, mixing TTLs: longer lifetimes come first."""
    message = _refused(client, _params(system=_system(None, "1h")))
    assert "cannot come after" in message and "system.1.cache_control" in message
    client.messages.create(**_params(system=_system("1h", None)))


def test_more_than_four_cache_breakpoints_are_refused(client: anthropic.Anthropic) -> None:
    """build-with-claude/prompt-caching: up to 4 cache breakpoints per request."""
    message = _refused(client, _params(system=_system("1h", "1h", "1h", None, None)))
    assert "maximum of 4 blocks with cache_control" in message and "Found 5" in message
    client.messages.create(**_params(system=_system("1h", "1h", None, None)))


def test_a_1h_cache_write_is_reported_as_such(client: anthropic.Anthropic) -> None:
    """build-with-claude/prompt-caching: ``usage.cache_creation`` splits the write by
    lifetime; the next request with the same prefix reads it."""
    system = [
        {
            "type": "text",
            "text": "Rules. " * 3000,
            "cache_control": {"type": "ephemeral", "ttl": "1h"},
        }
    ]
    first = client.messages.create(**_params(system=system)).usage
    assert first.cache_creation is not None
    assert (
        first.cache_creation.ephemeral_1h_input_tokens == first.cache_creation_input_tokens > 4096
    )
    second = client.messages.create(**_params(system=system)).usage
    assert second.cache_read_input_tokens == first.cache_creation_input_tokens
