"""Registry search against the store: the matcher's pure run, persisted.

The matcher knows nothing of storage or of the pydantic configuration, so this module
translates both ways, writes results in chunks of 200, keeps what operators assigned
by hand (their rows and documents are taken out of the automatic run), and records a
failure as status ``error`` with ``task_error`` so the GUI can say what happened.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from docbatch_gui.coordination.owner import HEARTBEAT_EVERY, owner_alive, this_owner
from docbatch_gui.coordination.workload import Workload, WorkloadBusy
from docbatch_gui.domain.errors import JobTimeout
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.domain.models import Document
from docbatch_gui.domain.progress import (
    CancelToken,
    Progress,
    ProgressSink,
    raise_if_canceled,
    report,
)
from docbatch_gui.domain.registry import Registry, RegistryRowRecord, RegistryStatus, SearchResult
from docbatch_gui.domain.states import SUCCESS_STATES
from docbatch_gui.i18n import NP_
from docbatch_gui.registry import matcher as m
from docbatch_gui.registry.config import RegistryConfig, load_config
from docbatch_gui.storage.store import Store

__all__ = [
    "RESULT_CHUNK",
    "SearchSummary",
    "build_matcher",
    "is_stale",
    "mark_stale",
    "matcher_rules",
    "refuse_if_busy",
    "rematch_stale",
    "run_search",
]

RESULT_CHUNK = 200
#: what the search's progress counts (``Progress.what``)
MATCHED = NP_("progress", "rows matched")
#: The time limits of a search; past the hard one a "searching" status is stale.
SOFT_LIMIT = timedelta(minutes=60)
HARD_LIMIT = timedelta(minutes=65)
#: the first word of the warning on a result whose document is being processed again
STALE = "stale:"
#: registries whose results belong to a run in progress: left alone
BUSY = (RegistryStatus.IMPORTING, RegistryStatus.SEARCHING)


@dataclass(frozen=True)
class SearchSummary:
    registry_id: int
    rows: int
    matched: int
    no_match: int
    with_warnings: int
    manual: int
    candidate_pairs: int


def matcher_rules(config: RegistryConfig) -> list[m.Rule]:
    """The validated configuration's rules as the matcher's own dataclasses."""
    rules = []
    for rule in config.rules:
        subs = []
        for sub in rule.subrules:
            extra: dict[str, float | int] = {}
            if sub.threshold is not None:
                extra["threshold"] = sub.threshold
            if sub.tolerance_days is not None:
                extra["tolerance_days"] = sub.tolerance_days
            if sub.tolerance is not None:
                extra["tolerance"] = sub.tolerance
            subs.append(
                m.SubRule(
                    sub.field,
                    sub.document_field,
                    sub.comparator,
                    weight=sub.weight,
                    required=sub.required,
                    **extra,  # type: ignore[arg-type]
                )
            )
        rules.append(m.Rule(rule.name, tuple(subs)))
    return rules


def build_matcher(
    config: RegistryConfig, documents: Sequence[Document], store: Store | None = None
) -> m.RegistryMatcher:
    """With ``store``, warnings name documents by file and page, not by id."""
    names = document_names(store, documents) if store is not None else None
    return m.RegistryMatcher(
        matcher_rules(config), documents, threshold=config.threshold, names=names
    )


def document_names(store: Store, documents: Sequence[Document]) -> dict[int, Message]:
    """Each document as a warning names it: its job's file and its first page."""
    files = {j.id: j.file_name for j in store.list_jobs(ids=sorted({d.job_id for d in documents}))}
    return {
        d.id: coded("document_in_file", file=files[d.job_id], page=d.page_from)
        for d in documents
        if d.id is not None and d.job_id in files
    }


def matcher_rows(records: Iterable[RegistryRowRecord]) -> list[m.RegistryRow]:
    return [m.RegistryRow(row=r.row, normalized=r.normalized) for r in records]


def to_result(match: m.Match) -> SearchResult:
    return SearchResult(
        row=match.row,
        document_id=match.document_id,
        score=match.score,
        explanation=match.explanation,
        runner_up_id=match.runner_up_id,
        runner_up_score=match.runner_up_score,
        warnings=list(match.warnings),
        rule=match.rule,
    )


