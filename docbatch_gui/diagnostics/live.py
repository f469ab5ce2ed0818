"""``docbatch doctor --live``: does extraction work with this key and model, now?

The one command a first operator with a key runs to learn within a minute whether
Claude accepts DocBatch's real requests: the real system prompt and answer schema,
the configured model, thinking and effort, on a bundled sample page. Each step
says what it cost:

1. ``count_tokens`` of the real request (free);
2. one real sync request, and whether its answer parsed;
3. with ``batch``, a one-request batch that is canceled at once (a canceled request
   is not billed).
"""

from __future__ import annotations

import asyncio
import importlib
import socket
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from docbatch_gui.config.profile import load_profile
from docbatch_gui.diagnostics.findings import Phrase, joined, phrase
from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.i18n import N_, NN_, NP_
from docbatch_gui.llm.answers import parse_answer
from docbatch_gui.llm.catalogue import Usage, load_catalogue
from docbatch_gui.llm.requests import ExtractionRequest, PagePayload, build_request
from docbatch_gui.llm.thinking import ThinkingChoice
from docbatch_gui.pipeline.render import PrepareTask, render_pages
from docbatch_gui.resources import resources_dir
from docbatch_gui.settings.model import Settings

SAMPLE = "en_invoice_INV-2024-0042.pdf"
#: seconds the first connection may take before the real steps are left to tell
CONNECT_TIMEOUT = 2.0
#: the steps' names as ``doctor`` words them ("live: sync request"); count_tokens is the API's
STEP_NAMES = (
    NP_("doctor check", "connect"),
    NP_("doctor check", "sync request"),
    NP_("doctor check", "batch"),
)


@dataclass(frozen=True)
class LiveStep:
    name: str
    ok: bool
    detail: str
    cost_usd: float | None = None
    seconds: float = 0.0
    #: what failed: the SDK's connection error, or the API's refusal as classified
    error: BaseException | None = None
    #: the failure was the connection itself (nothing answered, as it should)
    connection: bool = False
    #: ``detail`` as a phrase, so ``doctor`` says it in the run's language
    said: Phrase | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(
        cls,
        name: str,
        ok: bool,
        said: Phrase,
        cost_usd: float | None = None,
        seconds: float = 0.0,
        error: BaseException | None = None,
        connection: bool = False,
    ) -> LiveStep:
        return cls(name, ok, said.english, cost_usd, seconds, error, connection, said)


def sample_request(settings: Settings) -> ExtractionRequest:
    """The request a real job would send for the bundled sample's first page."""
    path = resources_dir() / "samples" / SAMPLE
    task = PrepareTask(str(path), SAMPLE, "pdf", settings.jpeg_quality, last_page=1)
    page = next(iter(render_pages(task, lambda _count: None)))
    return build_request(
        0,
        SAMPLE,
        1,
        [PagePayload(1, page.image, page.text)],
        load_profile(settings.profile_path),
        total_pages=1,
        model=settings.anthropic_model,
        group_size=settings.group_size,
        max_tokens=settings.max_output_tokens,
        output_mode=settings.claude_output,
        options=settings.thinking_choice.params(),
    )


def unreachable(settings: Settings, exc: Exception) -> str:
    return unreachable_said(settings, exc).english


def unreachable_said(settings: Settings, exc: Exception) -> Phrase:
    """The sentence for an API nobody answers at, in either language (``doctor``)."""
    where = settings.anthropic_base_url or "api.anthropic.com"
    return phrase(
        N_("cannot reach {where} ({error}); check the network, a proxy, or ANTHROPIC_BASE_URL"),
        where=where,
        error=type(exc).__name__,
    )


def _usage_line(usage: Usage, cost: float | None) -> Phrase:
    money: Phrase | str = Phrase(N_("unknown")) if cost is None else f"${cost:.6f}"
    return phrase(
        N_(
            "{input} input ({cached} from cache), {output} output ({thinking} thinking) "
            "tokens; cost {money}"
        ),
        input=usage.prompt_tokens,
        cached=usage.cache_read_tokens,
        output=usage.output_tokens,
        thinking=usage.thinking_tokens,
        money=money,
    )


def thinking_said(choice: ThinkingChoice) -> Phrase:
    """``ThinkingChoice.label`` ("effort low, thinking off") in either language."""
    on_off = (
        N_("effort {effort}, thinking on")
        if choice.thinking_on
        else N_("effort {effort}, thinking off")
    )
    return phrase(on_off, effort=choice.effort or "default")


