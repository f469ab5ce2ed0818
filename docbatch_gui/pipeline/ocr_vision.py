"""The Google Cloud Vision OCR engine (``google_vision``).

It uses the official client over REST (one plain HTTPS request per page; the tests
point it at a plain-HTTP fake) and ``DOCUMENT_TEXT_DETECTION``, the feature meant for
dense scanned pages. Three things the client does not do for us:

- Retries. Its default retry keeps trying 503s and deadlines for up to 600 s, which
  would stall a worker for ten minutes. Each call here has an explicit ``timeout``,
  and a ``google.api_core.retry.Retry`` of our own tries transient failures a few
  times (``attempts``) with a short, jittered exponential backoff.
- Failure kinds. Billing and credential refusals stop the queue (``CriticalError``)
  because no retry can fix them; transient failures become ``RetryableError``; an
  error for this one image (inside a 200) fails only this page's OCR.
- Rotation. Vision has no orientation field, but lists every word's vertices in
  reading order, so the direction of vertex 0 -> 1 tells how the page is turned
  (``orientation.from_vote``: most letters must agree before a page is turned).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from docbatch_gui.domain.errors import CriticalError, RetryableError
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.extras import require
from docbatch_gui.pipeline.ocr import OcrResult
from docbatch_gui.pipeline.orientation import from_vote
from docbatch_gui.pipeline.words import Word, normalised, turned

__all__ = ["VisionOcr"]

_SCOPES = (
    "https://www.googleapis.com/auth/cloud-platform",
    "https://www.googleapis.com/auth/cloud-vision",
)
_DOCUMENT_TEXT_DETECTION = 11  # vision.Feature.Type.DOCUMENT_TEXT_DETECTION


def _vectors(annotation: Any) -> list[tuple[float, float, float]]:
    """Word vectors weighted by letter count (long words are the surest); the block
    vectors when no word has a usable box."""
    words: list[tuple[float, float, float]] = []
    blocks: list[tuple[float, float, float]] = []
    for page in annotation.pages:
        for block in page.blocks:
            vertices = block.bounding_box.vertices
            if len(vertices) >= 2:
                blocks.append((vertices[1].x - vertices[0].x, vertices[1].y - vertices[0].y, 1.0))
            for paragraph in block.paragraphs:
                for word in paragraph.words:
                    vertices = word.bounding_box.vertices
                    if len(vertices) >= 2:
                        dx, dy = vertices[1].x - vertices[0].x, vertices[1].y - vertices[0].y
                        words.append((dx, dy, float(max(1, len(word.symbols)))))
    return words if any(dx or dy for dx, dy, _ in words) else blocks


def _words(annotation: Any) -> list[Word]:
    """Every word with its box, in fractions of the page Vision read (the image sent)."""
    out = []
    for page in annotation.pages:
        for block in page.blocks:
            for paragraph in block.paragraphs:
                for word in paragraph.words:
                    vertices = word.bounding_box.vertices
                    if not vertices:
                        continue
                    xs, ys = [v.x for v in vertices], [v.y for v in vertices]
                    text = "".join(symbol.text for symbol in word.symbols)
                    box = normalised(
                        text, min(xs), min(ys), max(xs), max(ys), page.width, page.height
                    )
                    if box is not None:
                        out.append(box)
    return out


def _transient_errors() -> tuple[type[Exception], ...]:
    """Failures another attempt may cure: overload, a deadline, the network."""
    # deferred: requests, 0.17 s to import
    import requests
    from google.api_core import exceptions as api
    from google.auth import exceptions as auth_exceptions

    return (
        api.ServiceUnavailable,
        api.DeadlineExceeded,
        api.InternalServerError,
        api.TooManyRequests,
        api.BadGateway,
        api.GatewayTimeout,
        requests.exceptions.ConnectionError,
        requests.exceptions.Timeout,
        auth_exceptions.TransportError,
    )


def _api_message(exc: Any) -> str:
    """The server's message without the "POST https://...: " prefix api_core adds."""
    message = str(getattr(exc, "message", "") or exc)
    method, _, rest = message.partition(" ")
    if method in {"GET", "POST"} and ": " in rest:
        return rest.split(": ", 1)[1]
    return message


