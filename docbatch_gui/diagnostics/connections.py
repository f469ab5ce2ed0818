"""*Test connection*: one short, cheap call to each backend, for the Settings tab and
``docbatch doctor`` alike (one implementation: what the operator tests in the window
is what the doctor checks on a server).

Every test returns a ``ConnectionResult`` and never raises: a failure is an answer
the operator reads, not a crash: one sentence saying what failed and what to check,
with the client library's own text kept apart as ``details`` (shown on request). A
backend that is not configured is not tested (``skipped``): the button tests what the
settings use, Tesseract or Vision as OCR_ENGINE says. Libraries are imported on use,
so a missing optional client (pymongo, minio) is reported as the extra to install
instead of breaking start-up.
Blocking clients run in a thread with short timeouts; messages pass through
``scrub`` so a library that quotes a URI or a key cannot show a secret.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar
from urllib.parse import unquote, urlsplit

from PIL import Image

from docbatch_gui.diagnostics.claude_words import test_words
from docbatch_gui.diagnostics.findings import Phrase, phrase
from docbatch_gui.diagnostics.live import live_check, unreachable_said
from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.extras import MissingExtra
from docbatch_gui.i18n import N_
from docbatch_gui.pipeline.jpeg import encode_image
from docbatch_gui.pipeline.ocr_tesseract import (
    REQUIRED_LANGUAGES,
    tesseract_available,
    tesseract_languages,
)
from docbatch_gui.pipeline.ocr_vision import VisionOcr
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.secrets import scrub, secret_values
from docbatch_gui.sources.mail_imap import Mailbox, mail_server
from docbatch_gui.storage.backends import minio_secret

#: seconds each network step may take (connect, read, server selection)
TIMEOUT = 5.0
#: a safety net over a whole blocking probe; generous, because the first use of a
#: client library includes importing it (several seconds for some, on a busy machine)
GUARD = 60.0
T = TypeVar("T")


@dataclass(frozen=True)
class ConnectionResult:
    ok: bool
    #: one sentence: what was found, or what failed and what to check
    message: Message
    seconds: float
    #: the library's own words (an exception's text), for support; may be empty
    details: str = ""
    #: nothing to test: the backend is not configured
    skipped: bool = False


#: what a probe returns: (ok, the sentence, the raw details)
Outcome = tuple[bool, Message | str, str]


def _raw(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _result(settings: Settings, outcome: Outcome, started: float) -> ConnectionResult:
    ok, message, details = outcome
    secrets = secret_values(settings)
    if isinstance(message, Message):
        params = {
            k: scrub(v, secrets) if isinstance(v, str) else v for k, v in message.params.items()
        }
        said = Message(message.code, params)
    else:
        said = Message.plain(scrub(message, secrets))
    return ConnectionResult(ok, said, time.monotonic() - started, scrub(details, secrets))


def not_set(code: str) -> ConnectionResult:
    """Nothing to test: ``code`` names the setting that is not set (``conn_unset_*``)."""
    return ConnectionResult(False, coded(code), 0.0, skipped=True)


async def _timed(
    settings: Settings, probe: Callable[[], Outcome], name: str | Message
) -> ConnectionResult:
    """Run a blocking probe in a thread; any exception becomes a failed result."""
    started = time.monotonic()
    try:
        outcome = await asyncio.wait_for(asyncio.to_thread(probe), GUARD)
    except TimeoutError:
        outcome = (False, coded("conn_silent", name=name, seconds=f"{GUARD:g}"), "")
    except Exception as exc:
        outcome = (False, coded("conn_broke", name=name), _raw(exc))
    return _result(settings, outcome, started)


def _missing(feature: str, extra: str) -> Outcome:
    return False, MissingExtra(feature, extra).message, ""


# -- Anthropic ---------------------------------------------------------------------------


def anthropic_probe(
    settings: Settings, key: str, timeout: float = TIMEOUT
) -> tuple[bool, Phrase | Message]:
    """count_tokens costs nothing and proves the key, the model name and the network
    (``docbatch doctor``); the sentence in either language."""
    # deferred: the Anthropic SDK, 2.8 s to import
    import anthropic

    from docbatch_gui.llm.claude import classify_api_error

    where = settings.anthropic_base_url or "api.anthropic.com"
    client = anthropic.Anthropic(
        api_key=key, base_url=settings.anthropic_base_url, max_retries=0, timeout=timeout
    )
    try:
        client.messages.count_tokens(
            model=settings.anthropic_model, messages=[{"role": "user", "content": "ping"}]
        )
    except anthropic.APIConnectionError as exc:
        return False, unreachable_said(settings, exc)
    except anthropic.APIError as exc:
        return False, classify_api_error(exc).message
    finally:
        client.close()
    accepted = N_("key accepted by {where}; model {model}")
    return True, phrase(accepted, where=where, model=settings.anthropic_model)


async def test_anthropic(settings: Settings) -> ConnectionResult:
    """The live check (``doctor --live``): the real prompt and schema on a sample
    page, count_tokens and one real request, each asked once (no retries: a refused
    connection is said at once). The sentence is plain words in the reader's
    language (a coded message); the steps' technical lines are the details."""
    key = settings.anthropic_api_key
    if key is None:
        return ConnectionResult(False, coded("claude_test_no_key"), 0.0)
    started = time.monotonic()
    failure: BaseException | None = None
    steps = []
    try:
        steps = await asyncio.wait_for(
            live_check(settings, key.get_secret_value(), retries=0), GUARD
        )
    except TimeoutError:
        return ConnectionResult(False, coded("claude_test_silent", seconds=f"{GUARD:g}"), GUARD)
    except Exception as exc:
        failure = exc
    ok = bool(steps) and all(s.ok for s in steps)
    message, details = test_words(settings, steps, failure)
    # the sentence holds no secret (a host and fixed words) and keeps its code
    details = scrub(details, secret_values(settings))
    return ConnectionResult(ok, message, time.monotonic() - started, details)


