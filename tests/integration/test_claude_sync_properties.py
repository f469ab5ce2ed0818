"""Seed 001's properties of the sync runner, with hypothesis, over real HTTP.

The fake's "model" is scripted here: it echoes each request's id into the answer and
records how many requests the server is handling at once, so mapping and the
concurrency bound are observed at the server, not inside the runner.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from docbatch_gui.config.profile import Profile, load_profile
from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.llm.claude import ClaudeSync
from docbatch_gui.llm.requests import ExtractionRequest, PagePayload, build_request
from docbatch_gui.settings.loading import load_settings
from tests.fakes.anthropic_answers import parse_request, wire_document
from tests.fakes.anthropic_server import FakeAnthropic

PROFILE: Profile = load_profile()
KEYS = PROFILE.field_keys
EXAMPLES = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


class EchoModel:
    """Answers one document whose ``number`` is the request id; tracks concurrency."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.active = 0
        self.peak = 0
        self.delay = 0.0

    def __call__(self, body: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            self.active += 1
            self.peak = max(self.peak, self.active)
        try:
            time.sleep(self.delay)
            parsed = parse_request(body)
            fields = {k: None for k in KEYS} | {"number": parsed.request_id}
            return {"documents": [wire_document(1, len(parsed.pages), "invoice", fields)]}
        finally:
            with self.lock:
                self.active -= 1


@pytest.fixture(scope="module")
def echo() -> Iterator[tuple[FakeAnthropic, EchoModel]]:
    model = EchoModel()
    with FakeAnthropic(model_answer=model, keep_image_data=False) as server:
        yield server, model


def tiny_jpeg() -> bytes:
    buffer = io.BytesIO()
    Image.new("L", (16, 16), 128).save(buffer, "JPEG")
    return buffer.getvalue()


JPEG = tiny_jpeg()


def requests_for(shape: list[tuple[int, int]]) -> list[ExtractionRequest]:
    """(job, group) pairs → one one-page request each."""
    return [
        build_request(
            job,
            f"file_{job}.pdf",
            group,
            [PagePayload(group, JPEG, f"page of job {job}")],
            PROFILE,
            total_pages=group,
            model="claude-haiku-5-5",
            group_size=8,
            max_tokens=1024,
        )
        for job, group in shape
    ]


def run(
    server: FakeAnthropic, requests: list[ExtractionRequest], concurrency: int = 4
) -> tuple[list, ClaudeSync]:
    async def main() -> tuple[list, ClaudeSync]:
        claude = ClaudeSync(
            api_key="test-key",
            base_url=server.url,
            profile=PROFILE,
            max_concurrency=concurrency,
            timeout=10,
            max_retries=0,
            request_retries=0,
            strict_responses=True,
        )
        try:
            return await claude.extract(requests), claude
        finally:
            await claude.close()

    return asyncio.run(main())


shapes = st.lists(
    st.tuples(st.integers(1, 4), st.integers(1, 6)), min_size=1, max_size=10, unique=True
)


@pytest.mark.slow
@EXAMPLES
@given(shapes, st.data())
def test_partition_nothing_lost_or_doubled(
    echo: tuple[FakeAnthropic, EchoModel], shape: list[tuple[int, int]], data: st.DataObject
) -> None:
    server, _ = echo
    server.reset()
    failing = data.draw(st.sets(st.sampled_from(shape)))
    server.fail_custom_ids({f"job_{j}_batch_{g}" for j, g in failing}, 500)
    outcomes, _ = run(server, requests_for(shape))
    ids = [o.request.custom_id for o in outcomes]
    assert sorted(ids) == sorted(f"job_{j}_batch_{g}" for j, g in shape)
    assert len(set(ids)) == len(ids)
    assert {(o.request.job_id, o.request.group) for o in outcomes if not o.ok} == set(failing)


@pytest.mark.slow
@EXAMPLES
@given(shapes, st.integers(1, 5))
def test_the_concurrency_bound_is_never_exceeded(
    echo: tuple[FakeAnthropic, EchoModel], shape: list[tuple[int, int]], bound: int
) -> None:
    server, model = echo
    server.reset()
    model.peak, model.delay = 0, 0.01
    outcomes, claude = run(server, requests_for(shape), concurrency=bound)
    model.delay = 0.0
    assert all(o.ok for o in outcomes)
    assert model.peak <= bound
    assert claude.peak_in_flight <= bound


def test_the_bound_is_actually_reached(echo: tuple[FakeAnthropic, EchoModel]) -> None:
    """Guard for the test above: with slow answers, requests really overlap."""
    server, model = echo
    server.reset()
    model.peak, model.delay = 0, 0.1
    run(server, requests_for([(1, g) for g in range(1, 9)]), concurrency=4)
    model.delay = 0.0
    assert model.peak == 4


@pytest.mark.slow
@EXAMPLES
@given(shapes.flatmap(lambda s: st.tuples(st.just(s), st.permutations(s))))
def test_order_is_deterministic_whatever_the_input_order(
    echo: tuple[FakeAnthropic, EchoModel], pair: tuple[list, list]
) -> None:
    server, _ = echo
    server.reset()
    first, second = pair
    a, _ = run(server, requests_for(first))
    b, _ = run(server, requests_for(second))
    order = [o.request.custom_id for o in a]
    assert order == [o.request.custom_id for o in b]
    assert order == [f"job_{j}_batch_{g}" for j, g in sorted(first)]


@pytest.mark.slow
@EXAMPLES
@given(shapes)
def test_each_answer_maps_to_its_request(
    echo: tuple[FakeAnthropic, EchoModel], shape: list[tuple[int, int]]
) -> None:
    server, _ = echo
    server.reset()
    outcomes, _ = run(server, requests_for(shape))
    for outcome in outcomes:
        (document,) = outcome.documents or []
        assert document.fields["number"] == outcome.request.custom_id
        assert document.page_from == outcome.request.pages[0]


@pytest.mark.slow  # 100 settings loads; test_config.py checks refused values in the fast loop
@given(st.integers(-50, 50))
def test_config_accepts_exactly_1_to_20(value: int) -> None:
    if 1 <= value <= 20:
        assert load_settings(MAX_CONCURRENCY=value).max_concurrency == value
    else:
        with pytest.raises(ConfigError, match="MAX_CONCURRENCY"):
            load_settings(MAX_CONCURRENCY=value)


@pytest.mark.slow
@EXAMPLES
@given(shapes, st.data())
def test_log_counts_are_consistent(
    echo: tuple[FakeAnthropic, EchoModel], shape: list[tuple[int, int]], data: st.DataObject
) -> None:
    server, _ = echo
    server.reset()
    failing = data.draw(st.sets(st.sampled_from(shape)))
    server.fail_custom_ids({f"job_{j}_batch_{g}" for j, g in failing}, 500)
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logger = logging.getLogger("docbatch_gui.llm.claude")
    logger.addHandler(handler)
    old_level = logger.level
    logger.setLevel(logging.INFO)
    try:
        run(server, requests_for(shape), concurrency=3)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
    start = next(r.getMessage() for r in records if "extraction start" in r.getMessage())
    end = next(r.getMessage() for r in records if "extraction end" in r.getMessage())
    assert re.search(rf"start: {len(shape)} requests, concurrency 3", start)
    numbers = dict(re.findall(r"(requests|succeeded|failed) (\d+)", end.replace(": ", " ")))
    assert int(numbers["succeeded"]) + int(numbers["failed"]) == len(shape)
    assert int(numbers["failed"]) == len(failing)
