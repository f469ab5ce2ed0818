"""The fake Anthropic server speaks the wire format the real SDK expects.

Every test goes through the official ``anthropic`` client with strict response
validation, so a field the SDK would reject, a wrong status mapping or a results URL
it cannot follow fails here rather than in the pipeline tests that rely on the fake.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import ssl
import urllib.request
from collections.abc import Iterator
from typing import Any

import anthropic
import pytest
from anthropic.types.messages import MessageBatchIndividualResponse
from PIL import Image

from tests.fakes.anthropic_answers import count_tokens, wire_fields
from tests.fakes.anthropic_server import FakeAnthropic, expected_documents

MODEL = "claude-haiku-4-5"  # thinks only when asked: answers here carry no thinking
FILE_NAME = "Счет_55_от_01.04.2024.pdf"
INVOICE = """Счет на оплату № 55 от 01.04.2024
Поставщик: ООО «Север», ИНН 7701234560
Покупатель: АО «Юг», ИНН 5003123458
Итого к оплате: 2 400,00 руб."""
CONTINUATION = """Договор вступает в силу с момента подписания и действует до 31.12.2024 г.
Реквизиты сторон приведены ниже."""
SYSTEM = [
    {"type": "text", "text": "You split scanned files into documents. " * 450},  # > 4096 tokens
    {"type": "text", "text": "Schema: {...}", "cache_control": {"type": "ephemeral"}},
]


def _jpeg(width: int = 300, height: int = 400) -> str:
    buffer = io.BytesIO()
    Image.new("L", (width, height), 255).save(buffer, "JPEG")
    return base64.b64encode(buffer.getvalue()).decode()


IMAGE = _jpeg()  # 300 x 400 -> 11 x 15 = 165 tokens


def _content(pages: list[tuple[int, str]], request_id: str = "job_1_batch_1") -> list[Any]:
    """DocBatch's user content: a header block, then per page a text and an image block."""
    blocks: list[Any] = [
        {"type": "text", "text": f"File name: {FILE_NAME}\nRequest id: {request_id}"}
    ]
    for k, (source_page, text) in enumerate(pages, 1):
        tag = f'<page index="{k}" source_page="{source_page}">\n{text}\n</page>'
        blocks.append({"type": "text", "text": tag})
        blocks.append(
            {
                "type": "image",
                "source": {"type": "base64", "media_type": "image/jpeg", "data": IMAGE},
            }
        )
    return blocks


def _params(pages: list[tuple[int, str]], request_id: str = "job_1_batch_1") -> dict[str, Any]:
    return {
        "model": MODEL,
        "max_tokens": 2000,
        "system": SYSTEM,
        "messages": [{"role": "user", "content": _content(pages, request_id)}],
    }


@pytest.fixture
def fake() -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as server:
        yield server


#: A new SDK client loads the system's CA certificates, a tenth of a second of CPU each
#: time; the fake speaks plain HTTP, so the clients share one TLS context.
_TLS = ssl.create_default_context()


def _client(
    fake: FakeAnthropic, max_retries: int = 0, key: str = "test-key"
) -> anthropic.Anthropic:
    return anthropic.Anthropic(
        base_url=fake.url,
        api_key=key,
        max_retries=max_retries,
        _strict_response_validation=True,
        http_client=anthropic.DefaultHttpxClient(verify=_TLS),
    )


@pytest.fixture
def client(fake: FakeAnthropic) -> Iterator[anthropic.Anthropic]:
    with _client(fake) as sdk:
        yield sdk


# ------------------------------------------------------------------------ messages


def test_message_round_trip_answers_from_page_text(
    fake: FakeAnthropic, client: anthropic.Anthropic
) -> None:
    pages = [(1, INVOICE), (2, CONTINUATION)]
    message = client.messages.create(**_params(pages))
    assert message.stop_reason == "end_turn" and message.content[0].type == "text"
    answer = json.loads(message.content[0].text)
    assert answer == expected_documents(FILE_NAME, pages)
    doc = answer["documents"][0]
    assert (doc["page_from"], doc["page_to"], doc["doc_type"]) == (1, 2, "invoice")
    assert wire_fields(doc)["number"] == "55" and wire_fields(doc)["amount"] == "2400.00"
    assert doc["continues_previous"] is False
    assert {"key": "number", "value": "55"} in doc["filename_fields"]

    tokens = count_tokens(_params(pages))
    first = message.usage
    assert first.cache_creation_input_tokens == tokens.cacheable > 0
    assert first.cache_read_input_tokens == 0
    assert first.input_tokens + tokens.cacheable == tokens.total
    second = client.messages.create(**_params(pages)).usage
    assert (second.cache_creation_input_tokens, second.cache_read_input_tokens) == (
        0,
        tokens.cacheable,
    )
    recorded = fake.requests[0]
    assert recorded.headers["authorization"] == "Bearer test-key"
    assert recorded.json["messages"][0]["content"][2]["type"] == "image"