def _load(
    store: Store, registry_id: int, documents: Sequence[Document]
) -> tuple[RegistryConfig, list[m.RegistryRow], list[Document], int]:
    """Config, the rows to search and the documents to offer, minus manual decisions."""
    registry = store.get_registry(registry_id)
    config = load_config(registry.config)
    manual = [r for r in store.list_results(registry_id) if r.manual]
    manual_rows = {r.row for r in manual}
    taken = {r.document_id for r in manual if r.document_id is not None}
    rows = [r for r in matcher_rows(store.list_registry_rows(registry_id))
            if r.row not in manual_rows]  # fmt: skip
    offered = [d for d in documents if d.id not in taken]
    return config, rows, offered, len(manual)


def count_candidate_pairs(store: Store, registry_id: int, documents: Sequence[Document]) -> int:
    """Pairs phase 1 will give phase 2: shown to the operator before a run."""
    config, rows, offered, _ = _load(store, registry_id, documents)
    return build_matcher(config, offered).candidate_pairs(rows)


def run_search(
    store: Store,
    registry_id: int,
    documents: Sequence[Document],
    *,
    workload: Workload,
    progress: ProgressSink | None = None,
    cancel: CancelToken | None = None,
) -> SearchSummary:
    """Match every row, replacing earlier automatic results; manual ones are kept.

    Refused with WorkloadBusy while this registry is importing or searching elsewhere
    (checked before the slot is taken, so a refused run never releases the slot of the
    one it collided with), and while any other search runs: the workload manager
    lets one ``registry_search`` run at a time, team-wide. Any failure (cancel
    included) leaves status ``error`` with the reason in ``task_error``.
    """
    refuse_if_busy(store.get_registry(registry_id))
    with workload.track_task("registry_search", registry_id):
        store.update_registry(
            registry_id, status=RegistryStatus.SEARCHING, task_error=None, task_owner=this_owner()
        )
        try:
            summary = _search(store, registry_id, documents, progress, cancel)
        except BaseException as exc:
            store.update_registry(
                registry_id,
                status=RegistryStatus.ERROR,
                task_error=str(exc) or repr(exc),
                task_owner=None,
            )
            raise
        stats = {**store.get_registry(registry_id).stats, "search": summary.__dict__}
        store.update_registry(
            registry_id, status=RegistryStatus.SEARCHED, stats=stats, task_owner=None
        )
        return summary


def refuse_if_busy(registry: Registry) -> None:
    """An import or a search of this registry running in another window, process or
    machine (its status says so) must finish first: two runs would interleave chunks.
    One whose process is gone (``coordination.owner``) is no obstacle."""
    running = registry.status in (RegistryStatus.IMPORTING, RegistryStatus.SEARCHING)
    if (
        running
        and not _stale(registry.updated_at)
        and owner_alive(registry.task_owner, registry.updated_at)
    ):
        raise WorkloadBusy(
            f"registry {registry.id} is {registry.status.value} in another process; "
            "wait until it has finished, then try again"
        )


def _stale(updated_at: datetime | None) -> bool:
    """A "searching" status older than the hard limit is a crashed run, not a live one."""
    return updated_at is None or datetime.now(UTC) - updated_at > HARD_LIMIT


def _search(
    store: Store,
    registry_id: int,
    documents: Sequence[Document],
    progress: ProgressSink | None,
    cancel: CancelToken | None,
) -> SearchSummary:
    config, rows, offered, manual = _load(store, registry_id, documents)
    matcher = build_matcher(config, offered, store)
    pairs = matcher.candidate_pairs(rows)

    started = beat = time.monotonic()

    def on_progress(step: Progress) -> None:
        nonlocal beat
        done, total = step.done, step.total
        raise_if_canceled(cancel, "registry search")
        if time.monotonic() - beat > HEARTBEAT_EVERY.total_seconds():
            store.update_registry(registry_id)  # the heartbeat: updated_at
            beat = time.monotonic()
        if time.monotonic() - started > SOFT_LIMIT.total_seconds():
            raise JobTimeout.coded(
                "registry_search_too_long", {"limit": str(SOFT_LIMIT), "done": done, "total": total}
            )
        report(progress, done, total, MATCHED)

    store.clear_results(registry_id, keep_manual=True)
    matched = no_match = warned = 0
    chunk: list[SearchResult] = []
    for match in matcher.match(rows, progress=on_progress):
        result = to_result(match)
        matched += result.document_id is not None
        no_match += result.document_id is None
        warned += bool(result.warnings)
        chunk.append(result)
        if len(chunk) >= RESULT_CHUNK:
            store.put_results(registry_id, chunk)
            chunk = []
    if chunk:
        store.put_results(registry_id, chunk)
    return SearchSummary(registry_id, len(rows), matched, no_match, warned, manual, pairs)