# -- Google Vision -----------------------------------------------------------------------


def _tiny_jpeg() -> bytes:
    return encode_image(Image.new("L", (32, 32), 255), 75)


def _vision_probe(settings: Settings) -> Outcome:
    try:
        # deferred: Google Vision (vision extra), 0.5 s to import
        import google.cloud.vision  # noqa: F401
    except ImportError:
        return _missing("Google Vision", "vision")

    engine = VisionOcr(
        endpoint=settings.google_vision_endpoint,
        credentials_file=settings.google_application_credentials,
        timeout=TIMEOUT,
        attempts=1,
    )
    where = settings.google_vision_endpoint or "vision.googleapis.com"
    failed = coded("conn_vision_failed", where=where)
    try:
        result = engine.recognise(_tiny_jpeg(), 1)
    except DocBatchError as exc:
        return False, failed, str(exc)
    if result.error:
        return False, failed, result.error.english
    return True, coded("conn_vision_ok", where=where), ""


async def test_vision(settings: Settings) -> ConnectionResult:
    return await _timed(settings, lambda: _vision_probe(settings), "Google Vision")


# -- Tesseract ---------------------------------------------------------------------------


def _tesseract_probe(settings: Settings) -> Outcome:
    installed = tesseract_languages()
    if not tesseract_available():
        wanted = " ".join(f"tesseract-ocr-{lang}" for lang in REQUIRED_LANGUAGES)
        code = "conn_tesseract_no_data" if installed else "conn_tesseract_missing"
        return (
            False,
            coded(code, packages=wanted),
            f"languages found: {', '.join(installed) or 'none'}",
        )
    return True, coded("conn_tesseract_ok", languages=", ".join(installed)), ""


async def test_tesseract(settings: Settings) -> ConnectionResult:
    return await _timed(settings, lambda: _tesseract_probe(settings), "Tesseract")


async def test_ocr(settings: Settings) -> ConnectionResult:
    """The OCR engine the settings use: Tesseract, Google Vision, or none to test."""
    engine = str(settings.ocr_engine)
    if engine == "tesseract":
        return await test_tesseract(settings)
    if engine == "google_vision":
        return await test_vision(settings)
    return not_set("conn_unset_ocr")


# -- MongoDB -----------------------------------------------------------------------------


def _hosts(uri: str) -> str:
    return urlsplit(uri).netloc.rpartition("@")[2] or "localhost"


def _mongo_probe(uri: str) -> Outcome:
    try:
        # deferred: pymongo (team extra), 0.27 s to import
        import pymongo
    except ImportError:
        return _missing("MongoDB", "team")
    ms = int(TIMEOUT * 1000)
    where = _hosts(uri)
    try:
        client: pymongo.MongoClient = pymongo.MongoClient(
            uri, serverSelectionTimeoutMS=ms, connectTimeoutMS=ms, socketTimeoutMS=ms
        )
    except pymongo.errors.PyMongoError as exc:
        return False, coded("conn_mongodb_bad_uri"), _raw(exc)
    try:
        client.admin.command("ping")
        version = client.server_info().get("version", "?")
        name = client.get_default_database(default="docbatch").name
        return True, coded("conn_mongodb_ok", version=version, where=where, name=name), ""
    except pymongo.errors.OperationFailure as exc:
        if exc.code in (13, 18):  # Unauthorized, AuthenticationFailed
            return False, coded("conn_mongodb_auth", where=where), _raw(exc)
        return False, coded("conn_mongodb_refused", where=where), _raw(exc)
    except pymongo.errors.PyMongoError as exc:
        return False, coded("conn_mongodb_silent", where=where, seconds=f"{TIMEOUT:g}"), _raw(exc)
    finally:
        client.close()


async def test_mongodb(settings: Settings) -> ConnectionResult:
    uri = settings.mongodb_uri
    if not uri:
        return not_set("conn_unset_mongodb")
    return await _timed(settings, lambda: _mongo_probe(uri), "MongoDB")


# -- MinIO -------------------------------------------------------------------------------


