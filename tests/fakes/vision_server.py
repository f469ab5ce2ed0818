"""A wire-level fake of the Google Cloud Vision REST API for tests.

The real ``google-cloud-vision`` client is pointed at it (REST transport, plain HTTP),
so request encoding, proto-JSON parsing and the HTTP-status-to-exception mapping are
the library's own, not a mock's idea of them:

    with FakeVision() as fake:
        client = vision.ImageAnnotatorClient(
            credentials=AnonymousCredentials(), transport="rest",
            client_options={"api_endpoint": fake.url})
        fake.text_for_next("Invoice 42", rotation=90)
        fake.fail_next(1, 503)
        ...

Only ``POST /v1/images:annotate`` is served. Answers carry a ``fullTextAnnotation``
whose word and block vertices are laid out on an upright page and then turned, so a
client that infers orientation from the vertices is exercised for real. Like the real
API, zero coordinates are left out of the JSON (proto3 omits default values).
"""

from __future__ import annotations

import base64
import binascii
import json
import socket
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass
from http.server import ThreadingHTTPServer
from typing import Any

from tests.fakes.local_server import LocalServer, TrackingHandler

__all__ = [
    "BILLING_MESSAGE",
    "PAGE_HEIGHT",
    "PAGE_WIDTH",
    "FakeVision",
    "Word",
    "layout_words",
]

PAGE_WIDTH = 1000  # the upright page, in pixels
PAGE_HEIGHT = 1400
DOCUMENT_TEXT_DETECTION = 11  # Feature.Type; the REST client sends enums as integers
BILLING_MESSAGE = (
    "This API method requires billing to be enabled. Please enable billing on project "
    "#123 by visiting https://console.developers.google.com/billing/enable?project=123 "
    "then retry."
)
_STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}
_DEFAULT_MESSAGES = {
    401: (
        "Request had invalid authentication credentials. Expected OAuth 2 access token, "
        "login cookie or other valid authentication credential."
    ),
    403: BILLING_MESSAGE,
    503: "The service is currently unavailable.",
}
Point = tuple[int, int]


@dataclass(frozen=True)
class Word:
    """One word as the fake reports it: its text and four vertices in reading order."""

    text: str
    vertices: tuple[Point, Point, Point, Point]


@dataclass
class _Answer:
    text: str
    rotation: int
    stray_words: int


@dataclass
class _Failure:
    remaining: int
    status: int
    message: str


def _turn_clockwise(point: Point, width: int, height: int, quarter_turns: int) -> Point:
    """Where ``point`` of a ``width`` x ``height`` image lands when the image is turned
    clockwise by ``quarter_turns`` x 90° (image coordinates: y grows downwards)."""
    x, y = point
    for _ in range(quarter_turns % 4):
        x, y = height - y, x  # one clockwise quarter turn; width and height swap
        width, height = height, width
    return x, y


def layout_words(text: str, rotation: int = 0, stray_words: int = 0) -> list[Word]:
    """The words of ``text`` as they appear on a scan needing ``rotation`` clockwise
    degrees to be upright.

    Words are set left to right in lines on an upright ``PAGE_WIDTH`` x ``PAGE_HEIGHT``
    page, then the page is turned counter-clockwise by ``rotation`` (what the scanner
    did), keeping each word's vertex order (reading order, as Vision reports it). The
    last ``stray_words`` words are set upside down, like a stamp, to lower the client's
    rotation confidence.
    """
    if rotation % 90:
        raise ValueError(f"rotation must be a multiple of 90, not {rotation}")
    quarter_turns = (360 - rotation % 360) // 90  # the scan is the upright page turned back
    words = text.split()
    upright: list[tuple[str, list[Point]]] = []
    x, y = 50, 60
    for index, word in enumerate(words):
        width = 18 * len(word)
        if x + width > PAGE_WIDTH - 50:
            x, y = 50, y + 40
        box = [(x, y), (x + width, y), (x + width, y + 28), (x, y + 28)]
        if index >= len(words) - stray_words:
            box = box[2:] + box[:2]  # read from the bottom-right corner: upside down
        upright.append((word, box))
        x += width + 14
    placed = []
    for word, box in upright:
        turned = [_turn_clockwise(p, PAGE_WIDTH, PAGE_HEIGHT, quarter_turns) for p in box]
        placed.append(Word(word, (turned[0], turned[1], turned[2], turned[3])))
    return placed