async def live_check(
    settings: Settings,
    key: str,
    *,
    batch: bool = False,
    on_step: Callable[[LiveStep], None] | None = None,
    retries: int | None = None,
) -> list[LiveStep]:
    """Run the steps in order; a failed step ends the check (the next would fail too).

    ``retries`` overrides ANTHROPIC_MAX_RETRIES: the Settings tab's test asks once, so
    a refused connection is said at once instead of after the SDK's backoff."""
    refused = await asyncio.to_thread(_refused, settings)
    if refused is not None:  # said before the SDK's import and the sample page's render
        if on_step is not None:
            on_step(refused)
        return [refused]
    # The SDK's first import takes seconds: in a thread, so the Settings tab that
    # awaits this keeps answering; the imports below then find it loaded.
    await asyncio.to_thread(importlib.import_module, "docbatch_gui.llm.claude")
    # deferred: the Anthropic SDK, 2.8 s to import (loaded in a thread just above)
    import anthropic

    from docbatch_gui.llm.claude import answer_payload, classify_api_error

    catalogue = load_catalogue()
    choice = settings.thinking_choice
    # rendering is CPU work: off the caller's loop (the Settings tab awaits this)
    request = await asyncio.to_thread(sample_request, settings)
    steps: list[LiveStep] = []
    client = anthropic.AsyncAnthropic(
        api_key=key,
        base_url=settings.anthropic_base_url,
        timeout=settings.anthropic_timeout,
        max_retries=settings.anthropic_max_retries if retries is None else retries,
    )

    def done(step: LiveStep) -> None:
        steps.append(step)
        if on_step is not None:
            on_step(step)

    async def timed(name: str, call: Any) -> tuple[Any, float]:
        started = time.monotonic()
        try:
            return await call, time.monotonic() - started
        except anthropic.APIConnectionError as exc:
            elapsed = time.monotonic() - started
            said = unreachable_said(settings, exc)
            failed = LiveStep.of(name, False, said, None, elapsed, exc, True)
        except anthropic.APIError as exc:
            error: DocBatchError = classify_api_error(exc)
            refused = phrase("{message}", message=error.message)
            failed = LiveStep.of(name, False, refused, None, time.monotonic() - started, error)
        raise _StepFailed(failed)

    try:
        params = {k: v for k, v in request.params.items() if k != "max_tokens"}
        counted, took = await timed("count_tokens", client.messages.count_tokens(**params))
        tokens = NN_(
            "{count} input token for the real system prompt, answer schema and one page of "
            "{sample} on {model} ({thinking}); free",
            "{count} input tokens for the real system prompt, answer schema and one page of "
            "{sample} on {model} ({thinking}); free",
        )
        said = phrase(
            tokens,
            count=counted.input_tokens,
            sample=SAMPLE,
            model=settings.anthropic_model,
            thinking=thinking_said(choice),
        )
        done(LiveStep.of("count_tokens", True, said, 0.0, took))
        message, took = await timed("sync request", client.messages.create(**request.params))
        usage = Usage.from_api(message.usage)
        cost = catalogue.cost(settings.anthropic_model, usage)
        try:
            documents = parse_answer(
                answer_payload(message), request.pages, load_profile(settings.profile_path)
            )
        except DocBatchError as exc:
            problem = phrase(
                N_("the answer did not parse: {problem}; {usage}"),
                problem=exc.message,
                usage=_usage_line(usage, cost),
            )
            raise _StepFailed(LiveStep.of("sync request", False, problem, cost, took)) from exc
        found: list[Phrase | str] = []
        for d in documents:
            number = d.fields.get("number") or Phrase(N_("(no number)"))
            found += [", "] if found else []
            found.append(phrase("{type} {number}", type=d.doc_type, number=number))
        parsed = NN_(
            "answer parsed: {count} document: {found}; {usage}",
            "answer parsed: {count} documents: {found}; {usage}",
        )
        said = phrase(
            parsed, count=len(documents), found=joined(*found), usage=_usage_line(usage, cost)
        )
        done(LiveStep.of("sync request", True, said, cost, took))
        if batch:
            await _batch_step(client, request, done, timed)
    except _StepFailed as failed:  # a failed step ends the check
        done(failed.step)
    finally:
        await client.close()
    return steps


def _refused(settings: Settings) -> LiveStep | None:
    """A server that refuses the connection, or a host name that does not exist, as
    the first step: it is known in a moment, while importing the SDK and rendering the
    sample page first took seconds (twenty on a busy machine) before saying so. Only
    those two count; anything else (no answer yet, a proxy, which the SDK uses and a
    bare socket does not) is left to the real steps."""
    parts = urlsplit(settings.anthropic_base_url or "https://api.anthropic.com")
    host = parts.hostname
    if not host or _proxied(parts.scheme, host):
        return None
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:  # a port that is not a number: the SDK's own words say so
        return None
    started = time.monotonic()
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT):
            return None
    except (ConnectionRefusedError, socket.gaierror) as exc:
        took = time.monotonic() - started
        said = unreachable_said(settings, exc)
        return LiveStep.of("connect", False, said, None, took, exc, True)
    except OSError:
        return None


def _proxied(scheme: str, host: str) -> bool:
    proxies = urllib.request.getproxies()
    return bool(proxies.get(scheme) or proxies.get("all")) and not urllib.request.proxy_bypass(host)


class _StepFailed(Exception):
    """A step that failed, raised to end the check."""

    def __init__(self, step: LiveStep) -> None:
        super().__init__(step.detail)
        self.step = step


async def _batch_step(client: Any, request: ExtractionRequest, done: Any, timed: Any) -> None:
    entry = [{"custom_id": "docbatch_live_check", "params": request.params}]
    created, took = await timed("batch", client.messages.batches.create(requests=entry))
    canceled, more = await timed("batch", client.messages.batches.cancel(created.id))
    accepted = N_(
        "one-request batch {id} accepted, then canceled ({status}); a canceled request is "
        "not billed"
    )
    said = phrase(accepted, id=created.id, status=canceled.processing_status)
    done(LiveStep.of("batch", True, said, 0.0, took + more))
