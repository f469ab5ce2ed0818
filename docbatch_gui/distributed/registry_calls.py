"""The registry calls the Celery tasks wrap: a thin seam to ``RegistryService``.

The service already does the bookkeeping of import and search: their workload slot
(``registry_search`` is one at a time, team-wide), and status ``error`` with
``task_error`` on any failure. Export keeps the registry's status as it is in the
desktop, so only a Celery export records its failure here; each function re-raises,
so Celery marks the task failed too. Progress goes to the task's ``report`` sink
(``update_state(PROGRESS, {progress, message})``).
"""

from __future__ import annotations

import logging
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from docbatch_gui.domain.errors import NotFound
from docbatch_gui.domain.messages import coded
from docbatch_gui.domain.progress import Progress, ProgressSink
from docbatch_gui.domain.registry import RegistryStatus
from docbatch_gui.domain.said import cause
from docbatch_gui.registry.service import RegistryService

log = logging.getLogger(__name__)


def progress_to(report: ProgressSink, what: str) -> ProgressSink:
    """The service's row counts, told as the sentence the GUI and the CLI show."""

    def progress(step: Progress) -> None:
        counted = f"{step.done} of {step.total}" if step.total else str(step.done)
        report(replace(step, what=f"{what}: {counted} rows"))

    return progress


def import_rows(
    service: RegistryService,
    report: ProgressSink,
    file: str,
    config: dict[str, Any] | str,
    *,
    name: str | None = None,
    registry_id: int | None = None,
    force: bool = False,
) -> dict[str, Any]:
    """``file`` must be readable by the worker (a shared folder)."""
    summary = service.import_registry(
        file, config, name=name, registry_id=registry_id, force=force,
        progress=progress_to(report, "import"),
    )  # fmt: skip
    report(Progress(1, 1, f"registry {summary.registry_id}: {summary.kept} rows imported"))
    return asdict(summary)


def search(service: RegistryService, report: ProgressSink, registry_id: int) -> dict[str, Any]:
    summary = service.search(int(registry_id), progress=progress_to(report, "search"))
    report(
        Progress(1, 1, f"registry {registry_id}: {summary.matched} of {summary.rows} rows matched")
    )
    return asdict(summary)


def export(
    service: RegistryService, report: ProgressSink, registry_id: int, out: str
) -> dict[str, Any]:
    """Write the .xlsx to ``out`` (a path the worker can write and the operator read)."""
    try:
        rows = service.export(int(registry_id), Path(out), progress=progress_to(report, "export"))
    except Exception as exc:
        mark_error(
            service, int(registry_id), coded("log_registry_export_failed", error=cause(exc)).english
        )
        raise
    report(Progress(1, 1, f"registry {registry_id}: {rows} rows exported"))
    return {"registry_id": int(registry_id), "rows": rows, "out": out}


def mark_error(service: RegistryService, registry_id: int, message: str) -> None:
    """Status ``error`` with the reason; a registry already gone is only logged."""
    try:
        service.store.update_registry(registry_id, status=RegistryStatus.ERROR, task_error=message)
    except NotFound:
        log.error("registry %s failed and no longer exists: %s", registry_id, message)