def _vertices(points: list[Point] | tuple[Point, ...]) -> list[dict[str, int]]:
    """Proto3 JSON leaves out zero values, so a vertex at x=0 has no "x" key."""
    return [{k: v for k, v in (("x", x), ("y", y)) if v} for x, y in points]


def _bounds(points: list[Point]) -> list[Point]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return [(min(xs), min(ys)), (max(xs), min(ys)), (max(xs), max(ys)), (min(xs), max(ys))]


def annotate_response(text: str, rotation: int = 0, stray_words: int = 0) -> dict[str, Any]:
    """One ``AnnotateImageResponse`` in REST JSON for ``text`` on a turned scan.

    The whole page is one block with one paragraph: the client reads words, so the
    block structure is kept minimal. The block's box is turned with the page, with
    its vertex 0 at the turned upright top-left corner, as Vision does.
    """
    words = layout_words(text, rotation, stray_words)
    quarter_turns = (360 - rotation % 360) // 90
    width, height = (
        (PAGE_WIDTH, PAGE_HEIGHT) if quarter_turns % 2 == 0 else (PAGE_HEIGHT, PAGE_WIDTH)
    )
    word_json = [
        {
            "boundingBox": {"vertices": _vertices(w.vertices)},
            "symbols": [{"text": ch} for ch in w.text],
            "confidence": 0.98,
        }
        for w in words
    ]
    upright_block = [(40, 50), (PAGE_WIDTH - 40, 50), (PAGE_WIDTH - 40, 1300), (40, 1300)]
    block_box = [_turn_clockwise(p, PAGE_WIDTH, PAGE_HEIGHT, quarter_turns) for p in upright_block]
    full_text = text if text.endswith("\n") or not text else text + "\n"
    all_points = [p for w in words for p in w.vertices]
    text_annotations: list[dict[str, Any]] = []
    if words:
        text_annotations.append(
            {
                "locale": "ru",
                "description": full_text,
                "boundingPoly": {"vertices": _vertices(_bounds(all_points))},
            }
        )
        text_annotations += [
            {"description": w.text, "boundingPoly": {"vertices": _vertices(w.vertices)}}
            for w in words
        ]
    pages = []
    if words:
        pages.append(
            {
                "width": width,
                "height": height,
                "blocks": [
                    {
                        "boundingBox": {"vertices": _vertices(block_box)},
                        "paragraphs": [
                            {
                                "boundingBox": {"vertices": _vertices(block_box)},
                                "words": word_json,
                            }
                        ],
                        "blockType": "TEXT",
                        "confidence": 0.97,
                    }
                ],
            }
        )
    response: dict[str, Any] = {}
    if words:
        response["textAnnotations"] = text_annotations
        response["fullTextAnnotation"] = {"pages": pages, "text": full_text}
    return response