class VisionOcr:
    """``OcrEngine`` backed by Google Cloud Vision; safe to share between threads."""

    name = "google_vision"

    def __init__(
        self,
        *,
        languages: Sequence[str] = ("ru", "en"),
        endpoint: str | None = None,
        credentials_file: Path | None = None,
        timeout: float = 30.0,
        attempts: int = 3,
        backoff: float = 0.2,
        credentials: Any = None,
    ) -> None:
        """``endpoint`` (e.g. "http://127.0.0.1:PORT") is for a local fake and uses
        anonymous credentials; otherwise ``credentials_file`` or the environment's
        application-default credentials are used. ``credentials`` (a google.auth
        credentials object) overrides all of these, for callers that already hold one.
        ``backoff`` bounds the first pause between attempts, doubled after each (a
        random share of it is slept, so engines on several threads do not retry in
        step)."""
        if attempts < 1:
            raise ValueError("attempts must be at least 1")
        self.languages = tuple(languages)
        self.endpoint = endpoint
        self.credentials_file = credentials_file
        self.timeout = timeout
        self.attempts = attempts
        self.backoff = backoff
        self.credentials = credentials
        self._client: Any = None
        self._lock = threading.Lock()

    # ------------------------------------------------------------------- client

    def _get_client(self) -> Any:
        """Built on first use: importing the Vision package alone takes a second or so,
        and an engine that is configured but never used should cost nothing."""
        with self._lock:
            if self._client is None:
                self._client = self._build_client()
            return self._client

    def _build_client(self) -> Any:
        require("vision", "google.cloud.vision", "Google Vision")
        # deferred: Google Vision (vision extra), 0.5 s to import
        import google.auth
        from google.auth import exceptions as auth_exceptions
        from google.auth.credentials import AnonymousCredentials
        from google.cloud import vision
        from google.oauth2 import service_account

        options: dict[str, Any] = {}
        if self.endpoint:
            options["api_endpoint"] = self.endpoint
        try:
            if self.credentials is not None:
                credentials: Any = self.credentials
            elif self.endpoint:
                credentials = AnonymousCredentials()
            elif self.credentials_file is not None:
                # the type-specific loader: a generic one would accept any credential
                # configuration, which google-auth warns against for files from elsewhere
                credentials = service_account.Credentials.from_service_account_file(
                    str(self.credentials_file), scopes=list(_SCOPES)
                )
            else:
                credentials, _ = google.auth.default(default_scopes=list(_SCOPES))
        except (auth_exceptions.DefaultCredentialsError, OSError, ValueError, KeyError) as exc:
            raise self._credentials_error(exc) from exc
        return vision.ImageAnnotatorClient(
            credentials=credentials, transport="rest", client_options=options or None
        )

    # ---------------------------------------------------------------- recognise

    def recognise(self, jpeg: bytes, page_no: int) -> OcrResult:
        """Text and orientation of one page; see the module docstring for failures."""
        client = self._get_client()
        # deferred: Google Vision (vision extra), 0.5 s to import
        from google.api_core import exceptions as api  # loaded with the client: cheap now

        request = {
            "image": {"content": jpeg},
            "features": [{"type_": _DOCUMENT_TEXT_DETECTION}],
            "image_context": {"language_hints": list(self.languages)},
        }
        retry, failures = self._retry()
        try:
            # retry=None: the client's own retry must not run inside ours.
            batch = retry(client.batch_annotate_images)(
                requests=[request], retry=None, timeout=self.timeout
            )
        except api.BadRequest as exc:  # about this one image: only its OCR fails
            return OcrResult(
                page_no,
                "",
                engine=self.name,
                error=coded("vision_page_rejected", detail=_api_message(exc)),
            )
        except Exception as exc:
            # a RetryError is the overall deadline, before the attempts ran out
            failure = exc.cause if isinstance(exc, api.RetryError) else exc
            cause = (
                self._classify(failure)  # raises unless the failure is transient
                if isinstance(failure, Exception)
                else coded("vision_cause_other", error=str(exc))
            )
            raise RetryableError.coded(
                "vision_no_answer", {"page": page_no, "attempts": len(failures), "cause": cause}
            ) from exc
        return self._result(batch.responses[0], page_no)

    def _retry(self) -> tuple[Any, list[Exception]]:
        """A Retry for one page, and the transient failures it met. It stops after
        ``attempts`` calls (the predicate counts them: Retry itself only knows a
        deadline) and by the deadline that many timed-out calls and pauses take."""
        # deferred: Google Vision (vision extra), 0.5 s to import
        from google.api_core.retry import Retry

        transient = _transient_errors()
        failures: list[Exception] = []

        def again(exc: Exception) -> bool:
            if not isinstance(exc, transient):
                return False
            failures.append(exc)
            return len(failures) < self.attempts

        longest = self.backoff * 2 ** max(0, self.attempts - 2)
        retry = Retry(
            predicate=again,
            initial=self.backoff,
            multiplier=2.0,
            maximum=longest,
            timeout=self.attempts * (self.timeout + longest),
        )
        return retry, failures

    def _result(self, response: Any, page_no: int) -> OcrResult:
        if response.error.message:
            return OcrResult(
                page_no,
                "",
                engine=self.name,
                error=coded("vision_page_unreadable", detail=response.error.message),
            )
        annotation = response.full_text_annotation
        orientation = from_vote(_vectors(annotation), coded("orient_source_vision"))
        return OcrResult(
            page_no,
            annotation.text,
            rotation=orientation.rotation,
            rotation_confidence=orientation.confidence,
            engine=self.name,
            orientation_note=orientation.note,
            orientation_uncertain=orientation.uncertain,
            words=turned(_words(annotation), orientation.rotation),
        )

    def _classify(self, exc: Exception) -> Message:
        """The cause of a transient failure, to retry; raises for everything else."""
        # deferred: requests, 0.17 s to import
        import requests
        from google.api_core import exceptions as api
        from google.auth import exceptions as auth_exceptions

        if isinstance(exc, api.Forbidden):  # 403 PERMISSION_DENIED
            message = _api_message(exc)
            if "billing" in message.lower():
                raise CriticalError.coded("vision_billing", {"detail": message}) from exc
            if "has not been used" in message or "is disabled" in message:
                raise CriticalError.coded("vision_api_disabled", {"detail": message}) from exc
            raise CriticalError.coded(
                "vision_credentials_refused", {"status": 403, "detail": message}
            ) from exc
        if isinstance(exc, api.Unauthorized):  # 401 UNAUTHENTICATED, after a token refresh
            raise CriticalError.coded(
                "vision_credentials_refused", {"status": 401, "detail": _api_message(exc)}
            ) from exc
        if isinstance(exc, auth_exceptions.GoogleAuthError) and not isinstance(
            exc, auth_exceptions.TransportError
        ):  # no token could be obtained, e.g. a revoked key or, with a fake, a 401
            raise CriticalError.coded("vision_token_refused", {"detail": str(exc)}) from exc
        transient = _transient_errors()
        if isinstance(exc, requests.exceptions.Timeout):
            return coded("vision_cause_timeout", seconds=f"{self.timeout:g}")
        if isinstance(exc, requests.exceptions.ConnectionError):
            return coded("vision_cause_network", error=type(exc).__name__)
        if isinstance(exc, api.TooManyRequests):  # 429 RESOURCE_EXHAUSTED: a quota
            return coded("vision_cause_quota", detail=_api_message(exc))
        if isinstance(exc, transient) and isinstance(exc, api.GoogleAPICallError):
            return coded("vision_cause_busy", status=exc.code, detail=_api_message(exc))
        if isinstance(exc, transient):
            return coded("vision_cause_other", error=f"{type(exc).__name__}: {exc}")
        if isinstance(exc, api.GoogleAPICallError):
            raise CriticalError.coded(
                "vision_request_refused", {"status": exc.code, "detail": _api_message(exc)}
            ) from exc
        raise exc

    def _credentials_error(self, exc: Exception) -> CriticalError:
        """Why no credentials could be loaded: no file where one is named, a file that
        is not a service-account key, or nothing configured at all."""
        if self.credentials_file is None:
            return CriticalError.coded("vision_credentials_none", {"detail": str(exc)})
        path = str(self.credentials_file)
        if not self.credentials_file.is_file():
            return CriticalError.coded("vision_credentials_missing", {"path": path})
        return CriticalError.coded("vision_credentials_invalid", {"path": path, "detail": str(exc)})