def test_continuation_group_is_flagged() -> None:
    assert expected_documents("x.pdf", [(3, CONTINUATION)])["documents"][0]["continues_previous"]
    assert not expected_documents("x.pdf", [(3, INVOICE)])["documents"][0]["continues_previous"]
    assert not expected_documents("x.pdf", [(1, CONTINUATION)])["documents"][0][
        "continues_previous"
    ]
    empty = expected_documents("x.pdf", [(4, "")])["documents"][0]
    assert empty["continues_previous"] and empty["doc_type"] == "unknown"
    assert set(wire_fields(empty).values()) == {None}


def test_forced_tool_gets_a_tool_use_block(client: anthropic.Anthropic) -> None:
    tool = {"name": "record_documents", "input_schema": {"type": "object"}}
    message = client.messages.create(
        **_params([(1, INVOICE)]),
        tools=[tool],
        tool_choice={"type": "tool", "name": "record_documents"},
    )
    block = message.content[0]
    assert message.stop_reason == "tool_use" and block.type == "tool_use"
    assert block.name == "record_documents"
    assert block.input == expected_documents(FILE_NAME, [(1, INVOICE)])


def test_count_tokens_is_the_whole_input(client: anthropic.Anthropic) -> None:
    params = _params([(1, INVOICE)])
    del params["max_tokens"]
    counted = client.messages.count_tokens(**params)
    assert counted.input_tokens == count_tokens(params).total
    assert counted.input_tokens > 165  # the image alone is ⌈300/28⌉·⌈400/28⌉


def test_429_with_retry_after_is_retried_by_the_sdk(fake: FakeAnthropic) -> None:
    fake.fail_next(1, 429, retry_after=0.05)
    with _client(fake, max_retries=2) as sdk:
        sdk.messages.create(**_params([(1, INVOICE)]))
    assert fake.count("POST", "/v1/messages") == 2


def test_error_statuses_map_to_sdk_exceptions(
    fake: FakeAnthropic, client: anthropic.Anthropic
) -> None:
    fake.fail_next(1, 529)
    with pytest.raises(anthropic.InternalServerError) as overloaded:
        client.messages.create(**_params([(1, INVOICE)]))
    assert overloaded.value.status_code == 529
    assert overloaded.value.body["error"]["type"] == "overloaded_error"  # type: ignore[index]
    assert overloaded.value.request_id and overloaded.value.request_id.startswith("req_")

    with _client(fake, key="bad-key") as bad, pytest.raises(anthropic.AuthenticationError):
        bad.messages.create(**_params([(1, INVOICE)]))

    fake.fail_next(1, 403, error_type="billing_error")
    with pytest.raises(anthropic.PermissionDeniedError):
        client.messages.create(**_params([(1, INVOICE)]))

    broken = _params([(1, INVOICE)])
    broken["messages"][0]["content"][2]["source"]["data"] = "bm90IGFuIGltYWdl"
    with pytest.raises(anthropic.BadRequestError, match="Could not process image"):
        client.messages.create(**broken)


def test_one_request_of_many_fails_by_its_marker(
    fake: FakeAnthropic, client: anthropic.Anthropic
) -> None:
    fake.fail_custom_ids({"job_1_batch_2"}, 500)
    client.messages.create(**_params([(1, INVOICE)], "job_1_batch_1"))
    for _ in range(2):  # persistent
        with pytest.raises(anthropic.InternalServerError):
            client.messages.create(**_params([(1, INVOICE)], "job_1_batch_2"))


def test_invalid_output_and_bad_pages(fake: FakeAnthropic, client: anthropic.Anthropic) -> None:
    fake.invalid_output_next(1)
    text = client.messages.create(**_params([(1, INVOICE)])).content[0].text  # type: ignore[union-attr]
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)

    fake.bad_pages_next(1)
    pages = [(1, INVOICE), (2, CONTINUATION)]
    text = client.messages.create(**_params(pages)).content[0].text  # type: ignore[union-attr]
    assert json.loads(text)["documents"][-1]["page_to"] == 5

    text = client.messages.create(**_params(pages)).content[0].text  # type: ignore[union-attr]
    assert json.loads(text) == expected_documents(FILE_NAME, pages)  # scripts are used up


