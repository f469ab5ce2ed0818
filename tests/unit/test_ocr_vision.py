"""The Google Vision engine with the real client (REST) against the wire-level fake.

What matters here is what the pipeline relies on: the failure kind of each HTTP
outcome (billing and credentials stop the queue and are never retried), that retries
are ours and bounded (the client's own would wait 600 s), and that the rotation read
from word vertices really turns the scan upright with ``rotate_jpeg``.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from google.auth.credentials import Credentials
from PIL import Image, ImageDraw

from docbatch_gui.domain.errors import CriticalError, DocBatchError, ErrorKind, RetryableError
from docbatch_gui.domain.messages import Message
from docbatch_gui.pipeline.ocr import OcrEngine, rotate_jpeg
from docbatch_gui.pipeline.ocr_vision import VisionOcr
from docbatch_gui.pipeline.orientation import rotation_from_vectors
from tests.fakes.vision_server import (
    PAGE_HEIGHT,
    PAGE_WIDTH,
    FakeVision,
    layout_words,
)

JPEG = b"\xff\xd8\xff\xe0 not really a jpeg, the fake only checks it is non-empty"
TEXT = "Счёт на оплату № 42 от 01.02.2024 Итого к оплате 1 500,00 руб."


def _code(exc: DocBatchError) -> str | None:
    found = exc.message
    return found.code if found else None


def word_again(error: Message | None) -> str:
    """A page error in Russian, from the code it carries."""
    assert error is not None and error.code, f"no message code: {error!r}"
    return error.words("ru")


@pytest.fixture(scope="module")
def _vision_server() -> Iterator[FakeVision]:
    with FakeVision() as server:
        yield server


@pytest.fixture
def fake(_vision_server: FakeVision) -> FakeVision:
    _vision_server.reset()
    return _vision_server


@pytest.fixture
def engine(fake: FakeVision) -> VisionOcr:
    return VisionOcr(endpoint=fake.url, timeout=5.0, attempts=3, backoff=0.01)


def test_engine_satisfies_the_port(engine: VisionOcr) -> None:
    port: OcrEngine = engine
    assert port.name == "google_vision"


def test_text_is_returned_and_the_request_is_document_text_with_hints(
    fake: FakeVision,
) -> None:
    engine = VisionOcr(endpoint=fake.url, languages=("ru", "de"))
    fake.text_for_next(TEXT)

    result = engine.recognise(JPEG, 3)

    assert result.text == TEXT + "\n"
    assert (result.page_no, result.engine, result.error) == (3, "google_vision", None)
    assert (result.rotation, result.rotation_confidence) == (0, 1.0)
    [request] = fake.requests[-1]["requests"]
    assert request["features"] == [{"type": 11}]  # DOCUMENT_TEXT_DETECTION, as an integer
    assert request["imageContext"]["languageHints"] == ["ru", "de"]
    assert fake.calls == 1


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_rotation_is_read_from_word_vertices(
    fake: FakeVision, engine: VisionOcr, rotation: int
) -> None:
    fake.text_for_next(TEXT, rotation)

    result = engine.recognise(JPEG, 1)

    assert (result.rotation, result.rotation_confidence) == (rotation, 1.0)
    assert result.text.startswith("Счёт")


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_the_reported_rotation_turns_the_scan_upright(
    fake: FakeVision, engine: VisionOcr, rotation: int
) -> None:
    """End to end with the pipeline's own ``rotate_jpeg``: draw a dark mark at the first
    word's vertex 0 and a light one at its vertex 1 on a scan laid out as the fake
    reports it, turn it by the engine's answer: vertex 1 must be right of vertex 0."""
    fake.text_for_next(TEXT, rotation)
    result = engine.recognise(JPEG, 1)
    first = layout_words(TEXT, rotation)[0]
    size = (PAGE_WIDTH, PAGE_HEIGHT) if rotation in (0, 180) else (PAGE_HEIGHT, PAGE_WIDTH)
    scan = Image.new("L", (size[0] // 10, size[1] // 10), 128)
    draw = ImageDraw.Draw(scan)
    for (x, y), shade in ((first.vertices[0], 0), (first.vertices[1], 255)):
        draw.ellipse((x // 10 - 3, y // 10 - 3, x // 10 + 3, y // 10 + 3), fill=shade)
    buffer = io.BytesIO()
    scan.save(buffer, "JPEG", quality=95)

    upright = Image.open(io.BytesIO(rotate_jpeg(buffer.getvalue(), result.rotation)))

    dark, light = _centroid(upright, dark=True), _centroid(upright, dark=False)
    assert light[0] - dark[0] > 5  # the word's top edge now runs left to right
    assert abs(light[1] - dark[1]) < 2
    assert upright.size == (PAGE_WIDTH // 10, PAGE_HEIGHT // 10)  # portrait again


def _centroid(image: Image.Image, *, dark: bool) -> tuple[float, float]:
    width = image.size[0]
    data = image.convert("L").tobytes()
    points = [(i % width, i // width) for i, v in enumerate(data) if (v < 40 if dark else v > 215)]
    assert points
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


def test_confidence_is_the_letter_weighted_share_of_the_majority(
    fake: FakeVision, engine: VisionOcr
) -> None:
    fake.text_for_next("alpha beta gamma delta STAMP", 90, stray_words=1)  # 19 vs 5 letters

    result = engine.recognise(JPEG, 1)

    assert result.rotation == 90
    assert result.rotation_confidence == pytest.approx(19 / 24, abs=1e-3)


def test_a_page_without_text_has_no_rotation(fake: FakeVision, engine: VisionOcr) -> None:
    fake.text_for_next("")

    result = engine.recognise(JPEG, 1)

    assert (result.text, result.rotation, result.rotation_confidence) == ("", 0, 0.0)
    assert result.error is None


def test_rotation_from_vectors_snaps_skew_and_breaks_ties_towards_upright() -> None:
    assert rotation_from_vectors([(100, 9, 1)]) == (0, 1.0)  # ~5° skew is still upright
    assert rotation_from_vectors([(3, 100, 1)]) == (270, 1.0)  # reads top to bottom
    assert rotation_from_vectors([(-3, -100, 1)]) == (90, 1.0)  # reads bottom to top
    assert rotation_from_vectors([(-100, 2, 1)]) == (180, 1.0)
    assert rotation_from_vectors([(100, 0, 2), (-100, 0, 2)]) == (0, 0.5)
    assert rotation_from_vectors([(0, 0, 5)]) == (0, 0.0)
    assert rotation_from_vectors([]) == (0, 0.0)


def test_billing_disabled_is_critical_and_not_retried(fake: FakeVision, engine: VisionOcr) -> None:
    fake.fail_next(5, 403)  # the billing message by default

    with pytest.raises(CriticalError) as caught:
        engine.recognise(JPEG, 1)

    assert caught.value.kind is ErrorKind.CRITICAL
    assert "Enable billing on the Google Cloud project" in str(caught.value)
    assert _code(caught.value) == "vision_billing"
    assert "Включите оплату" in caught.value.words("ru")
    assert fake.calls == 1


def test_other_permission_denied_points_at_the_credentials(
    fake: FakeVision, engine: VisionOcr
) -> None:
    fake.fail_next(1, 403, "The caller does not have permission")

    with pytest.raises(CriticalError, match="GOOGLE_APPLICATION_CREDENTIALS") as caught:
        engine.recognise(JPEG, 1)
    assert _code(caught.value) == "vision_credentials_refused"
    assert caught.value.words("ru").startswith("Google Vision отклонил учётные данные (403")
    assert fake.calls == 1


def test_unauthenticated_is_critical_with_anonymous_credentials(
    fake: FakeVision, engine: VisionOcr
) -> None:
    """With the fake's anonymous credentials the client's session tries to refresh on
    401 and cannot; either way the operator must fix the credentials."""
    fake.fail_next(5, 401)

    with pytest.raises(CriticalError, match="GOOGLE_APPLICATION_CREDENTIALS") as caught:
        engine.recognise(JPEG, 1)
    assert _code(caught.value) in {"vision_token_refused", "vision_credentials_refused"}
    assert "Проверьте GOOGLE_APPLICATION_CREDENTIALS" in caught.value.words("ru")
    assert fake.calls == 1


class _RefreshingToken(Credentials):
    """A token that refreshes fine but that the server keeps refusing: the real 401
    path (the session refreshes, resends, then the client raises Unauthorized)."""

    def refresh(self, request: Any) -> None:
        self.token = "refreshed-token"


def test_unauthenticated_after_a_token_refresh_is_critical(fake: FakeVision) -> None:
    engine = VisionOcr(endpoint=fake.url, credentials=_RefreshingToken(), backoff=0.01)
    fake.fail_next(10, 401)

    with pytest.raises(CriticalError, match=r"\(401: .*GOOGLE_APPLICATION_CREDENTIALS") as caught:
        engine.recognise(JPEG, 1)
    assert _code(caught.value) == "vision_credentials_refused"
    assert fake.calls <= 3  # the session's own refresh-and-resend, never our retries


def test_a_per_image_error_fails_only_that_page(fake: FakeVision, engine: VisionOcr) -> None:
    fake.per_image_error_next("Bad image data.")

    result = engine.recognise(JPEG, 7)

    assert result.page_no == 7
    assert result.text == ""
    assert result.error is not None and "Bad image data." in result.error.english
    assert word_again(result.error).startswith("Google Vision не смог прочитать эту страницу")
    assert fake.calls == 1
    assert engine.recognise(JPEG, 8).error is None  # the engine still works


def test_a_bad_request_fails_only_that_page(fake: FakeVision, engine: VisionOcr) -> None:
    fake.fail_next(1, 400, "Request must specify image and features.")

    result = engine.recognise(JPEG, 2)

    assert result.error is not None and "must specify image" in result.error.english
    assert word_again(result.error).startswith("Google Vision отклонил эту страницу (400")
    assert fake.calls == 1


def test_unavailable_is_retried_then_succeeds(fake: FakeVision, engine: VisionOcr) -> None:
    fake.fail_next(1, 503)
    fake.text_for_next(TEXT)

    result = engine.recognise(JPEG, 1)

    assert result.text == TEXT + "\n"
    assert fake.calls == 2


def test_persistent_unavailable_raises_retryable_after_all_attempts(fake: FakeVision) -> None:
    engine = VisionOcr(endpoint=fake.url, attempts=3)  # the default backoff: 0.2 s, 0.4 s
    fake.fail_next(10, 503)

    with pytest.raises(RetryableError, match="503") as caught:
        engine.recognise(JPEG, 1)

    assert caught.value.kind is ErrorKind.RETRYABLE
    assert "after 3 attempts" in str(caught.value)
    russian = caught.value.words("ru")
    assert "после 3 попыток: Google Vision занят или даёт сбой (503" in russian
    assert fake.calls == 3


def test_a_used_up_quota_is_retried_then_said_in_words(fake: FakeVision) -> None:
    engine = VisionOcr(endpoint=fake.url, attempts=2, backoff=0.01)
    fake.fail_next(10, 429, "Quota exceeded for quota metric 'Requests'.")

    with pytest.raises(RetryableError, match="Vision quota is used up") as caught:
        engine.recognise(JPEG, 1)

    assert "квота Vision проекта пока исчерпана" in caught.value.words("ru")
    assert fake.calls == 2


def test_the_explicit_timeout_is_honoured(fake: FakeVision) -> None:
    """Without ``retry=None`` and our timeout the client would wait for minutes."""
    engine = VisionOcr(endpoint=fake.url, timeout=0.3, attempts=2, backoff=0.01)
    fake.latency = 2.0

    # The fake would answer after 2 s: an error naming the 0.3 s timeout on both calls
    # shows the explicit timeout cut each call short (no wall-clock assertion needed).
    with pytest.raises(RetryableError, match=r"no answer within 0.3 s") as caught:
        engine.recognise(JPEG, 1)
    assert "нет ответа за 0.3 с" in caught.value.words("ru")

    assert fake.calls == 2


def test_an_unreachable_server_is_retryable() -> None:
    with FakeVision() as gone:
        url = gone.url
    engine = VisionOcr(endpoint=url, attempts=2, backoff=0.01, timeout=2.0)

    with pytest.raises(RetryableError, match="cannot connect") as caught:
        engine.recognise(JPEG, 1)
    assert "нет связи с Google Vision" in caught.value.words("ru")


def test_a_missing_credentials_file_is_critical(tmp_path: Path) -> None:
    engine = VisionOcr(credentials_file=tmp_path / "missing.json")

    with pytest.raises(CriticalError, match=r"missing\.json does not exist") as caught:
        engine.recognise(JPEG, 1)
    assert _code(caught.value) == "vision_credentials_missing"
    assert caught.value.words("ru").startswith("Файла учётных данных Google Vision")


def test_an_invalid_credentials_file_is_critical(tmp_path: Path) -> None:
    path = tmp_path / "key.json"
    path.write_text(json.dumps({"type": "service_account", "client_email": "x"}))

    with pytest.raises(CriticalError, match="not a valid service-account JSON") as caught:
        VisionOcr(credentials_file=path).recognise(JPEG, 1)
    assert _code(caught.value) == "vision_credentials_invalid"
    assert "не ключ сервисного аккаунта" in caught.value.words("ru")


def test_environment_credentials_are_used_without_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(tmp_path / "absent.json"))

    with pytest.raises(CriticalError, match="GOOGLE_APPLICATION_CREDENTIALS") as caught:
        VisionOcr().recognise(JPEG, 1)
    assert _code(caught.value) == "vision_credentials_none"
    assert caught.value.words("ru").startswith("У Google Vision нет учётных данных")


@pytest.mark.slow  # starts a Python process
def test_the_client_is_built_once_and_vision_is_imported_lazily(
    fake: FakeVision, engine: VisionOcr
) -> None:
    engine.recognise(JPEG, 1)
    client = engine._client
    engine.recognise(JPEG, 2)
    assert engine._client is client
    code = (
        "import sys, docbatch_gui.pipeline.ocr_vision\n"
        "assert 'google.cloud.vision' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
