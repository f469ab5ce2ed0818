"""The embedded store: one SQLite file in WAL mode.

WAL lets the GUI read while the worker writes. Every state change is one
``BEGIN IMMEDIATE`` transaction that re-reads the stored state first, so two
processes on the same data directory cannot both claim or finish a job.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Unpack

from docbatch_gui.checks.duplicates import match_key
from docbatch_gui.domain.errors import ErrorKind, NotFound
from docbatch_gui.domain.models import Document, Job, NewJob, Page
from docbatch_gui.domain.states import FAILURE_STATES, JobState, Phase
from docbatch_gui.storage.health import check_not_empty, storage_error
from docbatch_gui.storage.job_changes import (
    JobChange,
    JobHead,
    JobMoves,
    StoredHead,
    created,
    update_patch,
    written,
)
from docbatch_gui.storage.job_patch import JSON_COLUMNS, JobPatch, job_of
from docbatch_gui.storage.sqlite_budget import BudgetTables
from docbatch_gui.storage.sqlite_counterparties import CounterpartyTables
from docbatch_gui.storage.sqlite_intents import IntentTables
from docbatch_gui.storage.sqlite_pages import INSERT_PAGE, page_of, page_values
from docbatch_gui.storage.sqlite_records import RecordTables
from docbatch_gui.storage.sqlite_records import now_utc as _now
from docbatch_gui.storage.sqlite_registry import RegistryTables
from docbatch_gui.storage.sqlite_schema import MIGRATIONS
from docbatch_gui.storage.store import check_attempts, stored_id

_BOOL_FIELDS = {"termination_confirmed", "artifacts_deliverable", "archived", "escalated"}


def _to_db(name: str, value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if name in _BOOL_FIELDS:
        return int(bool(value))
    if name in JSON_COLUMNS:
        return json.dumps(value, ensure_ascii=False, default=str)
    if isinstance(value, (JobState, Phase, ErrorKind)):
        return value.value
    return value


def _row_to_job(row: sqlite3.Row) -> Job:
    return job_of(dict(row), row["id"])


class SQLiteStore(
    JobMoves, RecordTables, IntentTables, BudgetTables, RegistryTables, CounterpartyTables
):
    """Store on one SQLite file; safe to share between threads of one process."""

    def __init__(self, path: Path | str, *, busy_timeout: float = 30) -> None:
        """Opens (or creates) the database; a damaged, empty, locked or unreachable
        file raises StorageError or StoreBusy with one sentence naming it."""
        self.path = Path(path)
        self.busy_timeout = busy_timeout
        self._lock = threading.RLock()
        try:
            if str(path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
                check_not_empty(self.path)
            self._db = sqlite3.connect(
                str(path), timeout=busy_timeout, isolation_level=None, check_same_thread=False
            )
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except (sqlite3.Error, OSError) as exc:
            raise storage_error(exc, self.path, busy_timeout=busy_timeout) from None

    # -- infrastructure -------------------------------------------------------------

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; a locked, full or damaged database becomes StoreBusy
        or StorageError (one sentence), never a bare sqlite3 traceback."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise storage_error(exc, self.path, busy_timeout=self.busy_timeout) from None
            try:
                yield self._db
            except BaseException as exc:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.OperationalError) or type(exc) is sqlite3.DatabaseError:
                    raise storage_error(exc, self.path, busy_timeout=self.busy_timeout) from None
                raise
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
                raise storage_error(exc, self.path, busy_timeout=self.busy_timeout) from None

    def _migrate(self) -> None:
        with self._tx() as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > len(MIGRATIONS):
                raise RuntimeError(
                    f"{self.path} has schema version {version}, newer than this DocBatch "
                    f"({len(MIGRATIONS)}); update DocBatch or use another data directory"
                )
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                for statement in filter(str.strip, script.split(";")):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {number}")
            if version < len(MIGRATIONS):  # documents written before their key was kept
                _key_documents(db)

    @property
    def schema_version(self) -> int:
        return int(self._value("PRAGMA user_version"))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- jobs -------------------------------------------------------------------------

    def create_job(self, new: NewJob) -> Job:
        new_job = created(new)
        columns = {**new_job.fields, "origin": _to_db("origin", new_job.fields["origin"])}
        with self._tx() as db:
            cursor = db.execute(
                f"INSERT INTO jobs ({', '.join(columns)}) VALUES ({','.join('?' * len(columns))})",
                tuple(columns.values()),
            )
            job_id = int(cursor.lastrowid or 0)
            self._event(db, job_id, new_job.event)
            return self._get(db, job_id)

    def _get(self, db: sqlite3.Connection, job_id: int) -> Job:
        row = db.execute("SELECT * FROM jobs WHERE id = ?", (stored_id("job", job_id),)).fetchone()
        if row is None:
            raise NotFound("job", job_id)
        return _row_to_job(row)

    def get_job(self, job_id: int) -> Job:
        with self._lock:
            return self._get(self._db, job_id)

    def list_jobs(
        self,
        states: Iterable[JobState] | None = None,
        ids: Iterable[int] | None = None,
        *,
        mode: str | None = None,
        limit: int | None = None,
    ) -> list[Job]:
        sql = "SELECT * FROM jobs"
        args: list[str | int] = []
        clauses = []
        if states is not None:
            values = [JobState(s).value for s in states]
            clauses.append(f"state IN ({','.join('?' * len(values))})")
            args += values
        if ids is not None:
            id_list = [int(i) for i in ids]
            clauses.append(f"id IN ({','.join('?' * len(id_list))})")
            args += id_list
        if mode is not None:
            clauses.append("mode = ?")
            args.append(mode)
        if clauses:
            sql += " WHERE " + " AND ".join(clauses)
        sql += " ORDER BY id"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        return [_row_to_job(r) for r in self._rows(sql, args)]

    def job_revisions(self, ids: Iterable[int]) -> dict[int, int]:
        id_list = [int(i) for i in ids]
        rows = self._rows(
            f"SELECT id, revision FROM jobs WHERE id IN ({','.join('?' * len(id_list))})", id_list
        )
        return {row[0]: row[1] for row in rows}

    def find_original(self, sha256: str) -> Job | None:
        row = self._row(
            "SELECT * FROM jobs WHERE sha256 = ? AND duplicate_of IS NULL"
            " AND state NOT IN (?, ?, ?) ORDER BY id LIMIT 1",
            (sha256, *sorted(FAILURE_STATES)),
        )
        return _row_to_job(row) if row else None

    def _write_fields(
        self,
        db: sqlite3.Connection,
        job_id: int,
        fields: dict[str, Any],
        *,
        attempt: int | None = None,
    ) -> bool:
        """Write ``fields`` (and the moment, and one more revision) on the job; with
        ``attempt``, only while the stored attempt is that one. False when no row was
        written (no such job, or another attempt)."""
        values = written(fields)
        assignments = ", ".join(f"{name} = ?" for name in values)
        args = [*(_to_db(name, value) for name, value in values.items()), job_id]
        sql = f"UPDATE jobs SET {assignments}, revision = revision + 1 WHERE id = ?"
        if attempt is not None:
            sql += " AND attempts = ?"
            args.append(attempt)
        return db.execute(sql, args).rowcount > 0

    def _change(self, db: sqlite3.Connection, job_id: int, change: JobChange) -> None:
        """Write a change and its event, in the caller's transaction."""
        self._write_fields(db, job_id, change.fields)
        self._event(db, job_id, change.event)

    def _apply_change(
        self, job_id: int, decide: Callable[[StoredHead], JobChange | None]
    ) -> Job | None:
        """The change is decided on the four columns it needs, not on the job decoded;
        the job is decoded once, as written."""
        with self._tx() as db:
            row = db.execute(
                "SELECT state, phase, attempts FROM jobs WHERE id = ?",
                (stored_id("job", job_id),),
            ).fetchone()
            if row is None:
                raise NotFound("job", job_id)
            phase = Phase(row["phase"]) if row["phase"] else None
            change = decide(JobHead(job_id, JobState(row["state"]), phase, row["attempts"] or 0))
            if change is None:
                return None
            self._change(db, job_id, change)
            return self._get(db, job_id)

    def update_job(
        self, job_id: int, *, attempt: int | None = None, **fields: Unpack[JobPatch]
    ) -> Job:
        """The attempt fence is checked by the write itself (its ``WHERE``); only when
        it writes nothing is the job read apart, to say why."""
        patch = update_patch(fields)
        job_id = stored_id("job", job_id)
        with self._tx() as db:
            if not self._write_fields(db, job_id, patch, attempt=attempt):
                row = db.execute("SELECT attempts FROM jobs WHERE id = ?", (job_id,)).fetchone()
                if row is None:
                    raise NotFound("job", job_id)
                check_attempts(job_id, row["attempts"], attempt)  # raises: another attempt
            return self._get(db, job_id)

    def _event(self, db: sqlite3.Connection, job_id: int, event: dict[str, Any]) -> None:
        """One row of the job's history (``job_changes.job_event``)."""
        db.execute(
            "INSERT INTO job_events (job_id, at, from_state, to_state, phase, attempt, detail)"
            " VALUES (:job_id, :at, :from_state, :to_state, :phase, :attempt, :detail)",
            {**event, "job_id": job_id},
        )

    def job_events(self, job_id: int) -> list[dict[str, Any]]:
        rows = self._rows(
            "SELECT at, from_state, to_state, phase, attempt, detail FROM job_events"
            " WHERE job_id = ? ORDER BY id",
            (job_id,),
        )
        return [dict(r) for r in rows]

    def delete_job(self, job_id: int) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE jobs SET duplicate_of = NULL, updated_at = ?, revision = revision + 1"
                " WHERE duplicate_of = ?",
                (_now().isoformat(), job_id),
            )
            db.execute("DELETE FROM jobs WHERE id = ?", (job_id,))

    # -- pages ------------------------------------------------------------------------

    def put_pages(self, pages: Sequence[Page]) -> None:
        with self._tx() as db:
            db.executemany(INSERT_PAGE, [page_values(p) for p in pages])

    def list_pages(self, job_id: int) -> list[Page]:
        rows = self._rows("SELECT * FROM pages WHERE job_id = ? ORDER BY page_no", (job_id,))
        return [page_of(r) for r in rows]

    def set_pages_deliverable(self, job_id: int, deliverable: bool) -> int:
        with self._tx() as db:
            cursor = db.execute(
                "UPDATE pages SET deliverable = ? WHERE job_id = ?", (int(deliverable), job_id)
            )
            self._write_fields(db, job_id, {"artifacts_deliverable": deliverable})
            return cursor.rowcount

    def delete_pages(self, job_id: int) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM pages WHERE job_id = ?", (job_id,))

    # -- documents --------------------------------------------------------------------

    def replace_documents(self, job_id: int, documents: Sequence[Document]) -> list[Document]:
        with self._tx() as db:
            db.execute("DELETE FROM documents WHERE job_id = ?", (job_id,))
            for doc in documents:
                db.execute(
                    "INSERT INTO documents (id, job_id, doc_index, doc_type, page_from, page_to,"
                    " body, match_key) VALUES (?,?,?,?,?,?,?,?)",
                    (doc.id, job_id, *_document_columns(doc)),
                )
            self._write_fields(db, job_id, {"documents": len(documents)})
        return self.list_documents(job_id)

    def update_document(self, document: Document) -> Document:
        if document.id is None:
            raise ValueError("a document without an id cannot be updated in place")
        with self._tx() as db:
            cursor = db.execute(
                "UPDATE documents SET doc_index = ?, doc_type = ?, page_from = ?, page_to = ?,"
                " body = ?, match_key = ? WHERE id = ? AND job_id = ?",
                (*_document_columns(document), document.id, document.job_id),
            )
            if cursor.rowcount != 1:
                raise NotFound(
                    "document", document.id, f"job {document.job_id} has no document {document.id}"
                )
        return next(d for d in self.list_documents(document.job_id) if d.id == document.id)

    def archive_documents(self, job_id: int, documents: Sequence[Document], reason: str) -> None:
        at = _now().isoformat()
        with self._tx() as db:
            db.executemany(
                "INSERT INTO document_history (job_id, document_id, at, reason, body)"
                " VALUES (?,?,?,?,?)",
                [
                    (job_id, d.id, at, reason, json.dumps(d.as_dict(), ensure_ascii=False))
                    for d in documents
                ],
            )

    def document_history(self, job_id: int) -> list[dict[str, Any]]:
        rows = self._rows(
            "SELECT document_id, at, reason, body FROM document_history WHERE job_id = ?"
            " ORDER BY id",
            (job_id,),
        )
        return [
            {"document_id": r["document_id"], "at": r["at"], "reason": r["reason"],
             "document": json.loads(r["body"])}
            for r in rows
        ]  # fmt: skip

    def list_documents(self, job_id: int | None = None) -> list[Document]:
        sql = "SELECT * FROM documents"
        args: list[Any] = []
        if job_id is not None:
            sql += " WHERE job_id = ?"
            args.append(job_id)
        return _documents(self._rows(sql + " ORDER BY job_id, doc_index", args))

    def documents_matching(self, key: str) -> list[Document]:
        if not key:
            return []
        rows = self._rows("SELECT * FROM documents WHERE match_key = ? ORDER BY id", (key,))
        return _documents(rows)


