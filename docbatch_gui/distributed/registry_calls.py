"""The registry calls the Celery tasks wrap: a thin seam to the registry service.

STUB: the registry service (import, search, export and the registry's status) is
being built on another branch. Until it lands these functions say so; the tasks
around them (workload slot, progress, time limits, status ``error`` on failure) are
complete. Wiring them means replacing each body with one call into the service.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

Progress = Callable[[float, str], None]
NOT_YET = "the registry service is not part of this build yet"


def import_rows(store: Any, blobs: Any, registry_id: str, progress: Progress) -> dict[str, Any]:
    raise NotImplementedError(f"registry import: {NOT_YET}")


def search(store: Any, blobs: Any, registry_id: str, progress: Progress) -> dict[str, Any]:
    raise NotImplementedError(f"registry search: {NOT_YET}")


def export(store: Any, blobs: Any, registry_id: str, progress: Progress) -> dict[str, Any]:
    raise NotImplementedError(f"registry export: {NOT_YET}")


def mark_error(store: Any, registry_id: str, message: str) -> None:
    """Status ``error`` with the text in ``task_error``, where the store has registries."""
    update = getattr(store, "update_registry", None)
    if update is None:
        log.error("registry %s failed (no registry table to record it): %s", registry_id, message)
        return
    update(registry_id, status="error", task_error=message)
