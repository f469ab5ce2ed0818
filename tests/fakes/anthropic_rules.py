"""The Claude API's documented request rules, as the fake server enforces them.

A fake is only as good as what it refuses: the first fake accepted a schema the real
API refuses, and every test passed while every real request would have failed. Each
rule below cites the documentation page it comes from (all under
https://platform.claude.com/docs/en/). The model table is the fake's own, written from
the model pages, and deliberately not read from DocBatch's catalogue: a test then
catches a catalogue that claims a model accepts what it does not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MAX_BATCH_BYTES",
    "MAX_BATCH_REQUESTS",
    "MAX_REQUEST_BYTES",
    "MODELS",
    "FakeModel",
    "Refusal",
    "check_batch",
    "check_message",
    "thinking_is_on",
    "thinking_tokens",
]

# api/errors: "Messages API 32 MB ... Batch API 256 MB ... 413 request_too_large"
MAX_REQUEST_BYTES = 32 * 1024 * 1024
MAX_BATCH_BYTES = 256 * 1024 * 1024
# build-with-claude/batch-processing: "100,000 Message requests or 256 MB"
MAX_BATCH_REQUESTS = 100_000
# build-with-claude/batch-processing: custom_id "^[a-zA-Z0-9_-]{1,64}$"
CUSTOM_ID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
# build-with-claude/vision: at most 100 images per request (the limit DocBatch was
# built against; newer 1M-context models allow more, so this errs on the safe side)
MAX_IMAGES = 100
# build-with-claude/structured-outputs, "JSON Schema limitations"
MAX_STRICT_TOOLS = 20
MAX_OPTIONAL = 24
MAX_UNIONS = 16
UNSUPPORTED = {
    "minimum": "numerical constraints",
    "maximum": "numerical constraints",
    "exclusiveMinimum": "numerical constraints",
    "exclusiveMaximum": "numerical constraints",
    "multipleOf": "numerical constraints",
    "minLength": "string constraints",
    "maxLength": "string constraints",
    "maxItems": "array constraints",
    "uniqueItems": "array constraints",
}
# build-with-claude/effort: "low", "medium", "high", "xhigh", "max"
EFFORTS = ("low", "medium", "high", "xhigh", "max")
# build-with-claude/thinking (and the model pages): Sonnet 5 and later refuse sampling
SAMPLING = ("temperature", "top_p", "top_k")
# build-with-claude/prompt-caching: "ttl" is "5m" (the default) or "1h"; up to 4
# cache breakpoints per request; with mixed lifetimes, longer ones come first
CACHE_TTLS = ("5m", "1h")
MAX_CACHE_BREAKPOINTS = 4
# a deterministic stand-in for how much a model thinks at each effort
THINKING_BY_EFFORT = {"low": 300, "medium": 900, "high": 2400, "xhigh": 5000, "max": 9000}


class Refusal(Exception):
    """What the API answers instead: ``status``, error ``type`` and ``message``."""

    def __init__(self, status: int, message: str, error_type: str = "invalid_request_error"):
        super().__init__(message)
        self.status = status
        self.message = message
        self.error_type = error_type


@dataclass(frozen=True)
class FakeModel:
    default_thinking: str  # "adaptive" (on unless turned off) or "off"
    accepted_thinking: tuple[str, ...]  # thinking.type values accepted
    off_efforts: tuple[str, ...]  # efforts at which the "off" type is accepted
    efforts: tuple[str, ...]
    default_effort: str | None
    forced_tool: str  # "always" | "without_thinking" | "never"
    max_output: int
    #: build-with-claude/prompt-caching: a shorter prefix is not cached, without an
    #: error (Haiku 5.5 and Opus 5.5 are not listed; Haiku 4.5's 4,096 and Sonnet
    #: 5's 1,024 are assumed for them)
    min_cache: int = 1024


_LOW_TO_HIGH = ("low", "medium", "high")
MODELS: dict[str, FakeModel] = {
    # models/haiku-5-5/overview; prompting-claude-haiku-5-5: thinking "disabled" only
    # at low, medium and high; default effort medium
    "claude-haiku-5-5": FakeModel(
        "adaptive",
        ("adaptive", "disabled"),
        _LOW_TO_HIGH,
        EFFORTS,
        "medium",
        "without_thinking",
        128_000,
        min_cache=4096,
    ),
    # models/sonnet-5-5/whats-new-sonnet-5-5: "between_tools" is the lowest setting,
    # "disabled" returns 400; forced tool use returns an error
    "claude-sonnet-5-5": FakeModel(
        "adaptive",
        ("adaptive", "between_tools"),
        _LOW_TO_HIGH,
        EFFORTS,
        "high",
        "never",
        128_000,
    ),
    # models/opus-5-5/whats-new-opus-5-5: thinking can't be disabled; forced tool
    # use returns an error; default effort medium
    "claude-opus-5-5": FakeModel(
        "adaptive", ("adaptive",), (), EFFORTS, "medium", "never", 128_000
    ),
    # models/fable-5-1/whats-new-fable-5-1: always on, forced tool refused
    "claude-fable-5-1": FakeModel(
        "adaptive", ("adaptive",), (), EFFORTS, "high", "never", 128_000, 512
    ),
    # models/sonnet-5/overview: adaptive on by default, "disabled" accepted
    "claude-sonnet-5": FakeModel(
        "adaptive",
        ("adaptive", "disabled"),
        _LOW_TO_HIGH,
        EFFORTS,
        "high",
        "without_thinking",
        128_000,
    ),
    # about-claude/models/whats-new-opus-5: "disabled" at effort high or below
    "claude-opus-5": FakeModel(
        "adaptive",
        ("adaptive", "disabled"),
        _LOW_TO_HIGH,
        EFFORTS,
        "high",
        "without_thinking",
        128_000,
        min_cache=512,
    ),
    # models/haiku-4-5/overview: extended thinking only (off unless enabled), no effort
    "claude-haiku-4-5": FakeModel(
        "off", ("enabled", "disabled"), (), (), None, "without_thinking", 64_000, 4096
    ),
}
MODELS["claude-haiku-4-5-20251001"] = MODELS["claude-haiku-4-5"]


def _model(body: Mapping[str, Any]) -> FakeModel:
    name = body.get("model")
    if not isinstance(name, str) or not name:
        raise Refusal(400, "model: Field required")
    if name not in MODELS:
        raise Refusal(404, f"model: {name}", "not_found_error")  # api/errors: 404
    return MODELS[name]


def _effort(body: Mapping[str, Any], model: FakeModel) -> str | None:
    config = body.get("output_config") or {}
    effort = config.get("effort") if isinstance(config, dict) else None
    if effort is None:
        return model.default_effort
    if effort not in EFFORTS:
        raise Refusal(400, f"output_config.effort: Input should be {', '.join(EFFORTS)}")
    if effort not in model.efforts:  # build-with-claude/effort: supported models only
        raise Refusal(400, f"output_config.effort: '{effort}' is not supported for this model")
    return effort


def min_cache_tokens(model: str) -> int:
    return MODELS[model].min_cache if model in MODELS else 1024


def thinking_is_on(body: Mapping[str, Any]) -> bool:
    """Whether the model thinks on this (already checked) request."""
    model = MODELS[body["model"]]
    kind = (body.get("thinking") or {}).get("type")
    if kind is None:
        return model.default_thinking == "adaptive"
    return kind in ("adaptive", "enabled")


def thinking_tokens(body: Mapping[str, Any]) -> int:
    """What the fake "model" spends thinking on this request (0 with thinking off)."""
    if not thinking_is_on(body):
        return 0
    effort = _effort(body, MODELS[body["model"]]) or "high"
    return THINKING_BY_EFFORT[effort]


def _thinking(body: Mapping[str, Any], model: FakeModel, effort: str | None) -> None:
    thinking = body.get("thinking")
    if thinking is None:
        return
    kind = thinking.get("type") if isinstance(thinking, dict) else None
    if kind not in model.accepted_thinking:
        # models/opus-5-5/whats-new-opus-5-5: the refusal's wording
        raise Refusal(
            400,
            f'"thinking.type.{kind}" is not supported for this model. Use '
            '"thinking.type.adaptive" and "output_config.effort" to control thinking behavior.',
        )
    turns_off = kind in ("disabled", "between_tools")
    if turns_off and model.efforts and effort not in model.off_efforts:
        # prompting-claude-haiku-5-5: "At xhigh and max the request returns a 400 error"
        raise Refusal(400, f'thinking.type "{kind}" is not supported at effort "{effort}"')
    if kind == "enabled" and int(thinking.get("budget_tokens") or 0) < 1024:
        raise Refusal(400, "thinking.budget_tokens: must be at least 1024")


def _tool_choice(body: Mapping[str, Any], model: FakeModel) -> None:
    choice = body.get("tool_choice") or {}
    if choice.get("type") not in ("tool", "any"):
        return
    # models/fable-5-1/whats-new-fable-5-1 (also Opus 5.5, Sonnet 5.5); and
    # build-with-claude/thinking-tool-workflows: forcing a tool errors while thinking
    if model.forced_tool == "never":
        raise Refusal(400, 'tool_choice: type "tool" and "any" are not supported for this model.')
    if model.forced_tool == "without_thinking" and thinking_is_on(body):
        raise Refusal(
            400,
            "tool_choice: forcing tool use is not supported while thinking is on; "
            'use tool_choice "auto" or "none", or turn thinking off.',
        )


def _nodes(schema: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    if not isinstance(schema, dict):
        return
    yield where, schema
    for name, sub in (schema.get("properties") or {}).items():
        yield from _nodes(sub, f"{where}.properties.{name}")
    if isinstance(schema.get("items"), dict):
        yield from _nodes(schema["items"], f"{where}.items")
    for key in ("anyOf", "allOf"):
        for index, sub in enumerate(schema.get(key) or []):
            yield from _nodes(sub, f"{where}.{key}.{index}")
    for key in ("$defs", "definitions"):
        for name, sub in (schema.get(key) or {}).items():
            yield from _nodes(sub, f"{where}.{key}.{name}")


def _schema(schema: Any, where: str) -> tuple[int, int]:
    """Refuse what structured outputs refuse; return (optional, union) counts."""
    if not isinstance(schema, dict):
        raise Refusal(400, f"{where}: a JSON schema object is required")
    optional = unions = 0
    for path, node in _nodes(schema, where):
        kind = node.get("type")
        for keyword, family in UNSUPPORTED.items():
            if keyword in node:
                shown = kind if isinstance(kind, str) else "schema"
                raise Refusal(
                    400,
                    f"{path}: For '{shown}' type, property '{keyword}' is not supported "
                    f"({family} are not supported)",
                )
        if node.get("minItems", 0) not in (0, 1):
            raise Refusal(400, f"{path}: minItems values other than 0 or 1 are not supported")
        ref = node.get("$ref")
        if isinstance(ref, str) and not ref.startswith("#"):
            raise Refusal(400, f"{path}: external $ref is not supported")
        if isinstance(ref, str) and path.startswith(where + ref[1:].replace("/", ".")):
            raise Refusal(400, f"{path}: recursive schemas are not supported")
        if kind == "object" or "properties" in node:
            if node.get("additionalProperties", True) is not False:
                raise Refusal(
                    400, f"{path}: 'additionalProperties' must be explicitly set to false"
                )
            required = set(node.get("required") or [])
            optional += sum(1 for name in node.get("properties") or {} if name not in required)
        if (isinstance(kind, list) and len(kind) > 1) or node.get("anyOf"):
            unions += 1
    return optional, unions


def _schemas(body: Mapping[str, Any]) -> None:
    optional = unions = 0
    config = body.get("output_config") or {}
    fmt = config.get("format") if isinstance(config, dict) else None
    if fmt is not None:
        if fmt.get("type") != "json_schema":
            raise Refusal(400, "output_config.format.type: Input should be 'json_schema'")
        found = _schema(fmt.get("schema"), "output_config.format.schema")
        optional, unions = optional + found[0], unions + found[1]
    strict = [t for t in body.get("tools") or [] if isinstance(t, dict) and t.get("strict")]
    if len(strict) > MAX_STRICT_TOOLS:
        raise Refusal(400, f"Too many strict tools: {len(strict)} (at most {MAX_STRICT_TOOLS})")
    for index, tool in enumerate(strict):
        found = _schema(tool.get("input_schema"), f"tools.{index}.input_schema")
        optional, unions = optional + found[0], unions + found[1]
    if optional > MAX_OPTIONAL:
        raise Refusal(
            400,
            f"Schemas contain {optional} optional parameters; at most {MAX_OPTIONAL} "
            "are supported per request",
        )
    if unions > MAX_UNIONS:
        raise Refusal(
            400,
            f"Schemas contain {unions} parameters with union types; at most {MAX_UNIONS} "
            "are supported per request",
        )


def _images(body: Mapping[str, Any]) -> None:
    count = sum(
        1
        for message in body.get("messages") or []
        if isinstance(message, dict) and isinstance(message.get("content"), list)
        for block in message["content"]
        if isinstance(block, dict) and block.get("type") == "image"
    )
    if count > MAX_IMAGES:
        raise Refusal(400, f"messages: too many images ({count}); at most {MAX_IMAGES} per request")


def _cache_marks(body: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """Every ``cache_control`` in the order the API reads the prompt: tools, system,
    then messages (build-with-claude/prompt-caching, "cache prefixes are created in
    the following order: tools, system, then messages")."""
    if "cache_control" in body:  # automatic caching: one mark on the request
        yield "cache_control", body["cache_control"]
    for index, tool in enumerate(body.get("tools") or []):
        if isinstance(tool, dict) and "cache_control" in tool:
            yield f"tools.{index}.cache_control", tool["cache_control"]
    system = body.get("system")
    for index, block in enumerate(system if isinstance(system, list) else []):
        if isinstance(block, dict) and "cache_control" in block:
            yield f"system.{index}.cache_control", block["cache_control"]
    for m_index, message in enumerate(body.get("messages") or []):
        content = message.get("content") if isinstance(message, dict) else None
        for index, block in enumerate(content if isinstance(content, list) else []):
            if isinstance(block, dict) and "cache_control" in block:
                yield f"messages.{m_index}.content.{index}.cache_control", block["cache_control"]


def _cache_controls(body: Mapping[str, Any]) -> None:
    """build-with-claude/prompt-caching: the mark's type and lifetime, at most four
    breakpoints, and "cache entries with longer TTL must appear before shorter TTLs"
    (a 1-hour mark after a 5-minute one is refused)."""
    marks = list(_cache_marks(body))
    if len(marks) > MAX_CACHE_BREAKPOINTS:
        raise Refusal(
            400,
            f"A maximum of {MAX_CACHE_BREAKPOINTS} blocks with cache_control may be "
            f"provided. Found {len(marks)}.",
        )
    shorter_seen = None
    for where, mark in marks:
        if not isinstance(mark, dict) or mark.get("type") != "ephemeral":
            raise Refusal(400, f"{where}.type: Input should be 'ephemeral'")
        ttl = mark.get("ttl", "5m")
        if ttl not in CACHE_TTLS:
            raise Refusal(400, f"{where}.ttl: Input should be '5m' or '1h'")
        if ttl == "1h" and shorter_seen is not None:
            raise Refusal(
                400,
                f"{where}: a cache_control with ttl '1h' cannot come after one with ttl "
                f"'5m' ({shorter_seen}); longer TTLs must appear before shorter ones",
            )
        if ttl == "5m" and shorter_seen is None:
            shorter_seen = where


def check_message(body: Any, *, counting: bool = False) -> None:
    """Every documented rule of one Messages request (``counting``: count_tokens,
    which takes the same body without ``max_tokens``)."""
    if not isinstance(body, dict):
        raise Refusal(400, "body: an object is required")
    model = _model(body)
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise Refusal(400, "messages: a non-empty list is required")
    if not counting:
        max_tokens = body.get("max_tokens")
        if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
            raise Refusal(400, "max_tokens: a positive integer is required")
        if max_tokens > model.max_output:
            raise Refusal(
                400,
                f"max_tokens: {max_tokens} > {model.max_output}, which is the maximum "
                f"allowed number of output tokens for {body['model']}",
            )
    for name in SAMPLING:
        if name in body:
            raise Refusal(400, f"{name}: Extra inputs are not permitted")
    effort = _effort(body, model)
    _thinking(body, model, effort)
    _tool_choice(body, model)
    _schemas(body)
    _images(body)
    _cache_controls(body)


def check_batch(body: Any, raw_size: int) -> list[tuple[str, dict[str, Any]]]:
    """The batch-level rules; each request's own rules are checked when it runs, as
    on the API (an invalid one comes back errored)."""
    if raw_size > MAX_BATCH_BYTES:
        raise Refusal(
            413, "Request exceeds the maximum allowed number of bytes", "request_too_large"
        )
    requests = body.get("requests") if isinstance(body, dict) else None
    if not isinstance(requests, list) or not requests:
        raise Refusal(400, "requests: a non-empty list is required")
    if len(requests) > MAX_BATCH_REQUESTS:
        raise Refusal(400, f"requests: at most {MAX_BATCH_REQUESTS} requests per batch")
    seen: set[str] = set()
    for index, item in enumerate(requests):
        custom_id = item.get("custom_id") if isinstance(item, dict) else None
        if not isinstance(custom_id, str) or not CUSTOM_ID.match(custom_id):
            raise Refusal(
                400, f"requests.{index}.custom_id: must be 1-64 characters of [a-zA-Z0-9_-]"
            )
        if custom_id in seen:
            raise Refusal(400, f"requests.{index}.custom_id: duplicate custom_id {custom_id!r}")
        if not isinstance(item.get("params"), dict):
            raise Refusal(400, f"requests.{index}.params: an object is required")
        seen.add(custom_id)
    return [(r["custom_id"], r["params"]) for r in requests]
