"""The registry operations the GUI and the CLI call (``app.registry``), headless.

Each long operation takes a ``ProgressSink`` and a ``CancelToken``
(``domain.progress``), so the GUI can run it in a worker thread with a progress bar
and a Cancel button, and the CLI can print progress. Everything persists through the Store
protocol, so a MongoDB backend works unchanged.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docbatch_gui.checks.duplicates import without_duplicates
from docbatch_gui.coordination.owner import HEARTBEAT_EVERY, owner_alive, this_owner
from docbatch_gui.coordination.workload import Workload, workload_for
from docbatch_gui.domain.errors import DocBatchError, ErrorKind, ExitCode, NotFound
from docbatch_gui.domain.messages import coded
from docbatch_gui.domain.models import Document
from docbatch_gui.domain.progress import CancelToken, ProgressSink, raise_if_canceled, report
from docbatch_gui.domain.registry import (
    FilteredRowRecord,
    Registry,
    RegistryRowRecord,
    RegistryStatus,
    SearchResult,
)
from docbatch_gui.i18n import NP_
from docbatch_gui.registry import search as search_mod
from docbatch_gui.registry.config import RegistryConfig, load_config
from docbatch_gui.registry.excel import open_sheet
from docbatch_gui.registry.exporter import ExportLabels, write_export
from docbatch_gui.registry.importer import preview, read_registry
from docbatch_gui.registry.layout import HEADER_SEARCH_ROWS, SheetLayout, guess_layout
from docbatch_gui.registry.limits import SheetLimits
from docbatch_gui.registry.matcher import RegistryRow as MatchRow
from docbatch_gui.storage.store import Store

if TYPE_CHECKING:
    from docbatch_gui.config.profile import Profile

log = logging.getLogger(__name__)

__all__ = [
    "RESULT_FILTERS",
    "ImportSummary",
    "NeedsForce",
    "NotImported",
    "PreviewResult",
    "RegistryService",
]

#: Filters of ``results``: what the results view offers.
#: what the import's progress counts (``Progress.what``)
IMPORTED = NP_("progress", "rows imported")
RESULT_FILTERS = ("all", "matched", "no_match", "warnings", "ties", "manual")
ConfigSource = RegistryConfig | dict[str, Any] | str | Path
#: statuses a registry rests in; a failed re-import returns to the one it had
SETTLED = (RegistryStatus.CONFIGURED, RegistryStatus.SEARCHED, RegistryStatus.ERROR)


class NeedsForce(DocBatchError):
    """A re-import would throw away search results; the operator must say so."""

    kind = ErrorKind.UNSUPPORTED
    exit_code = ExitCode.WRONG_STATE


class NotImported(DocBatchError):
    """The registry's rows are not all there (an import running, failed or killed)."""

    kind = ErrorKind.UNSUPPORTED
    exit_code = ExitCode.WRONG_STATE


def check_fully_imported(registry: Registry, rows: int) -> None:
    """Refuse a registry whose import has not finished, or whose rows fell short."""
    kept = registry.stats.get("kept")
    if registry.status is RegistryStatus.IMPORTING or kept is None or rows != kept:
        state = (
            coded(f"registry_status_{registry.status.value}")
            if kept is None or rows == kept
            else coded("registry_rows_short", rows=rows, kept=kept)
        )
        raise NotImported.coded(
            "registry_not_imported",
            {"registry": registry.id, "name": registry.name, "state": state},
        )


@dataclass(frozen=True)
class ImportSummary:
    registry_id: int
    kept: int
    filtered: int
    stats: dict[str, Any]


@dataclass(frozen=True)
class PreviewResult:
    """What the wizard shows while the operator adjusts the settings."""

    sheet: str
    sheet_names: list[str]
    headers: list[str]
    rows: list[RegistryRowRecord | FilteredRowRecord]  # the first rows as parsed, in sheet order
    kept: int  # over the whole sheet
    filtered: int
    by_reason: dict[str, int]
    filtered_rows: list[FilteredRowRecord]  # up to 50, with reasons


def _config(source: ConfigSource) -> RegistryConfig:
    return source if isinstance(source, RegistryConfig) else load_config(source)


