"""The Message Batches API through the official async SDK: half the price of sync.

Thin on purpose: the engine owns the bookkeeping (intents, recovery, retries); this
module only turns calls and answers into plain values and our error kinds.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import anthropic
from anthropic.types.message_create_params import MessageCreateParamsNonStreaming
from anthropic.types.messages.batch_create_params import Request

from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.llm.claude import classify_api_error
from docbatch_gui.llm.requests import ExtractionRequest


@dataclass(frozen=True)
class BatchStatus:
    batch_id: str
    status: str  # in_progress | canceling | ended
    counts: dict[str, int]
    created_at: datetime
    ended_at: datetime | None

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def finished_share(self) -> float:
        return 1.0 - self.counts.get("processing", 0) / self.total if self.total else 1.0


@dataclass(frozen=True)
class BatchResult:
    custom_id: str
    kind: str  # succeeded | errored | expired | canceled
    message: Any = None
    error_type: str | None = None
    error_message: str | None = None


def _status(batch: Any) -> BatchStatus:
    return BatchStatus(
        batch.id,
        batch.processing_status,
        dict(batch.request_counts.model_dump()),
        batch.created_at,
        batch.ended_at,
    )


class BatchClient:
    def __init__(
        self, *, api_key: str, base_url: str | None, timeout: float, max_retries: int
    ) -> None:
        self.client = anthropic.AsyncAnthropic(
            api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries
        )

    async def close(self) -> None:
        await self.client.close()

    async def _call(self, coroutine: Any) -> Any:
        try:
            return await coroutine
        except anthropic.APIError as exc:
            raise classify_api_error(exc) from None

    async def create(self, requests: Sequence[ExtractionRequest]) -> BatchStatus:
        # params is the Messages API body, built as a plain dict in llm/requests.py
        entries = [
            Request(custom_id=r.custom_id, params=cast(MessageCreateParamsNonStreaming, r.params))
            for r in requests
        ]
        # no SDK retry: the API has no idempotency key, and a create whose answer was
        # lost may have made (and billed) the batch; the engine's intent looks for it
        # in the list before it is ever created again
        once = self.client.with_options(max_retries=0)
        batch = await self._call(once.messages.batches.create(requests=entries))
        return _status(batch)

    async def probe(self) -> None:
        """A free question (a list of one batch): raises as any call does when the API
        cannot be reached. Asked once, without the SDK's retries: a cycle asks again."""
        once = self.client.with_options(max_retries=0)
        await self._call(once.messages.batches.list(limit=1))

    async def retrieve(self, batch_id: str) -> BatchStatus:
        return _status(await self._call(self.client.messages.batches.retrieve(batch_id)))

    async def cancel(self, batch_id: str) -> BatchStatus:
        return _status(await self._call(self.client.messages.batches.cancel(batch_id)))

    async def created_between(self, start: datetime, end: datetime) -> list[BatchStatus]:
        """Batches whose creation time falls in the window, newest first (paged)."""
        found: list[BatchStatus] = []
        try:
            async for batch in self.client.messages.batches.list(limit=100):
                if batch.created_at < start:
                    break
                if batch.created_at <= end:
                    found.append(_status(batch))
        except anthropic.APIError as exc:
            raise classify_api_error(exc) from None
        return found

    async def results(self, batch_id: str) -> AsyncIterator[BatchResult]:
        """Stream the JSONL results one entry at a time; never holds them whole."""
        try:
            stream = await self.client.messages.batches.results(batch_id)
            async for entry in stream:
                result = entry.result
                error = getattr(result, "error", None)
                inner = getattr(error, "error", None)
                yield BatchResult(
                    entry.custom_id,
                    result.type,
                    getattr(result, "message", None),
                    getattr(inner, "type", None),
                    getattr(inner, "message", None),
                )
        except anthropic.APIError as exc:
            failure: DocBatchError = classify_api_error(exc)
            raise failure from None