def test_stop_cuts_the_network(fake: FakeAnthropic, client: anthropic.Anthropic) -> None:
    client.messages.create(**_params([(1, INVOICE)]))  # a pooled keep-alive connection
    fake.stop()
    with pytest.raises(anthropic.APIConnectionError):
        client.messages.create(**_params([(1, INVOICE)]))


def test_image_data_can_be_left_out_of_the_records() -> None:
    with FakeAnthropic(keep_image_data=False) as server, _client(server) as sdk:
        sdk.messages.create(**_params([(1, INVOICE)]))
        image = server.requests[0].json["messages"][0]["content"][2]
    assert image["source"]["data"] == f"<{len(IMAGE)} base64 chars>"


def test_model_answer_replaces_the_extractor() -> None:
    echo = FakeAnthropic(model_answer=lambda body: {"echo": body["model"]})
    with echo as server, _client(server) as sdk:
        message = sdk.messages.create(**_params([(1, INVOICE)]))
    assert json.loads(message.content[0].text) == {"echo": MODEL}  # type: ignore[union-attr]


def test_unknown_route_is_404(client: anthropic.Anthropic) -> None:
    with pytest.raises(anthropic.NotFoundError):
        client.messages.batches.retrieve("msgbatch_nope")


# ------------------------------------------------------------------------- batches


def _batch_requests(n: int) -> list[dict[str, Any]]:
    return [
        {"custom_id": f"job_1_batch_{i}", "params": _params([(1, INVOICE)], f"job_1_batch_{i}")}
        for i in range(n)
    ]


def test_batch_lifecycle_and_results(fake: FakeAnthropic, client: anthropic.Anthropic) -> None:
    fake.batch_polls_needed = 2
    fake.batch_errored({"job_1_batch_1"}, "overloaded_error")
    fake.batch_expired({"job_1_batch_2"})
    fake.invalid_output_for({"job_1_batch_3"})
    batch = client.messages.batches.create(requests=_batch_requests(5))  # type: ignore[arg-type]
    assert batch.processing_status == "in_progress" and batch.request_counts.processing == 5

    running = client.messages.batches.retrieve(batch.id)
    assert running.processing_status == "in_progress" and running.results_url is None
    assert running.request_counts.succeeded == 0
    ended = client.messages.batches.retrieve(batch.id)
    assert ended.processing_status == "ended" and ended.ended_at is not None
    counts = ended.request_counts
    assert (counts.processing, counts.succeeded, counts.errored, counts.expired) == (0, 3, 1, 1)
    assert ended.results_url == f"{fake.url}/v1/messages/batches/{batch.id}/results"

    entries = {e.custom_id: e.result for e in client.messages.batches.results(batch.id)}
    assert set(entries) == {f"job_1_batch_{i}" for i in range(5)}
    errored = entries["job_1_batch_1"]
    assert errored.type == "errored" and errored.error.type == "error"
    assert errored.error.error.type == "overloaded_error"
    assert entries["job_1_batch_2"].type == "expired"
    good = entries["job_1_batch_0"]
    assert good.type == "succeeded" and good.message.usage.service_tier == "batch"
    answer = json.loads(good.message.content[0].text)  # type: ignore[union-attr]
    assert answer == expected_documents(FILE_NAME, [(1, INVOICE)])
    with pytest.raises(json.JSONDecodeError):
        json.loads(entries["job_1_batch_3"].message.content[0].text)  # type: ignore[union-attr]

    # The SDK decodes JSONL lines without validation: check them strictly here.
    request = urllib.request.Request(ended.results_url, headers={"x-api-key": "test-key"})
    with urllib.request.urlopen(request) as response:
        lines = response.read().decode().splitlines()
    order = [MessageBatchIndividualResponse.model_validate(json.loads(x)).custom_id for x in lines]
    assert order != sorted(order)  # shuffled, as the API promises no order


def test_the_ledger_lists_each_run_and_whether_it_is_billed(
    fake: FakeAnthropic, client: anthropic.Anthropic
) -> None:
    fake.batch_expired({"job_1_batch_1"})
    first = client.messages.batches.create(requests=_batch_requests(2))  # type: ignore[arg-type]
    assert [(e.custom_id, e.outcome) for e in fake.ledger] == [
        ("job_1_batch_0", "processing"),
        ("job_1_batch_1", "processing"),
    ]
    client.messages.batches.retrieve(first.id)  # ends it
    outcomes = {e.custom_id: e.outcome for e in fake.ledger}
    assert outcomes == {"job_1_batch_0": "succeeded", "job_1_batch_1": "expired"}
    assert fake.paid_twice() == {}
    client.messages.batches.create(requests=_batch_requests(2))  # type: ignore[arg-type]
    # the expired one was never billed; the one that succeeded is now billed twice
    assert fake.paid_twice() == {"job_1_batch_0": 2}
    (billed,) = [e for e in fake.billed() if e.outcome == "succeeded"]
    assert billed.usage["output_tokens"] > 0 and billed.model == MODEL