def _documents(rows: Sequence[sqlite3.Row]) -> list[Document]:
    documents = []
    for r in rows:
        body = json.loads(r["body"])
        body.update(
            id=r["id"],
            job_id=r["job_id"],
            doc_index=r["doc_index"],
            doc_type=r["doc_type"],
            page_from=r["page_from"],
            page_to=r["page_to"],
        )
        documents.append(Document.from_body(body))
    return documents


def _key_documents(db: sqlite3.Connection) -> None:
    """Each document's ``match_key`` where it is not computed yet."""
    rows = db.execute("SELECT id, body FROM documents WHERE match_key IS NULL").fetchall()
    db.executemany(
        "UPDATE documents SET match_key = ? WHERE id = ?",
        [(match_key(json.loads(r["body"]).get("fields") or {}), r["id"]) for r in rows],
    )


def _document_columns(doc: Document) -> tuple[int, str, int, int, str, str]:
    """doc_index, doc_type, page_from, page_to, the JSON body of the rest and the
    likely-duplicate key."""
    body = doc.as_dict()
    for key in ("id", "job_id", "doc_index", "doc_type", "page_from", "page_to"):
        body.pop(key)
    return (
        doc.doc_index,
        doc.doc_type,
        doc.page_from,
        doc.page_to,
        json.dumps(body, ensure_ascii=False),
        match_key(doc.fields),
    )
