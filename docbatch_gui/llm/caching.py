"""Which prompt cache a request asks for: none, five minutes or one hour.

Every request shares one prefix, the system prompt and the answer schema
(``prompt.system_blocks``). The API caches it only when it is at least the model's
minimum (``min_cache_tokens``); a shorter prefix marked for caching is processed
without caching, with no error and nothing written or read
(build-with-claude/prompt-caching). DocBatch then leaves the mark out and says so
in the log, so nobody expects, or estimates, a cache that cannot happen.

A batch runs for minutes to hours, and its requests are processed in no order the
caller controls: a five-minute entry written by the first request may be gone when
the next one with the same prefix runs. The one-hour cache costs more to write
(2× the input price instead of 1.25×) and is read at the same 0.1×, so in a batch it
is written once and read by the rest. Sync runs send their requests back to back
and keep the five-minute cache.
"""

from __future__ import annotations

import logging

from docbatch_gui.llm.catalogue import ModelInfo

log = logging.getLogger(__name__)

FIVE_MINUTES = "5m"
ONE_HOUR = "1h"
_warned: set[tuple[str, int]] = set()


def cache_ttl(model: ModelInfo, prefix_tokens: int, *, batch: bool) -> str | None:
    """The lifetime to mark the shared prefix with; None: too short to be cached."""
    if prefix_tokens < model.min_cache_tokens:
        if (model.id, prefix_tokens) not in _warned:
            _warned.add((model.id, prefix_tokens))
            log.info(
                "prompt caching is off for %s: the shared prefix (system prompt and schema, about "
                "%s tokens) is under the model's minimum of %s cacheable tokens, so the API would "
                "not cache it; requests go unmarked and pay the prefix as input",
                model.id,
                prefix_tokens,
                model.min_cache_tokens,
            )
        return None
    if batch and ONE_HOUR in model.cache_ttls:
        return ONE_HOUR
    return FIVE_MINUTES


def cache_control(ttl: str | None) -> dict[str, str] | None:
    """The ``cache_control`` of the prefix's last block. The five-minute mark stays the
    bare ``{"type": "ephemeral"}`` it always was (same bytes: an entry written
    before is still read)."""
    if ttl is None:
        return None
    if ttl == FIVE_MINUTES:
        return {"type": "ephemeral"}
    return {"type": "ephemeral", "ttl": ttl}
