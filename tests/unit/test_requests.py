"""Requests: ids, grouping, API limits, and the two output modes."""

from __future__ import annotations

import base64
import io
import os
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from docbatch_gui.config.profile import Profile, load_profile
from docbatch_gui.llm.prompt import TOOL_NAME
from docbatch_gui.llm.requests import (
    MAX_IMAGE_BASE64,
    MAX_IMAGES,
    ExtractionRequest,
    OutputMode,
    PagePayload,
    build_request,
    custom_id,
    fit_image,
    parse_custom_id,
)


@pytest.fixture(scope="module")
def profile() -> Profile:
    return load_profile()


def build_requests(
    job_id: int,
    file_name: str,
    pages: list[PagePayload],
    profile: Profile,
    *,
    model: str,
    group_size: int,
    max_tokens: int,
    output_mode: OutputMode = OutputMode.JSON_SCHEMA,
) -> list[ExtractionRequest]:
    """A job's requests, group by group, as the extract step builds them one by one."""
    size = max(1, min(group_size, MAX_IMAGES))
    return [
        build_request(
            job_id,
            file_name,
            number,
            pages[start : start + size],
            profile,
            total_pages=pages[-1].page_no,
            model=model,
            group_size=size,
            max_tokens=max_tokens,
            output_mode=output_mode,
        )
        for number, start in enumerate(range(0, len(pages), size), start=1)
    ]


def jpeg(size: tuple[int, int], noise: bool = False) -> bytes:
    image = (
        Image.frombytes("L", size, os.urandom(size[0] * size[1]))
        if noise
        else Image.new("L", size, 200)
    )
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=95)
    return buffer.getvalue()


def image_sizes(params: dict) -> list[tuple[int, int]]:
    blocks = [b for b in params["messages"][0]["content"] if b["type"] == "image"]
    return [Image.open(io.BytesIO(base64.b64decode(b["source"]["data"]))).size for b in blocks]


@given(st.integers(1, 10**15), st.integers(1, 10**6))
def test_custom_id_is_within_the_api_rules_and_round_trips(job_id: int, group: int) -> None:
    value = custom_id(job_id, group)
    assert len(value) <= 64
    assert re.fullmatch(r"[A-Za-z0-9_-]+", value)
    assert parse_custom_id(value) == (job_id, group)


def test_pages_are_grouped_by_eight_in_order(profile: Profile) -> None:
    pages = [PagePayload(n, jpeg((90, 120)), f"text {n}") for n in range(1, 21)]
    requests = build_requests(3, "f.pdf", pages, profile, model="m", group_size=8, max_tokens=99)
    assert [r.custom_id for r in requests] == ["job_3_batch_1", "job_3_batch_2", "job_3_batch_3"]
    assert [r.pages for r in requests] == [
        tuple(range(1, 9)),
        tuple(range(9, 17)),
        tuple(range(17, 21)),
    ]
    content = requests[2].params["messages"][0]["content"]
    assert content[0]["text"].startswith("File name: f.pdf\nRequest id: job_3_batch_3")
    assert content[1]["text"] == '<page index="1" source_page="17">\ntext 17\n</page>'
    assert content[2]["type"] == "image"
    assert requests[0].params["max_tokens"] == 99


def test_structured_output_and_forced_tool_modes(profile: Profile) -> None:
    pages = [PagePayload(1, jpeg((90, 120)), "")]
    (schema_mode,) = build_requests(
        1, "f.pdf", pages, profile, model="m", group_size=8, max_tokens=9
    )
    assert schema_mode.params["output_config"]["format"]["type"] == "json_schema"
    assert "tools" not in schema_mode.params
    (tool_mode,) = build_requests(
        1,
        "f.pdf",
        pages,
        profile,
        model="m",
        group_size=8,
        max_tokens=9,
        output_mode=OutputMode.TOOL,
    )
    assert tool_mode.params["tool_choice"] == {"type": "tool", "name": TOOL_NAME}
    assert "output_config" not in tool_mode.params
    # the shared prefix is marked for prompt caching
    assert schema_mode.params["system"][-1]["cache_control"] == {"type": "ephemeral"}
    assert "no text layer" in schema_mode.params["messages"][0]["content"][1]["text"]


@pytest.mark.slow
def test_oversized_images_are_reencoded_within_limits() -> None:
    wide, width, height = fit_image(jpeg((9000, 300)), max_side=8000, max_base64=MAX_IMAGE_BASE64)
    assert max(width, height) <= 8000
    assert Image.open(io.BytesIO(wide)).size == (width, height)
    noisy = jpeg((3000, 3000), noise=True)
    assert len(base64.b64encode(noisy)) > MAX_IMAGE_BASE64
    small, _, _ = fit_image(noisy, max_side=8000, max_base64=MAX_IMAGE_BASE64)
    assert len(base64.b64encode(small)) <= MAX_IMAGE_BASE64


def test_an_image_within_limits_is_sent_as_it_is() -> None:
    data = jpeg((900, 1275))
    assert fit_image(data, max_side=8000, max_base64=MAX_IMAGE_BASE64)[0] is data


def test_more_than_twenty_images_get_the_2000_px_limit(profile: Profile) -> None:
    pages = [PagePayload(n, jpeg((2400, 120)), "") for n in range(1, 23)]  # over 2000 px wide
    (request,) = build_requests(1, "f.pdf", pages, profile, model="m", group_size=30, max_tokens=9)
    assert all(max(size) <= 2000 for size in image_sizes(request.params))
    assert request.size_bytes < 32 * 2**20


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(OutputMode))
def test_requests_validate_against_the_sdk_request_types(
    profile: Profile, mode: OutputMode
) -> None:
    """The SDK's own TypedDicts: a wrong shape in our params (messages, system,
    output_config, tools) or a key the API does not know fails here, not at the API."""
    import typing

    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming
    from anthropic.types.messages.batch_create_params import Request
    from pydantic import TypeAdapter

    pages = [PagePayload(n, jpeg((90, 120)), f"text {n}") for n in range(1, 4)]
    (request,) = build_requests(
        1,
        "f.pdf",
        pages,
        profile,
        model="claude-haiku-5-5",
        group_size=8,
        max_tokens=99,
        output_mode=mode,
    )
    TypeAdapter(MessageCreateParamsNonStreaming).validate_python(request.params, strict=True)
    TypeAdapter(Request).validate_python(
        {"custom_id": request.custom_id, "params": request.params}, strict=True
    )
    known = set(typing.get_type_hints(MessageCreateParamsNonStreaming))
    assert set(request.params) <= known, set(request.params) - known
    with pytest.raises(ValueError):
        TypeAdapter(MessageCreateParamsNonStreaming).validate_python(
            {**request.params, "max_tokens": "many"}, strict=True
        )