class _ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class _Handler(TrackingHandler):
    server: _Server

    def do_POST(self) -> None:
        self.server.fake._serve(self)

    def do_GET(self) -> None:
        self.server.fake._serve(self)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, fake: FakeVision) -> None:
        self.fake = fake
        super().__init__(("127.0.0.1", 0), _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that timed out and hung up is expected here, not news."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


class FakeVision(LocalServer):
    """The fake server; scripting methods are safe to call from any thread.

    Every request to the annotate route counts in ``calls`` and is kept in
    ``requests`` (decoded JSON) before ``latency`` is slept and scripts apply.
    Order of scripts: ``fail_next`` (whole request fails with an HTTP error), then
    ``per_image_error_next`` (a 200 whose response carries ``error``), then
    ``text_for_next`` (else ``default_text`` upright).
    """

    def __init__(
        self, *, default_text: str = "Счёт № 42 от 01.02.2024\nИтого 1 500,00 руб."
    ) -> None:
        self.default_text = default_text
        self.url = ""
        self.latency = 0.0
        self.calls = 0
        self.requests: list[Any] = []
        self._lock = threading.RLock()
        self._answers: deque[_Answer] = deque()
        self._image_errors: deque[str] = deque()
        self._failures: deque[_Failure] = deque()
        self.thread_name = "fake-vision"
        self._connections: set[socket.socket] = set()

    # ----------------------------------------------------------------- lifecycle

    def _make_server(self) -> _Server:
        return _Server(self)

    def reset(self) -> None:
        """A clean slate between tests: counters, records, scripts and latency."""
        with self._lock:
            self.calls = 0
            self.requests.clear()
            self.latency = 0.0
            self._answers.clear()
            self._image_errors.clear()
            self._failures.clear()

    # ----------------------------------------------------------------- scripting

    def text_for_next(self, text: str, rotation: int = 0, *, stray_words: int = 0) -> None:
        """The next successful answer reads ``text`` from a scan that needs ``rotation``
        clockwise degrees to be upright; ``stray_words`` trailing words are upside down."""
        if rotation % 90:
            raise ValueError(f"rotation must be a multiple of 90, not {rotation}")
        with self._lock:
            self._answers.append(_Answer(text, rotation % 360, stray_words))

    def per_image_error_next(self, message: str = "Bad image data.") -> None:
        """The next request gets a 200 whose single response carries ``error``."""
        with self._lock:
            self._image_errors.append(message)

    def fail_next(self, count: int, status: int, message: str | None = None) -> None:
        """The next ``count`` requests fail with ``status`` in Google's error JSON.

        403 defaults to the billing-disabled message, 401 to refused credentials.
        """
        text = message or _DEFAULT_MESSAGES.get(status, f"scripted failure {status}")
        with self._lock:
            self._failures.append(_Failure(count, status, text))

    # ------------------------------------------------------------------ plumbing

    def _track(self, conn: socket.socket, *, add: bool) -> None:
        with self._lock:
            if add:
                self._connections.add(conn)
            else:
                self._connections.discard(conn)

    def _send(self, handler: _Handler, status: int, payload: dict[str, Any]) -> None:
        body = json.dumps(payload, ensure_ascii=False).encode()
        handler.send_response(status)
        handler.send_header("content-type", "application/json; charset=UTF-8")
        handler.send_header("content-length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    def _serve(self, handler: _Handler) -> None:
        length = int(handler.headers.get("content-length") or 0)
        raw = handler.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        try:
            if handler.command != "POST" or handler.path.split("?")[0] != "/v1/images:annotate":
                raise _ApiError(404, f"no route for {handler.command} {handler.path}")
            with self._lock:
                self.calls += 1
                self.requests.append(body)
                latency = self.latency
            if latency > 0:
                time.sleep(latency)
            self._scripted_failure()
            payload = self._annotate(body)
        except _ApiError as error:
            status_name = _STATUS_NAMES.get(error.status, "UNKNOWN")
            self._send(
                handler,
                error.status,
                {"error": {"code": error.status, "message": error.message, "status": status_name}},
            )
            return
        self._send(handler, 200, payload)

    def _scripted_failure(self) -> None:
        with self._lock:
            while self._failures and self._failures[0].remaining <= 0:
                self._failures.popleft()
            if not self._failures:
                return
            failure = self._failures[0]
            failure.remaining -= 1
        raise _ApiError(failure.status, failure.message)

    def _annotate(self, body: Any) -> dict[str, Any]:
        requests = body.get("requests") if isinstance(body, dict) else None
        if not isinstance(requests, list) or not requests:
            raise _ApiError(400, "requests: a non-empty list is required")
        responses = []
        for i, request in enumerate(requests):
            content = ((request or {}).get("image") or {}).get("content")
            try:
                image = base64.b64decode(content or "", validate=True)
            except (binascii.Error, ValueError) as exc:
                raise _ApiError(400, f"requests[{i}].image.content: invalid base64") from exc
            types = [f.get("type") for f in request.get("features") or []]
            if DOCUMENT_TEXT_DETECTION not in types and "DOCUMENT_TEXT_DETECTION" not in types:
                raise _ApiError(400, f"requests[{i}].features: DOCUMENT_TEXT_DETECTION expected")
            with self._lock:
                image_error = self._image_errors.popleft() if self._image_errors else None
                answer = self._answers.popleft() if self._answers else None
            if image_error is not None:
                responses.append({"error": {"code": 3, "message": image_error}})
            elif not image:
                responses.append({"error": {"code": 3, "message": "Bad image data."}})
            elif answer is None:
                responses.append(annotate_response(self.default_text))
            else:
                responses.append(
                    annotate_response(answer.text, answer.rotation, answer.stray_words)
                )
        return {"responses": responses}
