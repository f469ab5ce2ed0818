"""A wire-level fake of the Anthropic API for tests and ``bench/`` scripts.

The real ``anthropic`` SDK is pointed at it (``base_url=fake.url``), so retries,
error classes, strict response validation, batch polling and the JSONL results
decoder are the SDK's own, not a mock's idea of them. Answers come from the offline
extractor (see ``anthropic_answers``); failures, latency, bad output and batch
outcomes are scripted per test.

    with FakeAnthropic() as fake:
        client = anthropic.Anthropic(base_url=fake.url, api_key="test-key", max_retries=0,
                                     _strict_response_validation=True)
        fake.fail_next(1, 429, retry_after=0.05)
        ...

A ``bench/`` script imports it as ``tests.fakes.anthropic_server`` with the repository
root on ``sys.path``.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from http.server import ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.fakes.anthropic_answers import (
    PromptCache,
    RequestInvalid,
    TokenCount,
    answer_for,
    count_tokens,
    expected_documents,
    parse_request,
)
from tests.fakes.anthropic_models import ModelScript, scripts, scripts_from_env
from tests.fakes.anthropic_rules import (
    MAX_BATCH_REQUESTS,
    MAX_REQUEST_BYTES,
    Refusal,
    check_batch,
    check_message,
    min_cache_tokens,
    thinking_tokens,
)
from tests.fakes.local_server import LocalServer, TrackingHandler

__all__ = [
    "BATCH_ERROR_TYPES",
    "MAX_BATCH_REQUESTS",
    "FakeAnthropic",
    "RecordedRequest",
    "expected_documents",
]

ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    504: "timeout_error",
    529: "overloaded_error",
}
# The error types the SDK's ``ErrorObject`` union accepts inside an errored batch result.
BATCH_ERROR_TYPES = frozenset(
    {
        "invalid_request_error",
        "authentication_error",
        "billing_error",
        "permission_error",
        "not_found_error",
        "rate_limit_error",
        "timeout_error",
        "api_error",
        "overloaded_error",
    }
)
_BATCH_PATH_RE = re.compile(r"^/v1/messages/batches/(?P<id>[^/]+)(?P<rest>/results|/cancel)?$")


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str  # without the query string
    query: dict[str, str]
    headers: dict[str, str]  # lower-case keys
    json: Any  # the decoded body, or None


@dataclass
class _Failure:
    path: str  # exact, or a prefix when it ends with "*"
    remaining: int
    status: int
    retry_after: float | None
    error_type: str | None

    def matches(self, path: str) -> bool:
        if self.path.endswith("*"):
            return path.startswith(self.path[:-1])
        return path == self.path


@dataclass
class _Cut:
    """Requests to ``path`` the fake does not answer: it closes the connection, before
    the route runs or (``after``) once it has run, as a network cut looks to a client."""

    path: str  # exact, or a prefix when it ends with "*"
    remaining: int
    after: bool

    def matches(self, path: str) -> bool:
        if self.path.endswith("*"):
            return path.startswith(self.path[:-1])
        return path == self.path


@dataclass
class _Batch:
    id: str
    requests: list[tuple[str, dict[str, Any]]]
    created_at: datetime
    polls_needed: int
    polls: int = 0
    status: str = "in_progress"
    cancel_initiated_at: datetime | None = None
    polls_at_cancel: int = 0
    ended_at: datetime | None = None
    counts: dict[str, int] = field(default_factory=dict)
    results: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class LedgerEntry:
    """One request the fake was asked to run, and how it came out: what a bill lists.

    ``via`` is ``"sync"`` or the batch id; ``outcome`` is ``processing`` until a batch
    ends, then ``succeeded``/``errored``/``expired``/``canceled``. Only ``succeeded``
    is billed by the API; a ``processing`` one will be once it runs, so it counts as
    billable too."""

    custom_id: str
    via: str
    outcome: str
    model: str = ""
    usage: dict[str, Any] = field(default_factory=dict)

    @property
    def billable(self) -> bool:
        return self.outcome in ("succeeded", "processing")


class _ApiError(Exception):
    def __init__(self, status: int, message: str, error_type: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.error_type = error_type
        self.retry_after: float | None = None


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class _Handler(TrackingHandler):
    """Hands every request to the fake."""

    server: _Server

    def do_GET(self) -> None:
        self.server.fake._serve(self, "GET")

    def do_POST(self) -> None:
        self.server.fake._serve(self, "POST")

    def do_DELETE(self) -> None:
        self.server.fake._serve(self, "DELETE")


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, fake: FakeAnthropic) -> None:
        self.fake = fake
        super().__init__(("127.0.0.1", 0), _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hung up (or a ``stop()`` mid-answer) is normal here, not news."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


class FakeAnthropic(LocalServer):
    """The fake server; every scripting method is safe to call from any thread.

    Rules worth knowing when writing a test against it:

    - Every request is recorded first (even ones that then fail), then the key is
      checked (missing or "bad-key" -> 401), then ``latency`` (POST /v1/messages
      only), then ``fail_next`` scripts, then the route.
    - ``fail_next`` paths match exactly; a trailing "*" makes a prefix. Queued
      scripts are used in the order given.
    - ``invalid_output_next``/``bad_pages_next`` count answers of both kinds: sync
      messages and batch results (decided in request order when a batch ends).
    - A batch ends on its ``batch_polls_needed``-th retrieve (value taken at create
      time). A cancel ends it on the next retrieve: requests in the share matching the
      polls made before the cancel succeed, the rest are canceled.
    - Every Messages, count_tokens and batch request is held to the documented rules
      in ``anthropic_rules`` (schema limits, thinking and effort per model, forced
      tool use, image count, sizes, custom ids, unknown models), refused with the
      API's status, error type and wording. A batch entry that breaks them comes
      back errored, as on the API.
    - With thinking on (the model's default unless the request turns it off) the
      answer spends thinking tokens, reported in ``usage.output_tokens_details``;
      when thinking and answer exceed ``max_tokens`` the answer stops there
      (``stop_reason: max_tokens``), as does one scripted by ``cut_off_next``.
    - ``answer_as(model, confidence=..., missing=..., values=...)`` decides how one
      model answers (``anthropic_models``): what makes routing by difficulty escalate.
      ``model_scripts=`` or ``FAKE_ANTHROPIC_MODELS`` set them for the server's life.
    - ``reset()`` also restores ``latency``, ``batch_polls_needed`` and the model
      scripts given at construction, and forgets the prompt cache.
    """

    def __init__(
        self,
        *,
        model_answer: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        keep_image_data: bool = True,
        model_scripts: dict[str, ModelScript | dict[str, Any]] | None = None,
    ) -> None:
        """``model_answer(request_body) -> answer object`` replaces the offline extractor.

        ``keep_image_data=False`` records base64 images as a short placeholder: a
        benchmark of thousands of pages would otherwise hold every image in memory.
        ``model_scripts`` (model id -> ``ModelScript`` or its dict) say how each model
        answers; without them ``FAKE_ANTHROPIC_MODELS`` is read.
        """
        self.model_answer = model_answer
        self._default_scripts = (
            scripts(model_scripts) if model_scripts is not None else scripts_from_env()
        )
        self.keep_image_data = keep_image_data
        self.url = ""
        self.requests: list[RecordedRequest] = []
        self.latency = 0.0
        self.batch_polls_needed = 1
        self._lock = threading.RLock()
        self._ids = itertools.count(1)
        self.thread_name = "fake-anthropic"
        self._connections: set[socket.socket] = set()
        self._cache = PromptCache()
        self.reset()

    # ----------------------------------------------------------------- lifecycle

    def _make_server(self) -> _Server:
        return _Server(self)

    def reset(self) -> None:
        """A clean slate between tests: records, scripts, batches, prompt cache, knobs."""
        with self._lock:
            self.requests.clear()
            self.latency = 0.0
            self.batch_polls_needed = 1
            self._failures: list[_Failure] = []
            self._cuts: list[_Cut] = []
            self._failing_ids: dict[str, int] = {}
            self._invalid_next = 0
            self._echo_key = 0
            self._invalid_ids: set[str] = set()
            self._bad_pages_next = 0
            self._cut_off_next = 0
            self._errored: dict[str, str] = {}
            self._expired: set[str] = set()
            self._batches: dict[str, _Batch] = {}
            self.ledger: list[LedgerEntry] = []
            self._ledger_index: dict[tuple[str, str], LedgerEntry] = {}
            self._model_scripts: dict[str, ModelScript] = dict(self._default_scripts)
        self._cache.clear()

    # ----------------------------------------------------------------- scripting

    def fail_next(
        self,
        count: int,
        status: int,
        *,
        retry_after: float | None = None,
        error_type: str | None = None,
        path: str = "/v1/messages",
    ) -> None:
        """The next ``count`` requests to ``path`` fail (a trailing "*" makes it a prefix)."""
        with self._lock:
            self._failures.append(_Failure(path, count, status, retry_after, error_type))

    def cut_next(self, count: int, *, path: str = "*", after: bool = False) -> None:
        """The next ``count`` requests to ``path`` (every path by default) get no answer:
        the connection is closed, as a network cut or a server that went away looks to
        the SDK (``APIConnectionError``). ``after=True`` closes it once the request was
        carried out (a batch created, and billed, that the client never hears of)."""
        with self._lock:
            self._cuts.append(_Cut(path, count, after))

    def clear_cuts(self) -> None:
        """Every request is answered again (the network is back)."""
        with self._lock:
            self._cuts.clear()

    def clear_failures(self) -> None:
        """The failures ``fail_next`` scripted and not yet served are dropped (the API
        is well again), its batches kept."""
        with self._lock:
            self._failures.clear()

    def echo_key_next(self, count: int = 1) -> None:
        """The next ``count`` requests get a 401 whose message quotes the key they
        sent. The real API never does; a misconfigured proxy in front of it may, and
        DocBatch must not store, log or print what it echoes."""
        with self._lock:
            self._echo_key += count

    def fail_custom_ids(self, custom_ids: set[str], status: int) -> None:
        """Sync requests whose "Request id:" marker is one of these always fail."""
        with self._lock:
            self._failing_ids.update(dict.fromkeys(custom_ids, status))

    def invalid_output_next(self, count: int) -> None:
        """The next ``count`` answers (sync or batch) are cut mid-JSON."""
        with self._lock:
            self._invalid_next += count

    def invalid_output_for(self, custom_ids: set[str]) -> None:
        with self._lock:
            self._invalid_ids |= set(custom_ids)

    def bad_pages_next(self, count: int) -> None:
        """The next ``count`` answers end their last document past the group's pages."""
        with self._lock:
            self._bad_pages_next += count

    def cut_off_next(self, count: int) -> None:
        """The next ``count`` answers run out of ``max_tokens``: billed in full, cut."""
        with self._lock:
            self._cut_off_next += count

    def answer_as(
        self,
        model: str,
        *,
        confidence: float | None = None,
        missing: tuple[str, ...] = (),
        values: dict[str, str] | None = None,
    ) -> None:
        """Every answer of ``model`` (sync or batch) from now on: found values with
        ``confidence``, ``missing`` fields not found, ``values`` said instead."""
        with self._lock:
            self._model_scripts[model] = ModelScript(confidence, tuple(missing), values or {})

    def batch_errored(
        self, custom_ids: set[str], error_type: str = "invalid_request_error"
    ) -> None:
        if error_type not in BATCH_ERROR_TYPES:
            raise ValueError(f"the SDK cannot parse an errored result of type {error_type!r}")
        with self._lock:
            self._errored.update(dict.fromkeys(custom_ids, error_type))

    def batch_expired(self, custom_ids: set[str]) -> None:
        with self._lock:
            self._expired |= set(custom_ids)

    def paid_twice(self) -> dict[str, int]:
        """custom_id -> billable runs, for every id run (and billed) more than once."""
        with self._lock:
            counts: dict[str, int] = {}
            for entry in self.ledger:
                if entry.billable:
                    counts[entry.custom_id] = counts.get(entry.custom_id, 0) + 1
        return {k: v for k, v in counts.items() if v > 1}

    def billed(self) -> list[LedgerEntry]:
        """The ledger's billable entries (a copy)."""
        with self._lock:
            return [replace(e) for e in self.ledger if e.billable]

    def _enter(self, custom_id: str, via: str, outcome: str, model: str, usage: Any) -> None:
        with self._lock:
            entry = self._ledger_index.get((custom_id, via))
            if entry is None or via == "sync":
                entry = LedgerEntry(custom_id, via, outcome, model)
                self.ledger.append(entry)
                self._ledger_index[(custom_id, via)] = entry
            entry.outcome, entry.usage = outcome, dict(usage or {})

    def count(self, method: str, path: str) -> int:
        """Requests to ``path``: exactly, or every path under it when it ends with "/"."""
        with self._lock:
            return sum(
                r.method == method.upper()
                and (r.path.startswith(path) if path.endswith("/") else r.path == path)
                for r in self.requests
            )

    # ------------------------------------------------------------------ plumbing

    def _track(self, conn: socket.socket, *, add: bool) -> None:
        with self._lock:
            if add:
                self._connections.add(conn)
            else:
                self._connections.discard(conn)

    def _new_id(self, prefix: str) -> str:
        with self._lock:
            return f"{prefix}_fake{next(self._ids):08d}"

    def _send(
        self, handler: _Handler, status: int, body: bytes, content_type: str, **headers: str
    ) -> None:
        handler.send_response(status)
        handler.send_header("content-type", content_type)
        handler.send_header("content-length", str(len(body)))
        handler.send_header("request-id", headers.pop("request_id", self._new_id("req")))
        for name, value in headers.items():
            handler.send_header(name.replace("_", "-"), value)
        handler.end_headers()
        handler.wfile.write(body)

    def _send_error(self, handler: _Handler, error: _ApiError) -> None:
        request_id = self._new_id("req")
        kind = error.error_type or ERROR_TYPES.get(
            error.status, "api_error" if error.status >= 500 else "invalid_request_error"
        )
        body = {
            "type": "error",
            "error": {"type": kind, "message": error.message},
            "request_id": request_id,
        }
        headers = {"request_id": request_id}
        if error.retry_after is not None:
            headers["retry_after"] = f"{error.retry_after:g}"
        self._send(handler, error.status, json.dumps(body).encode(), "application/json", **headers)

    def _serve(self, handler: _Handler, method: str) -> None:
        url = urlsplit(handler.path)
        length = int(handler.headers.get("content-length") or 0)
        raw = handler.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = ...
        headers = {k.lower(): v for k, v in handler.headers.items()}
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        recorded = None if body is ... else body
        if recorded is not None and not self.keep_image_data:
            recorded = _without_image_data(recorded)
        with self._lock:
            self.requests.append(RecordedRequest(method, url.path, query, headers, recorded))
        cut = self._cut(url.path)
        if cut is not None and not cut.after:
            handler.close_connection = True  # nothing is answered: the client sees a cut
            return
        try:
            if body is ...:
                raise _ApiError(400, "request body is not valid JSON")
            self._authenticate(headers)
            if url.path != "/v1/messages/batches" and len(raw) > MAX_REQUEST_BYTES:
                # api/errors: 32 MB per Messages (and count_tokens) request
                raise _ApiError(
                    413, "Request exceeds the maximum allowed number of bytes", "request_too_large"
                )
            if method == "POST" and url.path == "/v1/messages" and self.latency > 0:
                time.sleep(self.latency)
            self._scripted_failure(url.path)
            try:
                status, payload = self._route(method, url.path, query, body, len(raw))
            except Refusal as refusal:
                raise _ApiError(refusal.status, refusal.message, refusal.error_type) from None
        except _ApiError as error:
            self._send_error(handler, error)
            return
        except Exception as exc:  # a bug in the fake or in model_answer: say so, do not hang
            traceback.print_exc()
            self._send_error(handler, _ApiError(500, f"fake server failed: {exc!r}"))
            return
        if cut is not None:  # carried out, never answered
            handler.close_connection = True
            return
        if isinstance(payload, bytes):  # batch results: JSONL
            self._send(handler, status, payload, "application/binary")
        else:
            self._send(handler, status, json.dumps(payload).encode(), "application/json")

    def _authenticate(self, headers: dict[str, str]) -> None:
        bearer = headers.get("authorization", "")
        key = headers.get("x-api-key") or bearer.removeprefix("Bearer ").strip()
        if not key or key == "bad-key":
            raise _ApiError(401, "invalid x-api-key")
        with self._lock:
            echo, self._echo_key = self._echo_key > 0, max(0, self._echo_key - 1)
        if echo:
            raise _ApiError(401, f"invalid x-api-key {key} (x-api-key: {key})")

    def _cut(self, path: str) -> _Cut | None:
        with self._lock:
            cut = next((c for c in self._cuts if c.remaining > 0 and c.matches(path)), None)
            if cut is not None:
                cut.remaining -= 1
            return cut

    def _scripted_failure(self, path: str) -> None:
        with self._lock:
            failure = next((f for f in self._failures if f.remaining > 0 and f.matches(path)), None)
            if failure is None:
                return
            failure.remaining -= 1
        error = _ApiError(failure.status, f"scripted failure {failure.status}", failure.error_type)
        error.retry_after = failure.retry_after
        raise error

    def _route(
        self, method: str, path: str, query: dict[str, str], body: Any, size: int
    ) -> tuple[int, dict[str, Any] | bytes]:
        if method == "POST" and path == "/v1/messages":
            return 200, self._create_message(body)
        if method == "POST" and path == "/v1/messages/count_tokens":
            check_message(body, counting=True)
            return 200, {"input_tokens": _tokens(body).total}
        if path == "/v1/messages/batches":
            if method == "POST":
                return 200, self._create_batch(body, size)
            if method == "GET":
                return 200, self._list_batches(query)
        match = _BATCH_PATH_RE.match(path)
        if match:
            batch_id, rest = match["id"], match["rest"]
            if method == "GET" and rest is None:
                return 200, self._retrieve(batch_id)
            if method == "GET" and rest == "/results":
                return 200, self._results(batch_id)
            if method == "POST" and rest == "/cancel":
                return 200, self._cancel(batch_id)
            if method == "DELETE" and rest is None:
                return 200, self._delete(batch_id)
        raise _ApiError(404, f"no route for {method} {path}")

    # ------------------------------------------------------------------ messages

    def _create_message(self, body: Any) -> dict[str, Any]:
        check_message(body)
        marker = parse_request(body).request_id
        with self._lock:
            status = self._failing_ids.get(marker) if marker else None
        if status is not None:
            raise _ApiError(status, f"scripted failure {status} for {marker}")
        message = self._message(body, marker, "standard")
        self._enter(marker or message["id"], "sync", "succeeded", body["model"], message["usage"])
        return message

    def _message(self, body: dict[str, Any], custom_id: str | None, tier: str) -> dict[str, Any]:
        """One full Message for ``body``, applying the output scripts."""
        tokens = _tokens(body)
        parsed = parse_request(body)
        answer = self.model_answer(body) if self.model_answer else answer_for(parsed)
        with self._lock:
            script = self._model_scripts.get(str(body.get("model")))
        if script is not None:
            answer = script.apply(answer)
        with self._lock:
            invalid = custom_id in self._invalid_ids or self._invalid_next > 0
            self._invalid_next -= int(custom_id not in self._invalid_ids and invalid)
            bad_pages = self._bad_pages_next > 0
            self._bad_pages_next -= int(bad_pages)
        if bad_pages and answer.get("documents"):
            answer = copy.deepcopy(answer)
            answer["documents"][-1]["page_to"] = len(parsed.pages) + 3
        text = json.dumps(answer, ensure_ascii=False)
        if invalid:
            text = text[: len(text) // 2]  # a proper prefix of an object is never valid JSON
        thinking = thinking_tokens(body)
        answer_tokens = max(1, (len(text) + 3) // 4)
        budget = int(body["max_tokens"])
        with self._lock:
            cut = self._cut_off_next > 0
            self._cut_off_next -= int(cut)
        content: list[dict[str, Any]] = []
        if thinking:  # build-with-claude/thinking: display "omitted" by default
            content.append({"type": "thinking", "thinking": "", "signature": "fake-signature"})
        choice = body.get("tool_choice") or {}
        if cut or thinking + answer_tokens > budget:
            # build-with-claude/thinking: thinking counts toward max_tokens; the text
            # stops where the budget ends
            visible = max(0, budget - thinking) * 4
            text = text[: min(visible, len(text) // 2)]
            content.append({"type": "text", "text": text})
            stop_reason, output_tokens = "max_tokens", budget
        elif choice.get("type") == "tool":
            tool_input = {"documents": text} if invalid else answer  # schema-invalid when bad
            content.append(
                {
                    "type": "tool_use",
                    "id": self._new_id("toolu"),
                    "name": choice["name"],
                    "input": tool_input,
                }
            )
            stop_reason, output_tokens = "tool_use", thinking + answer_tokens
        else:
            content.append({"type": "text", "text": text})
            stop_reason, output_tokens = "end_turn", thinking + answer_tokens
        if tokens.cacheable < min_cache_tokens(body["model"]):
            tokens = replace(tokens, cacheable=0)  # too short to cache; no error
        usage = self._cache.usage(tokens, output_tokens, tier)
        usage["output_tokens_details"] = {"thinking_tokens": thinking}
        return {
            "id": self._new_id("msg"),
            "type": "message",
            "role": "assistant",
            "model": body["model"],
            "content": content,
            "stop_reason": stop_reason,
            "stop_sequence": None,
            "usage": usage,
        }

    # ------------------------------------------------------------------- batches

    def _create_batch(self, body: Any, size: int) -> dict[str, Any]:
        requests = check_batch(body, size)
        batch = _Batch(
            id=self._new_id("msgbatch"),
            requests=requests,
            created_at=datetime.now(UTC),
            polls_needed=self.batch_polls_needed,
        )
        with self._lock:
            self._batches[batch.id] = batch
            for custom_id, params in requests:
                self._enter(custom_id, batch.id, "processing", str(params.get("model")), None)
        return self._batch_json(batch)

    def _batch(self, batch_id: str) -> _Batch:
        batch = self._batches.get(batch_id)
        if batch is None:
            raise _ApiError(404, f"message batch {batch_id} not found")
        return batch

    def _batch_json(self, batch: _Batch) -> dict[str, Any]:
        total = len(batch.requests)
        counts = batch.counts or {"processing": total}
        ended = batch.status == "ended"
        return {
            "id": batch.id,
            "type": "message_batch",
            "processing_status": batch.status,
            "request_counts": {
                key: counts.get(key, 0)
                for key in ("processing", "succeeded", "errored", "canceled", "expired")
            },
            "created_at": _iso(batch.created_at),
            "expires_at": _iso(batch.created_at + timedelta(hours=24)),
            "ended_at": _iso(batch.ended_at),
            "archived_at": None,
            "cancel_initiated_at": _iso(batch.cancel_initiated_at),
            "results_url": f"{self.url}/v1/messages/batches/{batch.id}/results" if ended else None,
        }

    def _retrieve(self, batch_id: str) -> dict[str, Any]:
        with self._lock:
            batch = self._batch(batch_id)
            if batch.status != "ended":
                batch.polls += 1
                if batch.status == "canceling" or batch.polls >= batch.polls_needed:
                    self._end(batch)
            return self._batch_json(batch)

    def _end(self, batch: _Batch) -> None:
        """Decide every request's outcome once, in request order (so scripts apply in order).

        After a cancel, only the share of requests matching the polls done before it
        had finished; the rest are canceled.
        """
        done = len(batch.requests)
        if batch.status == "canceling":
            done = len(batch.requests) * batch.polls_at_cancel // max(1, batch.polls_needed)
        results = []
        for i, (custom_id, params) in enumerate(batch.requests):
            results.append(
                {"custom_id": custom_id, "result": self._outcome(custom_id, params, i < done)}
            )
        counts = {"processing": 0, "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}
        for line in results:
            counts[line["result"]["type"]] += 1
            message = line["result"].get("message") or {}
            outcome, usage = line["result"]["type"], message.get("usage")
            self._enter(line["custom_id"], batch.id, outcome, message.get("model", ""), usage)
        random.Random(batch.id).shuffle(results)
        batch.results, batch.counts = results, counts
        batch.status, batch.ended_at = "ended", datetime.now(UTC)

    def _outcome(self, custom_id: str, params: dict[str, Any], finished: bool) -> dict[str, Any]:
        if not finished:
            return {"type": "canceled"}
        if custom_id in self._expired:
            return {"type": "expired"}
        error_type, message = self._errored.get(custom_id), "scripted batch error"
        if error_type is None:
            try:
                check_message(params)
                return {"type": "succeeded", "message": self._message(params, custom_id, "batch")}
            except Refusal as refusal:
                error_type, message = refusal.error_type, refusal.message
            except _ApiError as error:
                error_type, message = ERROR_TYPES.get(error.status, "api_error"), error.message
        return {
            "type": "errored",
            "error": {
                "type": "error",
                "error": {"type": error_type, "message": message},
                "request_id": self._new_id("req"),
            },
        }

    def _results(self, batch_id: str) -> bytes:
        with self._lock:
            batch = self._batch(batch_id)
            if batch.status != "ended":
                raise _ApiError(400, f"message batch {batch_id} has not ended")
            lines = [json.dumps(r, ensure_ascii=False) for r in batch.results]
        return ("\n".join(lines) + "\n").encode()

    def _cancel(self, batch_id: str) -> dict[str, Any]:
        with self._lock:
            batch = self._batch(batch_id)
            if batch.status == "in_progress":
                batch.status = "canceling"
                batch.cancel_initiated_at = datetime.now(UTC)
                batch.polls_at_cancel = batch.polls
            return self._batch_json(batch)

    def _delete(self, batch_id: str) -> dict[str, Any]:
        with self._lock:
            batch = self._batch(batch_id)
            if batch.status != "ended":
                raise _ApiError(400, f"message batch {batch_id} is still {batch.status}")
            del self._batches[batch_id]
        return {"id": batch_id, "type": "message_batch_deleted"}

    def _list_batches(self, query: dict[str, str]) -> dict[str, Any]:
        """Newest first; ``after_id`` pages towards older batches, ``before_id`` newer."""
        try:
            limit = min(max(int(query.get("limit", 20)), 1), 1000)
        except ValueError as exc:
            raise _ApiError(400, "limit must be an integer") from exc
        with self._lock:
            ordered = list(reversed(self._batches.values()))
            ids = [b.id for b in ordered]
            for key in ("after_id", "before_id"):
                if key in query and query[key] not in ids:
                    raise _ApiError(404, f"{key}: message batch {query[key]} not found")
            if "before_id" in query:
                older = ordered[: ids.index(query["before_id"])]
                page, has_more = older[-limit:], len(older) > limit
            else:
                start = ids.index(query["after_id"]) + 1 if "after_id" in query else 0
                page, has_more = ordered[start : start + limit], len(ordered) > start + limit
            data = [self._batch_json(b) for b in page]
        return {
            "data": data,
            "has_more": has_more,
            "first_id": data[0]["id"] if data else None,
            "last_id": data[-1]["id"] if data else None,
        }


def _tokens(body: dict[str, Any]) -> TokenCount:
    try:
        return count_tokens(body)
    except RequestInvalid as exc:
        raise _ApiError(400, str(exc)) from exc


def _without_image_data(value: Any) -> Any:
    """A copy of a request body with every base64 ``data`` replaced by its length."""
    if isinstance(value, list):
        return [_without_image_data(v) for v in value]
    if not isinstance(value, dict):
        return value
    if value.get("type") == "base64" and isinstance(value.get("data"), str):
        return {**value, "data": f"<{len(value['data'])} base64 chars>"}
    return {k: _without_image_data(v) for k, v in value.items()}
