"""Sync mode: every request of every job at once, under one semaphore.

Each request keeps its own outcome (a failure never stops the others), the outcomes
come back in a deterministic order (job, then group), and one INFO line at the start
and one at the end give the counts. Transport retries (429, 529, 5xx, connection
errors, honouring ``retry-after``) are the SDK's, bounded by ``max_retries``; an
answer that breaks the schema is sent again up to ``request_retries`` times.
Authentication and billing errors are critical: the first one stops every request
not yet sent, and none is retried.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import anthropic

from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.errors import (
    CriticalError,
    DocBatchError,
    OverBudget,
    RetryableError,
    UnsupportedInput,
)
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.llm.answers import InvalidAnswer, RawDocument, parse_answer
from docbatch_gui.llm.catalogue import Usage
from docbatch_gui.llm.metrics import SyncMetrics
from docbatch_gui.llm.requests import ExtractionRequest
from docbatch_gui.llm.spending import Spending

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RequestOutcome:
    request: ExtractionRequest
    documents: list[RawDocument] | None
    error: DocBatchError | None
    usage: Usage = field(default_factory=Usage)
    attempts: int = 1
    note: Message | None = None  # something the operator should know (a cut-off answer)
    max_tokens: int | None = None  # the budget the answer finally had, when raised
    #: budget reservations of the answered sends, released once the cost is recorded
    reservations: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None


class CutOff(InvalidAnswer):
    """The answer stopped at ``max_tokens``: the same request would stop there again."""


def answer_payload(message: Any) -> str | dict[str, Any]:
    """The answer of a Message: a forced tool's input, else the text."""
    if getattr(message, "stop_reason", None) == "max_tokens":
        raise CutOff("invalid answer: cut off at max_tokens")
    for block in message.content:
        if getattr(block, "type", None) == "tool_use":
            return dict(block.input)
    return "".join(getattr(b, "text", "") for b in message.content if b.type == "text")


def raised_max_tokens(current: int, model_max: int) -> int | None:
    """The one larger budget a cut-off answer gets, or None when none is left."""
    raised = min(model_max, max(current * 2, current + 4096))
    return raised if raised > current else None


def _span(pages: Sequence[int]) -> str:
    return f"{pages[0]}-{pages[-1]}" if pages else "?"


def cut_off_note(custom_id: str, pages: Sequence[int], budget: int, raised: int) -> Message:
    """What a cut-off answer's request records, and the log says (``log_claude_cut_off``)."""
    return coded(
        "log_claude_cut_off", request=custom_id, pages=_span(pages), budget=budget, raised=raised
    )


def cut_off_error(pages: Sequence[int], budget: int) -> UnsupportedInput:
    return UnsupportedInput.coded(
        "claude_answer_too_long", {"pages": _span(pages), "budget": budget}
    )


def classify_api_error(exc: Exception) -> DocBatchError:
    """Map an SDK exception to our error kinds, with a message for the operator.

    Messages never include the key or the request body.
    """
    status = getattr(exc, "status_code", None)
    detail = _api_message(exc)
    if isinstance(exc, anthropic.AuthenticationError):
        return CriticalError.coded("claude_key_refused", {"status": status, "detail": detail})
    if (
        isinstance(exc, anthropic.PermissionDeniedError | anthropic.PaymentRequiredError)
        or "credit balance" in detail.lower()
    ):
        return CriticalError.coded("claude_billing", {"status": status, "detail": detail})
    if isinstance(
        exc,
        anthropic.BadRequestError
        | anthropic.UnprocessableEntityError
        | anthropic.NotFoundError
        | anthropic.RequestTooLargeError,
    ):
        return refused_request(f"{status}: {detail}")
    if isinstance(exc, anthropic.APITimeoutError):
        return RetryableError.coded("claude_timeout")
    if isinstance(exc, anthropic.APIConnectionError):
        return RetryableError.coded("claude_network")
    if isinstance(exc, anthropic.APIStatusError):
        return RetryableError.coded("claude_busy", {"status": status, "detail": detail})
    return RetryableError.coded("claude_failed", {"error": type(exc).__name__})


def refused_request(reason: str) -> CriticalError:
    """A request DocBatch built was refused as invalid: our bug or our configuration
    (model, effort, thinking), never the operator's file. Sending more of the same
    would be refused too, so the queue stops."""
    return CriticalError.coded("claude_request_refused", {"reason": reason})


def _api_message(exc: Exception) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict) and error.get("message"):
            return f"{error.get('type', 'error')}: {error['message']}"[:300]
    return (getattr(exc, "message", None) or type(exc).__name__)[:300]


class _Stopped(Exception):
    """A critical error elsewhere stopped sending; this request was not sent."""


