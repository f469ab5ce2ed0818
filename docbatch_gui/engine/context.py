"""What every engine step works with: one object instead of the same four arguments.

The local engine loop, the batch engine and a Celery task all build their steps from
an ``EngineContext``; a task on another machine opens its own with ``opened_context``
(its own store and blob connections from the same settings), so nothing in the
engine needs the application facade.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docbatch_gui.config.profile import Profile, load_profile
from docbatch_gui.llm.catalogue import load_catalogue
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.secrets import keyring_secret
from docbatch_gui.storage.backends import open_blobs, open_store
from docbatch_gui.storage.blobs import BlobStore
from docbatch_gui.storage.store import Store

if TYPE_CHECKING:  # the SDK is slow to import; only runs with a key need it
    from docbatch_gui.llm.batches import BatchClient
    from docbatch_gui.llm.claude import ClaudeSync
    from docbatch_gui.llm.metrics import SyncMetrics


@dataclass(frozen=True)
class EngineContext:
    """The store, the blob store, the settings and the document-type profile."""

    store: Store
    blobs: BlobStore
    settings: Settings
    profile: Profile


@contextmanager
def opened_context(settings: Settings, profile: Profile | None = None) -> Iterator[EngineContext]:
    """A context with connections of its own, closed on the way out (a Celery task)."""
    store = open_store(settings)
    try:
        profile = profile or load_profile(settings.profile_path)
        yield EngineContext(store, open_blobs(settings), settings, profile)
    finally:
        store.close()


def anthropic_key(settings: Settings) -> str | None:
    """From ANTHROPIC_API_KEY, else the OS keyring (where the GUI stores it)."""
    if settings.anthropic_api_key is not None:
        return settings.anthropic_api_key.get_secret_value()
    return keyring_secret("ANTHROPIC_API_KEY")


def sync_client(
    settings: Settings, profile: Profile, key: str, metrics: SyncMetrics | None = None
) -> ClaudeSync:
    """The sync-mode client, configured the same way wherever a job runs."""
    # deferred: the Anthropic SDK, 2.8 s to import
    from docbatch_gui.llm.claude import ClaudeSync  # the SDK is slow to import

    return ClaudeSync(
        api_key=key,
        base_url=settings.anthropic_base_url,
        profile=profile,
        max_concurrency=settings.max_concurrency,
        timeout=settings.anthropic_timeout,
        max_retries=settings.anthropic_max_retries,
        request_retries=settings.request_retries,
        max_output_tokens=load_catalogue().model(settings.anthropic_model).max_output_tokens,
        metrics=metrics,
    )


def batch_client(settings: Settings, key: str) -> BatchClient:
    """The Batches API client of the batch engine."""
    # deferred: the Anthropic SDK, 2.8 s to import
    from docbatch_gui.llm.batches import BatchClient

    return BatchClient(
        api_key=key,
        base_url=settings.anthropic_base_url,
        timeout=settings.anthropic_timeout,
        max_retries=settings.anthropic_max_retries,
    )