def is_stale(result: SearchResult) -> bool:
    """Its document's file was processed again (or is being): the match waits to be
    checked, and is not shown or exported as a sure one."""
    return any(w.english.startswith(STALE) for w in result.warnings)


def mark_stale(store: Store, document_ids: Iterable[int], why: str) -> int:
    """Flag every registry result that uses one of these documents: their job is
    processed again, so what matched them may change. ``rematch_stale`` checks them
    once the job is done. Returns how many results were flagged."""
    ids = set(document_ids)
    if not ids:
        return 0
    flagged = 0
    for registry in store.list_registries():
        if registry.status in BUSY:
            continue
        stale = [
            replace(r, warnings=[*r.warnings, Message.plain(f"{STALE} {why}")])
            for r in store.list_results(registry.id)
            if r.document_id in ids and not is_stale(r)
        ]
        if stale:
            store.put_results(registry.id, stale)
            flagged += len(stale)
    return flagged


def rematch_stale(
    store: Store, registry_id: int, documents: Sequence[Document]
) -> list[SearchResult]:
    """Rows whose document no longer exists (deleted, or not found again when its file
    was processed again), and rows flagged stale whose job is done again, matched again
    among the documents no other row holds; each says so in its warnings. A row an
    operator assigned by hand keeps a document that still exists, with a note to check
    it. Rows whose job is still being processed stay flagged. A registry being
    imported or searched is left alone."""
    registry = store.get_registry(registry_id)
    if registry.status in BUSY:
        return []
    results = store.list_results(registry_id)
    by_id = {d.id: d for d in documents}
    flagged = [r for r in results if r.document_id in by_id and is_stale(r)]
    settled = _settled_jobs(store, {by_id[r.document_id].job_id for r in flagged})
    kept: list[SearchResult] = []
    stale: dict[int, SearchResult] = {}
    for r in results:
        if r.document_id is None:
            continue
        if r.document_id not in by_id:
            stale[r.row] = r
        elif is_stale(r) and by_id[r.document_id].job_id in settled:
            if r.manual:
                kept.append(_checked_manual(r))
            else:
                stale[r.row] = r
    if kept:
        store.put_results(registry_id, kept)
    if not stale:
        return kept
    taken = {r.document_id for r in results if r.row not in stale and r.document_id is not None}
    config = load_config(registry.config)
    rows = [r for r in matcher_rows(store.list_registry_rows(registry_id)) if r.row in stale]
    matcher = build_matcher(config, [d for d in documents if d.id not in taken], store)
    fresh = []
    for match in matcher.match(rows):
        before = stale[match.row]
        gone = before.document_id not in by_id
        if before.manual:
            code = "match_rematched_manual" if gone else "match_reprocessed_manual"
            note = coded(code, document=before.document_id, who=before.assigned_by)
        else:
            code = "match_rematched" if gone else "match_reprocessed"
            note = coded(code, document=before.document_id)
        result = to_result(match)
        fresh.append(replace(result, warnings=[*result.warnings, note]))
    store.put_results(registry_id, fresh)
    return kept + fresh


def _settled_jobs(store: Store, job_ids: set[int]) -> set[int]:
    """Of these jobs, the ones done (or waiting for review) again."""
    if not job_ids:
        return set()
    return {j.id for j in store.list_jobs(ids=job_ids) if j.state in SUCCESS_STATES}


def _checked_manual(result: SearchResult) -> SearchResult:
    """A hand assignment whose document was processed again: the person's choice
    stays, the flag becomes a note to look at it."""
    warnings = [w for w in result.warnings if not w.english.startswith(STALE)]
    note = Message.plain(
        f"document {result.document_id} was processed again after it was assigned; check it"
    )
    return replace(result, warnings=[*warnings, note])