class ClaudeSync:
    """Sends requests through the official async SDK; one instance per worker run."""

    def __init__(
        self,
        *,
        api_key: str,
        base_url: str | None,
        profile: Profile,
        max_concurrency: int,
        timeout: float,
        max_retries: int,
        request_retries: int,
        max_output_tokens: int = 128_000,
        strict_responses: bool = False,
        metrics: SyncMetrics | None = None,
    ) -> None:
        """``strict_responses`` makes the SDK check every answer against its types;
        the tests turn it on to prove the wire format, production keeps it lenient so
        a new field from the API never stops processing. ``metrics`` outlives this
        client, so the GUI can show live counts across runs."""
        self.client = anthropic.AsyncAnthropic(
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            _strict_response_validation=strict_responses,
        )
        self.profile = profile
        self.max_concurrency = max_concurrency
        self.request_retries = request_retries
        self.max_output_tokens = max_output_tokens  # the model's ceiling (catalogue)
        self.semaphore = asyncio.Semaphore(max_concurrency)
        self.critical: CriticalError | None = None
        self.in_flight = 0
        self.peak_in_flight = 0
        self.metrics = metrics or SyncMetrics(max_concurrency)

    async def close(self) -> None:
        await self.client.close()

    async def extract(
        self, requests: Sequence[ExtractionRequest], spending: Spending | None = None
    ) -> list[RequestOutcome]:
        """Send every request (at most ``max_concurrency`` at once); with ``spending``,
        each send (a re-ask and a cut-off retry too) reserves its money first and a
        refused reservation ends the request with ``OverBudget``, unsent."""
        started = time.monotonic()
        log.info(
            "sync extraction start: %s requests, concurrency %s",
            len(requests),
            self.max_concurrency,
        )
        outcomes = await asyncio.gather(*(self._counted(r, spending) for r in requests))
        outcomes.sort(key=lambda o: (o.request.job_id, o.request.group))
        succeeded = sum(o.ok for o in outcomes)
        log.info(
            "sync extraction end: %s requests, concurrency %s, succeeded %s, failed %s, elapsed "
            "%.2fs",
            len(outcomes),
            self.max_concurrency,
            succeeded,
            len(outcomes) - succeeded,
            time.monotonic() - started,
        )
        return outcomes

    async def _counted(
        self, request: ExtractionRequest, spending: Spending | None
    ) -> RequestOutcome:
        outcome = await self._one(request, spending)
        self.metrics.outcome(outcome.ok, outcome.attempts)
        return outcome

    async def _one(self, request: ExtractionRequest, spending: Spending | None) -> RequestOutcome:
        usage = Usage()
        attempts = 0
        note: Message | None = None
        held: list[str] = []  # reservations of the sends answered so far

        def outcome(error: DocBatchError, max_tokens: int | None = None) -> RequestOutcome:
            return RequestOutcome(
                request, None, error, usage, attempts, note, max_tokens, reservations=held
            )

        while True:
            if self.critical is not None:
                return outcome(self.critical)
            try:
                key = spending.reserve([request], batch=False) if spending else None
            except OverBudget as exc:
                return outcome(exc)
            attempts += 1
            try:
                message = await self._send(request)
            except (_Stopped, anthropic.APIError) as exc:
                if spending is not None:
                    spending.release(key)  # not answered: not billed
                if isinstance(exc, _Stopped):
                    continue
                error = classify_api_error(exc)
                if isinstance(error, CriticalError) and self.critical is None:
                    self.critical = error
                    log.error("%s", error)
                return outcome(error)
            if key is not None:
                held.append(key)
            usage += Usage.from_api(message.usage)
            try:
                documents = parse_answer(answer_payload(message), request.pages, self.profile)
            except CutOff:
                # the same budget would be cut again: raise it once, or give up
                budget = int(request.params["max_tokens"])
                raised = None if note else raised_max_tokens(budget, self.max_output_tokens)
                if raised is None:
                    return outcome(cut_off_error(request.pages, budget), budget)
                note = cut_off_note(request.custom_id, request.pages, budget, raised)
                log.warning("%s", note)
                request = replace(request, params={**request.params, "max_tokens": raised})
                continue
            except InvalidAnswer as exc:
                log.warning("%s: %s (attempt %s)", request.custom_id, exc, attempts)
                if attempts > self.request_retries:
                    return outcome(exc)
                continue
            budget = int(request.params["max_tokens"])
            return RequestOutcome(
                request, documents, None, usage, attempts, note, budget, reservations=held
            )

    async def _send(self, request: ExtractionRequest) -> Any:
        async with self.semaphore:
            if self.critical is not None:  # it happened while this one waited its turn
                raise _Stopped
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
            self.metrics.sending()
            try:
                return await self.client.messages.create(**request.params)
            finally:
                self.in_flight -= 1
                self.metrics.answered()
