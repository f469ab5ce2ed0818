"""Intake: hash each file into the blob store and write its job row before anything else.

Writing the job first is what makes "never lose a file" hold: from here on the bytes
are in the blob store and the job is in the store, whatever crashes next.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docbatch_gui.domain.errors import UnsupportedInput
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.domain.models import Job, NewJob
from docbatch_gui.domain.progress import CancelToken, ProgressSink, canceled, report
from docbatch_gui.domain.said import cause
from docbatch_gui.domain.states import JobState, Phase, ProcessingMode
from docbatch_gui.domain.text import printable
from docbatch_gui.engine.job_log import log_failure
from docbatch_gui.pipeline.edocs.read import is_data_file
from docbatch_gui.pipeline.formats import SUPPORTED_EXTENSIONS, check_file
from docbatch_gui.sources.local import iter_files, undecodable
from docbatch_gui.storage.blobs import BlobStore, sha256_file
from docbatch_gui.storage.store import Store

log = logging.getLogger("docbatch_gui.engine.worker")

EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


@dataclass(frozen=True)
class IntakeResult:
    job: Job
    duplicate_of: Job | None = None

    @property
    def is_duplicate(self) -> bool:
        return self.duplicate_of is not None


@dataclass
class IntakeReport:
    results: list[IntakeResult] = field(default_factory=list)
    #: files found in folders whose type is not supported; named, never silently dropped
    skipped: list[Path] = field(default_factory=list)
    #: files found in folders that are not read, with why (a link out of the folder or
    #: into /proc, a pipe, a link loop); nothing of them is stored
    passed_over: list[tuple[Path, Message]] = field(default_factory=list)
    #: the operator stopped the intake; the files taken in so far stay queued
    canceled: bool = False

    @property
    def jobs(self) -> list[Job]:
        return [r.job for r in self.results]


def intake_paths(
    store: Store,
    blobs: BlobStore,
    paths: Iterable[Path | str],
    *,
    mode: str,
    force: bool = False,
    max_file_mb: int = 1024,
    progress: ProgressSink | None = None,
    cancel: CancelToken | None = None,
    links_out: bool = False,
    folder: Path | None = None,
) -> IntakeReport:
    """Queue files. A file named explicitly always gets a job (a failed one if its
    type is unsupported); inside folders, unsupported types are reported as skipped
    so a folder of scans with a stray spreadsheet does not fill the queue with errors.

    A big folder takes a while (every file is hashed and copied): ``progress`` hears
    of each file (its name as ``what``), and ``cancel`` stops between two files; the
    report then says so (``canceled``) and the files taken in so far stay queued.

    ``folder``: the paths are files found in this folder (a watched one), read by the
    same rules as a folder added by hand (``sources.local.iter_files``). A name that
    is not UTF-8 is passed over even when named: no job can hold it.
    """
    result = IntakeReport()
    files = iter_files(paths, links_out=links_out, folder=folder)
    found = list(files) if progress is not None else files
    total = len(found) if isinstance(found, list) else None
    for done, item in enumerate(found):
        if canceled(cancel):
            result.canceled = True
            break
        report(progress, done, total, printable(item.path.name))
        if item.problem is not None and (not item.explicit or undecodable(item.path)):
            path, problem = shown_path(item.path), cause(item.problem)
            log.warning("passed over %s: %s", path, problem)
            result.passed_over.append((item.path, item.problem))
            continue
        if not item.explicit and item.path.suffix.lower() not in SUPPORTED_EXTENSIONS:
            result.skipped.append(item.path)
            continue
        result.results.append(
            intake_file(
                store, blobs, item.path, mode=mode, force=force, max_file_mb=max_file_mb,
                problem=item.problem,
            )
        )  # fmt: skip
    return result


def intake_file(
    store: Store,
    blobs: BlobStore,
    path: Path,
    *,
    mode: str,
    force: bool = False,
    max_file_mb: int = 1024,
    problem: Message | None = None,
    origin: dict[str, Any] | None = None,
    source_path: str | None = None,
) -> IntakeResult:
    """``problem``: why the path must not be read at all (``sources.local.refusal``);
    ``origin``: where the file came from when not from this path (a mail message),
    and ``source_path`` what the job names instead of the path (a scratch copy's)."""
    if problem is not None:
        return _unread(
            store, path, str(path.absolute()), mode,
            coded("intake_not_read", file=path.name, problem=problem),
        )  # fmt: skip
    if source_path is None:
        source_path = str(path.resolve()) if path.exists() else str(path)
    if not path.is_file():
        code = "intake_missing" if not path.exists() else "intake_not_file"
        return _unread(
            store, path, source_path, mode,
            coded(code, file=path.name, path=source_path),
        )  # fmt: skip
    try:
        check_file(path, max_bytes=max_file_mb * 2**20)
        refused = None
    except UnsupportedInput as exc:
        refused = exc
    # A refused file is never stored: its job records the hash and the reason; a retry
    # after the operator fixed a setting reads it again from where it was.
    if refused is not None:
        sha256, size = sha256_file(path) if size_ok(path, max_file_mb) else (EMPTY_SHA256, 0)
    else:
        sha256, size = blobs.put_file(path)
    if refused is None and is_data_file(path):
        mode = ProcessingMode.DATA.value  # read exactly, never sent to Claude
    original = None if force else store.find_original(sha256)
    if original is not None and refused is None:
        job = store.create_job(
            NewJob(
                path.name, source_path, sha256, size, ProcessingMode(mode),
                duplicate_of=original.id, origin=origin,
            )
        )  # fmt: skip
        job = store.transition(
            job.id,
            JobState.DUPLICATE,
            error=coded("duplicate", file=path.name, job=original.id, original=original.file_name),
        )
        return IntakeResult(job, duplicate_of=original)
    job = store.create_job(
        NewJob(path.name, source_path, sha256, size, ProcessingMode(mode), origin=origin)
    )
    if refused is not None:
        job = store.transition(
            job.id,
            JobState.FAILED,
            error_kind=refused.kind,
            error=refused.message,
            phase=Phase.INTAKE,
        )
        log_failure(job)
    return IntakeResult(job)


def _unread(
    store: Store,
    path: Path,
    source_path: str,
    mode: str,
    error: Message,
    origin: dict[str, Any] | None = None,
) -> IntakeResult:
    """A job for a path that was not read at all: failed at intake with ``error``."""
    job = store.create_job(
        NewJob(path.name, source_path, EMPTY_SHA256, 0, ProcessingMode(mode), origin=origin)
    )
    job = store.transition(
        job.id, JobState.FAILED, error_kind=UnsupportedInput.kind, error=error, phase=Phase.INTAKE
    )
    log_failure(job)
    return IntakeResult(job)


def intake_refused(
    store: Store, name: str, source: str, mode: str, error: Message, origin: dict[str, Any]
) -> IntakeResult:
    """A job for something refused before it became a file (a mail attachment over
    its bounds, a message with too many): failed at intake, nothing stored, so the
    operator sees it in the queue with its reason and where it came from."""
    return _unread(store, Path(name), source, mode, error, origin)


def size_ok(path: Path, max_file_mb: int) -> bool:
    """Worth hashing: a file refused for its sheer size is not even read."""
    try:
        return path.stat().st_size <= max_file_mb * 2**20
    except OSError:
        return False


def shown_path(path: Path) -> str:
    """A path as the log and the terminal show it: control characters escaped."""
    return printable(str(path))