def test_batch_list_cancel_delete(fake: FakeAnthropic, client: anthropic.Anthropic) -> None:
    fake.batch_polls_needed = 3
    first = client.messages.batches.create(requests=_batch_requests(2))  # type: ignore[arg-type]
    second = client.messages.batches.create(requests=_batch_requests(4))  # type: ignore[arg-type]
    assert [b.id for b in client.messages.batches.list()] == [second.id, first.id]
    page = client.messages.batches.list(limit=1)
    assert [b.id for b in page.data] == [second.id] and page.has_more
    assert [b.id for b in client.messages.batches.list(after_id=second.id).data] == [first.id]

    with pytest.raises(anthropic.BadRequestError):
        client.messages.batches.delete(second.id)  # still running
    client.messages.batches.retrieve(second.id)  # 1 of 3 polls: a third of it is done
    canceling = client.messages.batches.cancel(second.id)
    assert canceling.processing_status == "canceling" and canceling.cancel_initiated_at
    ended = client.messages.batches.retrieve(second.id)
    assert ended.processing_status == "ended"
    assert (ended.request_counts.succeeded, ended.request_counts.canceled) == (1, 3)
    deleted = client.messages.batches.delete(second.id)
    assert deleted.type == "message_batch_deleted" and deleted.id == second.id
    assert [b.id for b in client.messages.batches.list()] == [first.id]


def test_batch_validation(client: anthropic.Anthropic) -> None:
    duplicate = _batch_requests(1) * 2
    with pytest.raises(anthropic.BadRequestError, match="duplicate"):
        client.messages.batches.create(requests=duplicate)  # type: ignore[arg-type]
    bad_id = [{"custom_id": "a" * 65, "params": _params([(1, INVOICE)])}]
    with pytest.raises(anthropic.BadRequestError, match="custom_id"):
        client.messages.batches.create(requests=bad_id)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- async


def test_async_client_round_trip_and_batch(fake: FakeAnthropic) -> None:
    async def run() -> None:
        async with anthropic.AsyncAnthropic(
            base_url=fake.url, api_key="test-key", max_retries=0, _strict_response_validation=True
        ) as sdk:
            messages = await asyncio.gather(
                *(sdk.messages.create(**_params([(1, INVOICE)], f"r{i}")) for i in range(4))
            )
            assert all(m.content[0].type == "text" for m in messages)
            batch = await sdk.messages.batches.create(requests=_batch_requests(2))  # type: ignore[arg-type]
            await sdk.messages.batches.retrieve(batch.id)
            results = [r async for r in await sdk.messages.batches.results(batch.id)]
            assert {r.result.type for r in results} == {"succeeded"}

    asyncio.run(run())
    assert fake.count("POST", "/v1/messages/batches") == 1


def _confidences(text: str) -> set[float]:
    answer = json.loads(text)
    return {f["confidence"] for d in answer["documents"] for f in d["fields"] if f["found"]}


def test_each_model_answers_as_scripted_in_sync_and_batch(
    fake: FakeAnthropic, client: anthropic.Anthropic
) -> None:
    other = "claude-sonnet-5"
    fake.answer_as(MODEL, confidence=0.4, missing=("amount",))
    fake.answer_as(other, confidence=0.95)
    params = _params([(1, INVOICE)])
    first = client.messages.create(**params)
    text = "".join(b.text for b in first.content if b.type == "text")
    assert _confidences(text) == {0.4}
    assert wire_fields(json.loads(text)["documents"][0])["amount"] is None
    stronger: Any = {**params, "model": other, "thinking": {"type": "disabled"}}
    requests: Any = [{"custom_id": "a", "params": params}, {"custom_id": "b", "params": stronger}]
    created = client.messages.batches.create(requests=requests)
    client.messages.batches.retrieve(created.id)
    results = {r.custom_id: r.result for r in client.messages.batches.results(created.id)}
    texts = {
        k: "".join(b.text for b in r.message.content if b.type == "text")  # type: ignore[union-attr]
        for k, r in results.items()
    }
    assert (_confidences(texts["a"]), _confidences(texts["b"])) == ({0.4}, {0.95})
    fake.reset()  # scripts given per test end with it
    plain = client.messages.create(**params)
    assert _confidences("".join(b.text for b in plain.content if b.type == "text")) == {0.9}