def _minio_probe(settings: Settings) -> Outcome:
    try:
        # deferred: urllib3, 0.16 s to import
        import urllib3
        from minio import Minio
        from minio.error import S3Error
    except ImportError:
        return _missing("MinIO", "team")
    endpoint = settings.minio_endpoint or ""
    parts = urlsplit(endpoint if "://" in endpoint else "//" + endpoint)
    secure = settings.minio_secure or parts.scheme == "https"
    http = urllib3.PoolManager(
        timeout=urllib3.Timeout(connect=TIMEOUT, read=TIMEOUT), retries=urllib3.Retry(0)
    )

    client = Minio(
        parts.netloc,
        access_key=settings.minio_access_key,
        secret_key=minio_secret(settings),
        secure=secure,
        http_client=http,
    )
    bucket = settings.minio_bucket
    try:
        exists = client.bucket_exists(bucket)
    except S3Error as exc:
        return False, coded("conn_minio_auth", where=parts.netloc), _raw(exc)
    except Exception as exc:
        return False, coded("conn_minio_silent", where=parts.netloc), _raw(exc)
    finally:
        http.clear()
    if not exists:  # the blob store creates its bucket when missing
        return True, coded("conn_minio_new_bucket", where=parts.netloc, bucket=bucket), ""
    return True, coded("conn_minio_ok", where=parts.netloc, bucket=bucket), ""


async def test_minio(settings: Settings) -> ConnectionResult:
    if not settings.minio_endpoint:
        return not_set("conn_unset_minio")
    return await _timed(settings, lambda: _minio_probe(settings), "MinIO")


# -- Redis -------------------------------------------------------------------------------


def _resp(*words: str) -> bytes:
    out = [f"*{len(words)}\r\n".encode()]
    for word in words:
        data = word.encode()
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


async def _redis_ping(url: str) -> Outcome:
    """PING (after AUTH) over the Redis protocol itself: no client package needed."""
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        return False, coded("conn_redis_scheme"), url
    host, port = parts.hostname or "localhost", parts.port or 6379
    context = ssl.create_default_context() if parts.scheme == "rediss" else None
    reader, writer = await asyncio.open_connection(host, port, ssl=context)
    try:
        if parts.password is not None:
            auth = [unquote(parts.password)]
            if parts.username:
                auth.insert(0, unquote(parts.username))
            writer.write(_resp("AUTH", *auth))
        writer.write(_resp("PING"))
        await writer.drain()
        for _ in range(2 if parts.password is not None else 1):
            line = (await reader.readline()).decode(errors="replace").strip()
            if not line.startswith("+"):
                said = line[1:] or "no answer"
                if "NOAUTH" in said or "WRONGPASS" in said or "invalid password" in said:
                    return False, coded("conn_redis_auth", where=f"{host}:{port}"), said
                return False, coded("conn_redis_refused", where=f"{host}:{port}"), said
        return True, coded("conn_redis_ok", where=f"{host}:{port}"), ""
    finally:
        writer.close()


async def test_redis(settings: Settings) -> ConnectionResult:
    if not settings.redis_url:
        return not_set("conn_unset_redis")
    return await _redis_result(settings, settings.redis_url)


async def test_celery_broker(settings: Settings) -> ConnectionResult:
    """The broker Celery uses: CELERY_BROKER_URL, else REDIS_URL (as ``celery_app``)."""
    url = settings.celery_broker_url or settings.redis_url
    if not url:
        return not_set("conn_unset_broker")
    return await _redis_result(settings, url)


async def _redis_result(settings: Settings, url: str) -> ConnectionResult:
    started = time.monotonic()
    parts = urlsplit(url)
    where = f"{parts.hostname or 'localhost'}:{parts.port or 6379}"
    outcome: Outcome
    try:
        outcome = await asyncio.wait_for(_redis_ping(url), TIMEOUT)
    except TimeoutError:
        outcome = (False, coded("conn_redis_silent", where=where, seconds=f"{TIMEOUT:g}"), "")
    except (OSError, ValueError) as exc:
        outcome = (False, coded("conn_redis_unreachable", where=where), _raw(exc))
    return _result(settings, outcome, started)


# -- the office's mailbox (IMAP) ---------------------------------------------------------


def _mail_probe(settings: Settings) -> Outcome:
    try:
        server = mail_server(settings)
        with Mailbox(server) as box:
            found = box.folders()
    except DocBatchError as exc:
        return False, exc.message, ""
    missing = [name for name in settings.mail_folder_names if name not in found]
    if missing:
        said = coded("mail_folder_missing", folder=missing[0], folders=", ".join(found))
        return False, said, ""
    said = coded(
        "mail_connection_ok",
        user=server.user,
        host=server.host,
        port=server.port,
        security=server.security,
        folders=", ".join(settings.mail_folder_names),
    )
    return True, said, ""


async def test_mail(settings: Settings) -> ConnectionResult:
    if not settings.mail_configured:
        return not_set("conn_unset_mail")
    return await _timed(settings, lambda: _mail_probe(settings), coded("conn_mail_server"))
