"""The Claude *Test connection* answer in plain words: what failed and what to do,
as a coded message (worded in the window's language), with the technical lines (the
steps, the exception chain) kept apart as the details.

"✗ count_tokens: cannot reach http://127.0.0.1:9 (APIConnectionError)" told an
operator nothing they could act on; "Nothing answers at 127.0.0.1:9: the connection
was refused. Check the address…" does.
"""

from __future__ import annotations

import socket
import ssl
from collections.abc import Iterator, Sequence
from urllib.parse import urlsplit

from docbatch_gui.diagnostics.live import LiveStep
from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.settings.model import Settings


def _chain(exc: BaseException | None) -> Iterator[BaseException]:
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__


def connection_problem(exc: BaseException) -> str:
    """Which way a connection failed, as a message code: refused, no such host, a
    certificate refused, no answer in time, or (else) unreachable."""
    for link in _chain(exc):
        if isinstance(link, ConnectionRefusedError):
            return "claude_test_refused"
        if isinstance(link, socket.gaierror):
            return "claude_test_no_host"
        if isinstance(link, ssl.SSLError):
            return "claude_test_tls"
        if isinstance(link, TimeoutError) or "Timeout" in type(link).__name__:
            return "claude_test_timeout"
    return "claude_test_unreachable"


def technical(exc: BaseException | None) -> str:
    """The exception chain, one line per link: what support reads."""
    return "\n".join(f"{type(link).__name__}: {link}" for link in _chain(exc))


def _where(settings: Settings) -> str:
    if not settings.anthropic_base_url:
        return "api.anthropic.com"
    parts = urlsplit(settings.anthropic_base_url)  # the host and port: no user or password
    host = parts.hostname or settings.anthropic_base_url
    return f"{host}:{parts.port}" if parts.port else host


def test_words(
    settings: Settings, steps: Sequence[LiveStep], failure: BaseException | None
) -> tuple[Message, str]:
    """(the sentence, the details) for the steps the live check ran."""
    where = _where(settings)
    lines = [f"{s.name}: {s.detail}" for s in steps]
    if failure is not None:
        lines.append(technical(failure))
        return coded("claude_test_broke", where=where), "\n".join(lines)
    failed = next((s for s in steps if not s.ok), None)
    if failed is None:
        cost = next((s.cost_usd for s in steps if s.name == "sync request"), None)
        shown = "?" if cost is None else f"${cost:.4f}"
        said = coded("claude_test_ok", where=where, model=settings.anthropic_model, cost=shown)
        return said, "\n".join(lines)
    if failed.error is not None:
        lines.append(technical(failed.error))
    if isinstance(failed.error, DocBatchError) and failed.error.message.code:
        said = coded("claude_test_api_refused", where=where, reason=failed.error.message)
    elif failed.error is not None and failed.connection:
        said = coded(connection_problem(failed.error), where=where)
    else:
        said = coded("claude_test_step_failed", where=where, reason=failed.detail)
    return said, "\n".join(lines)