class RegistryService:
    """``workload`` is the process's workload manager (Redis with ``REDIS_URL``):
    searches and exports hold their slot there, so a second search anywhere in the
    team is refused and imports elsewhere size their threads from what is left."""

    def __init__(
        self,
        store: Store,
        workload: Workload | None = None,
        limits: SheetLimits | None = None,
        profile: Profile | None = None,
    ) -> None:
        self.store = store
        #: names document types and fields in an export (their keys without one)
        self.profile = profile
        self.workload = workload if workload is not None else workload_for(None)
        #: REGISTRY_MAX_ROWS and the other caps every preview and import runs under
        self.limits = limits or SheetLimits()

    # -- import -------------------------------------------------------------------------

    def preview(self, file: Path | str, config: ConfigSource, *, rows: int = 20) -> PreviewResult:
        """The first ``rows`` rows as parsed plus kept/filtered counts over the sheet.

        The counts need one streaming pass over the sheet; nothing is stored.
        """
        cfg = _config(config)
        first = preview(Path(file), cfg, rows=rows, limits=self.limits)
        run = read_registry(Path(file), cfg, chunk_size=5000, limits=self.limits)
        for _chunk in run:
            pass
        stats = run.stats
        return PreviewResult(first.sheet, first.sheet_names, first.headers, first.rows,
                             stats.kept, stats.filtered, dict(stats.by_reason),
                             list(run.filtered))  # fmt: skip

    def layout(self, file: Path | str, sheet: str | None = None) -> SheetLayout:
        """The header rows and footer rows ``layout.guess_layout`` sees on the sheet
        (one streaming pass: footers are at its end)."""
        with open_sheet(Path(file), sheet, limits=self.limits) as opened:
            rows = iter(opened.rows)
            head = [row for _n, row in zip(range(HEADER_SEARCH_ROWS + 10), rows, strict=False)]
            tail = enumerate(rows, start=len(head) + 1)
            return guess_layout(head, opened.scan.merged, tail)

    def import_registry(
        self,
        file: Path | str,
        config: ConfigSource,
        *,
        name: str | None = None,
        registry_id: int | None = None,
        force: bool = False,
        progress: ProgressSink | None = None,
        cancel: CancelToken | None = None,
    ) -> ImportSummary:
        """Import into ``registry_id``, else into the registry last imported from this
        file, else into a new one. Replacing rows that have search results needs
        ``force``; the assignment audit trail is kept either way.
        """
        path = Path(file).resolve()
        cfg = _config(config)
        existing = (
            self.store.get_registry(registry_id)
            if registry_id is not None
            else self.store.find_registry(str(path))
        )
        self._sweep_dead_staging()
        if existing is None:
            summary = self._import_new(path, cfg, name, progress, cancel)
        else:
            search_mod.refuse_if_busy(existing)
            found = self.store.count_results(existing.id)
            if found and not force:
                raise NeedsForce.coded(
                    "registry_needs_force",
                    {"file": path.name, "registry": existing.id, "rows": found},
                    file=str(path),
                )
            summary = self._reimport(existing, path, cfg, progress, cancel)
        again = "imported" if existing is None else "imported again"
        log.info(
            "registry %d %s from %s: %d rows kept, %d filtered%s", summary.registry_id, again,
            path.name, summary.kept, summary.filtered,
            " (search results replaced)" if existing is not None and force else "",
        )  # fmt: skip
        return summary

    def _import_new(
        self,
        path: Path,
        cfg: RegistryConfig,
        name: str | None,
        progress: ProgressSink | None,
        cancel: CancelToken | None,
    ) -> ImportSummary:
        reg = self.store.create_registry(
            name or path.stem, str(path), cfg.model_dump(mode="json"), task_owner=this_owner()
        )
        try:
            stats = self._import(reg, reg.id, path, cfg, progress, cancel)
        except BaseException as exc:
            if self.store.count_registry_rows(reg.id) == 0:
                self.store.delete_registry(reg.id)  # nothing to look at: no husk left
            else:  # rows so far stay to look at; export refuses it as not fully imported
                self.store.update_registry(
                    reg.id,
                    status=RegistryStatus.ERROR,
                    task_error=str(exc) or repr(exc),
                    task_owner=None,
                )
            raise
        self.store.update_registry(
            reg.id, status=RegistryStatus.CONFIGURED, stats=stats, task_owner=None
        )
        return ImportSummary(reg.id, stats["kept"], stats["filtered"], stats)

    def _reimport(
        self,
        existing: Registry,
        path: Path,
        cfg: RegistryConfig,
        progress: ProgressSink | None,
        cancel: CancelToken | None,
    ) -> ImportSummary:
        """Into a staging copy, swapped in whole at the end: a failure or a kill at any
        point leaves the registry as it was (rows, results, status)."""
        owner = this_owner()
        before = existing.status if existing.status in SETTLED else RegistryStatus.CONFIGURED
        self.store.update_registry(
            existing.id, status=RegistryStatus.IMPORTING, task_error=None, task_owner=owner
        )
        staging = self.store.create_registry(
            existing.name, str(path), cfg.model_dump(mode="json"), staging=True, task_owner=owner
        )
        try:
            stats = self._import(staging, existing.id, path, cfg, progress, cancel)
            self.store.swap_registry_data(
                existing.id,
                staging.id,
                status=RegistryStatus.CONFIGURED,
                config=cfg.model_dump(mode="json"),
                source_file=str(path),
                stats=stats,
                task_error=None,
                task_owner=None,
            )
        except BaseException as exc:
            self.store.delete_registry(staging.id)
            self.store.update_registry(
                existing.id,
                status=before,
                task_owner=None,
                task_error=f"the last import failed and changed nothing: {exc or repr(exc)}",
            )
            raise
        return ImportSummary(existing.id, stats["kept"], stats["filtered"], stats)

    def registries(self) -> list[Registry]:
        """Every registry, with any whose import or search died marked as such."""
        return [self.release_if_dead(r) for r in self.store.list_registries()]

    def release_if_dead(self, registry: Registry) -> Registry:
        """A registry left ``importing`` or ``searching`` by a process that is gone is
        released at once: status ``error`` with what happened and what to do."""
        if registry.status not in (RegistryStatus.IMPORTING, RegistryStatus.SEARCHING):
            return registry
        if owner_alive(registry.task_owner, registry.updated_at):
            return registry
        if registry.status is RegistryStatus.SEARCHING:
            status, error = (
                RegistryStatus.ERROR,
                ("the search was interrupted: the process running it ended; search again."),
            )
        elif registry.stats.get("kept") is None:  # a first import: its rows are partial
            status, error = (
                RegistryStatus.ERROR,
                ("the import was interrupted: the process running it ended; import it again."),
            )
        else:  # a re-import into a staging copy: the registry itself is untouched
            searched = self.store.count_results(registry.id) > 0
            status = RegistryStatus.SEARCHED if searched else RegistryStatus.CONFIGURED
            error = (
                "the last import was interrupted (the process running it ended) and "
                "changed nothing; import again to replace the rows."
            )
        return self.store.update_registry(
            registry.id, status=status, task_owner=None, task_error=error
        )

    def _sweep_dead_staging(self) -> None:
        """Staging copies of imports whose process died: nothing will ever swap them in."""
        for registry in self.store.list_registries(staging=True):
            if registry.status is RegistryStatus.STAGING and not owner_alive(
                registry.task_owner, registry.updated_at
            ):
                self.store.delete_registry(registry.id)

    def _import(
        self,
        into: Registry,
        shown: int,
        path: Path,
        cfg: RegistryConfig,
        progress: ProgressSink | None,
        cancel: CancelToken | None,
    ) -> dict[str, Any]:
        """Rows into ``into`` (the registry, or its staging copy), with a heartbeat on
        ``shown`` (the registry other processes look at) so they can tell we live."""
        run = read_registry(path, cfg, chunk_size=500, encoded=True, limits=self.limits)
        beat = time.monotonic()
        for chunk in run:
            raise_if_canceled(cancel, "registry import")
            self.store.add_encoded_registry_rows(into.id, chunk)
            if time.monotonic() - beat > HEARTBEAT_EVERY.total_seconds():
                self.store.update_registry(shown)  # refreshes updated_at
                if into.id != shown:
                    self.store.update_registry(into.id)
                beat = time.monotonic()
            report(progress, run.stats.kept, None, IMPORTED)
        self.store.set_filtered_rows(into.id, run.filtered)
        report(progress, run.stats.kept, run.stats.kept, IMPORTED)
        return asdict(run.stats)

    # -- search -------------------------------------------------------------------------

    def documents(self) -> list[Document]:
        """What rows are matched against: a likely duplicate is the document it names,
        so a row never ties between the two copies of one invoice."""
        return without_duplicates(self.store.list_documents())

    def estimate_pairs(self, file: Path | str, config: ConfigSource) -> tuple[int, int]:
        """Phase 1's candidate-pair count for a registry not imported yet, and the number
        of documents (what brute force would pair every row with): the same index the
        search builds, over the rows as the import would keep them, so the operator sees
        the cost of the rules before committing to a run."""
        settings = _config(config)
        rows = [
            MatchRow(row=r.row, normalized=r.normalized)
            for chunk in read_registry(Path(file), settings, chunk_size=5000, limits=self.limits)
            for r in chunk
        ]
        documents = self.documents()
        return search_mod.build_matcher(settings, documents).candidate_pairs(rows), len(documents)

    def candidate_pairs(self, registry_id: int) -> int:
        """The pair count phase 1 will produce, to show before a run."""
        return search_mod.count_candidate_pairs(self.store, registry_id, self.documents())

    def search(
        self,
        registry_id: int,
        *,
        progress: ProgressSink | None = None,
        cancel: CancelToken | None = None,
    ) -> search_mod.SearchSummary:
        found = search_mod.run_search(
            self.store, registry_id, self.documents(),
            workload=self.workload, progress=progress, cancel=cancel,
        )  # fmt: skip
        log.info(
            "registry %d searched: %d rows matched, %d without a match, %d by hand",
            registry_id, found.matched, found.no_match, found.manual,
        )  # fmt: skip
        return found

    def results(self, registry_id: int, filter: str = "all") -> list[SearchResult]:
        """Results in row order, narrowed by one of RESULT_FILTERS."""
        if filter not in RESULT_FILTERS:
            raise ValueError(f"unknown filter {filter!r}; use one of {', '.join(RESULT_FILTERS)}")
        self.store.get_registry(registry_id)
        search_mod.rematch_stale(self.store, registry_id, self.documents())
        found = self.store.list_results(registry_id)
        keep = {
            "all": lambda r: True,
            "matched": lambda r: r.document_id is not None,
            "no_match": lambda r: r.document_id is None,
            "warnings": lambda r: bool(r.warnings),
            "ties": lambda r: any(w.code == "match_tie" for w in r.warnings),
            "manual": lambda r: r.manual,
        }[filter]
        return [r for r in found if keep(r)]

    def assign(self, registry_id: int, row: int, document_id: int, who: str) -> SearchResult:
        """Give a row a document by hand; refused when another row already has it."""
        self.store.get_registry(registry_id)  # a wrong registry is named before the document
        if not any(d.id == document_id for d in self.documents()):
            raise NotFound("document", document_id)
        holder = next(
            (r.row for r in self.store.list_results(registry_id)
             if r.document_id == document_id and r.row != row),
            None,
        )  # fmt: skip
        if holder is not None:
            raise NeedsForce.coded(
                "registry_document_taken", {"document": document_id, "row": holder}
            )
        assigned = self.store.assign(registry_id, row, document_id, who)
        log.info("registry %d row %d assigned to document %d by %s", registry_id, row,
                 document_id, who)  # fmt: skip
        return assigned

    def mark_stale(self, document_ids: Sequence[int], why: str) -> int:
        """Flag the results that use these documents (their file is processed again);
        they are matched again when read once the job is done."""
        return search_mod.mark_stale(self.store, document_ids, why)

    def unassign(self, registry_id: int, row: int, who: str) -> SearchResult:
        unassigned = self.store.assign(registry_id, row, None, who)
        log.info("registry %d row %d unassigned by %s", registry_id, row, who)
        return unassigned

    def unmatched(self, registry_id: int) -> dict[str, list[Document]]:
        """Reverse reconciliation: documents no row has, by document type."""
        used = {r.document_id for r in self.store.list_results(registry_id)}
        out: dict[str, list[Document]] = {}
        for doc in self.documents():
            if doc.id not in used:
                out.setdefault(doc.doc_type, []).append(doc)
        return out

    # -- export -------------------------------------------------------------------------

    def export(
        self,
        registry_id: int,
        out: Path | str,
        *,
        progress: ProgressSink | None = None,
        cancel: CancelToken | None = None,
        language: str = "ru",
    ) -> int:
        """Write the .xlsx export in ``language`` (its headers and warnings); returns
        the number of registry rows written.

        A registry that is not fully imported is refused (``NotImported``): an export
        of part of it would look complete to whoever opens the file."""
        with self.workload.track_task("registry_export", registry_id):
            registry = self.release_if_dead(self.store.get_registry(registry_id))
            check_fully_imported(registry, self.store.count_registry_rows(registry_id))
            headers: Sequence[str] = registry.stats.get("headers") or []
            every = self.documents()
            search_mod.rematch_stale(self.store, registry_id, every)
            documents = {d.id: d for d in every if d.id is not None}
            names = {j.id: j.file_name for j in self.store.list_jobs()}
            results = {r.row: r for r in self.store.list_results(registry_id)}
            unmatched = [d for docs in self.unmatched(registry_id).values() for d in docs]
            written = write_export(
                Path(out), headers, self._rows(registry_id), results, documents, names,
                unmatched, total=self.store.count_registry_rows(registry_id),
                progress=progress, cancel=cancel, language=language,
                labels=ExportLabels.of(self.profile, language),
            )  # fmt: skip
        log.info("registry %d exported to %s: %d rows (%s)", registry_id, out, written, language)
        return written

    def _rows(self, registry_id: int, page: int = 5000) -> Iterator[RegistryRowRecord]:
        """Rows page by page, so an export of a big registry stays in bounded memory."""
        offset = 0
        while batch := self.store.list_registry_rows(registry_id, offset=offset, limit=page):
            yield from batch
            offset += len(batch)
