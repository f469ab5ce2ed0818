"""The embedded store: one SQLite file in WAL mode.

WAL lets the GUI read while the worker writes. Every state change is one
``BEGIN IMMEDIATE`` transaction that re-reads the stored state first, so two
processes on the same data directory cannot both claim or finish a job.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.models import (
    BatchRecord,
    Document,
    Job,
    NewJob,
    OcrRecord,
    Page,
    RequestRecord,
)
from docbatch_gui.domain.states import FAILURE_STATES, PHASE_OF, JobState, Phase, check_transition
from docbatch_gui.storage.store import JOB_FIELDS, check_attempt, check_expectations

MIGRATIONS: list[str] = [
    # 1: jobs, pages, documents, events, settings
    """
    CREATE TABLE jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        file_name TEXT NOT NULL,
        source_path TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        size INTEGER NOT NULL,
        mode TEXT NOT NULL,
        state TEXT NOT NULL,
        phase TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        deadline TEXT,
        error_kind TEXT,
        error TEXT,
        termination_confirmed INTEGER,
        artifacts_deliverable INTEGER NOT NULL DEFAULT 0,
        duplicate_of INTEGER REFERENCES jobs(id),
        pages INTEGER,
        documents INTEGER NOT NULL DEFAULT 0,
        progress REAL NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX jobs_state ON jobs(state);
    CREATE INDEX jobs_sha ON jobs(sha256);
    CREATE TABLE pages (
        job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        page_no INTEGER NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        image_sha TEXT,
        thumb_sha TEXT,
        text TEXT NOT NULL DEFAULT '',
        deliverable INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (job_id, page_no)
    );
    CREATE TABLE documents (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        doc_index INTEGER NOT NULL,
        doc_type TEXT NOT NULL,
        page_from INTEGER NOT NULL,
        page_to INTEGER NOT NULL,
        body TEXT NOT NULL,
        UNIQUE (job_id, doc_index)
    );
    CREATE TABLE job_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        from_state TEXT,
        to_state TEXT NOT NULL,
        phase TEXT,
        attempt INTEGER NOT NULL,
        detail TEXT
    );
    CREATE INDEX job_events_job ON job_events(job_id);
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # 2: cost per job; one row per Claude request group with its usage and answer
    """
    ALTER TABLE jobs ADD COLUMN cost_estimate_usd REAL;
    ALTER TABLE jobs ADD COLUMN cost_actual_usd REAL;
    CREATE TABLE requests (
        job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        custom_id TEXT NOT NULL,
        group_no INTEGER NOT NULL,
        body TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (job_id, custom_id)
    );
    """,
    # 3: Message Batches, from intent to results
    """
    CREATE TABLE batches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        batch_id TEXT UNIQUE,
        status TEXT NOT NULL,
        body TEXT NOT NULL
    );
    CREATE INDEX batches_status ON batches(status);
    """,
    # 4: OCR: per-page rotation and engine; the OCR cache by content, page and engine
    """
    ALTER TABLE pages ADD COLUMN rotation INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE pages ADD COLUMN rotation_confidence REAL NOT NULL DEFAULT 0;
    ALTER TABLE pages ADD COLUMN ocr_engine TEXT;
    ALTER TABLE pages ADD COLUMN ocr_cached INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE ocr_cache (
        sha256 TEXT NOT NULL,
        page_no INTEGER NOT NULL,
        engine TEXT NOT NULL,
        text TEXT NOT NULL,
        rotation INTEGER NOT NULL,
        rotation_confidence REAL NOT NULL,
        PRIMARY KEY (sha256, page_no, engine)
    );
    """,
]

_BOOL_FIELDS = {"termination_confirmed", "artifacts_deliverable"}


def _now() -> datetime:
    return datetime.now(UTC)


def _to_db(name: str, value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if name in _BOOL_FIELDS:
        return int(bool(value))
    if isinstance(value, (JobState, Phase, ErrorKind)):
        return value.value
    return value


def _parse_time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _row_to_batch(row: sqlite3.Row) -> BatchRecord:
    return BatchRecord(**json.loads(row["body"]), id=row["id"])


def _row_to_job(row: sqlite3.Row) -> Job:
    confirmed = row["termination_confirmed"]
    return Job(
        id=row["id"],
        file_name=row["file_name"],
        source_path=row["source_path"],
        sha256=row["sha256"],
        size=row["size"],
        mode=row["mode"],
        state=JobState(row["state"]),
        phase=Phase(row["phase"]) if row["phase"] else None,
        attempts=row["attempts"],
        deadline=_parse_time(row["deadline"]),
        error_kind=ErrorKind(row["error_kind"]) if row["error_kind"] else None,
        error=row["error"],
        termination_confirmed=None if confirmed is None else bool(confirmed),
        artifacts_deliverable=bool(row["artifacts_deliverable"]),
        duplicate_of=row["duplicate_of"],
        pages=row["pages"],
        documents=row["documents"],
        progress=row["progress"],
        cost_estimate_usd=row["cost_estimate_usd"],
        cost_actual_usd=row["cost_actual_usd"],
        created_at=_parse_time(row["created_at"]),
        updated_at=_parse_time(row["updated_at"]),
    )


class SQLiteStore:
    """Store on one SQLite file; safe to share between threads of one process."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(
            str(path), timeout=30, isolation_level=None, check_same_thread=False
        )
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._migrate()

    # -- infrastructure -------------------------------------------------------------

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

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

    @property
    def schema_version(self) -> int:
        with self._lock:
            return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- jobs -------------------------------------------------------------------------

    def create_job(self, new: NewJob) -> Job:
        now = _now().isoformat()
        with self._tx() as db:
            cursor = db.execute(
                "INSERT INTO jobs (file_name, source_path, sha256, size, mode, state, phase,"
                " duplicate_of, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (
                    new.file_name,
                    new.source_path,
                    new.sha256,
                    new.size,
                    new.mode,
                    JobState.QUEUED.value,
                    Phase.INTAKE.value,
                    new.duplicate_of,
                    now,
                    now,
                ),
            )
            job_id = int(cursor.lastrowid or 0)
            self._event(db, job_id, None, JobState.QUEUED, Phase.INTAKE, 0, "created")
            return self._get(db, job_id)

    def _get(self, db: sqlite3.Connection, job_id: int) -> Job:
        row = db.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None:
            raise KeyError(f"no job {job_id}")
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
        sql, args = "SELECT * FROM jobs", []
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
        with self._lock:
            return [_row_to_job(r) for r in self._db.execute(sql, args)]

    def find_original(self, sha256: str) -> Job | None:
        with self._lock:
            row = self._db.execute(
                "SELECT * FROM jobs WHERE sha256 = ? AND duplicate_of IS NULL"
                " AND state NOT IN (?, ?, ?) ORDER BY id LIMIT 1",
                (sha256, *sorted(FAILURE_STATES)),
            ).fetchone()
        return _row_to_job(row) if row else None

    def _write_fields(self, db: sqlite3.Connection, job_id: int, fields: dict[str, Any]) -> None:
        unknown = set(fields) - JOB_FIELDS - {"state"}
        if unknown:
            raise ValueError(f"unknown job fields: {sorted(unknown)}")
        fields = {**fields, "updated_at": _now()}
        assignments = ", ".join(f"{name} = ?" for name in fields)
        values = [_to_db(name, value) for name, value in fields.items()]
        db.execute(f"UPDATE jobs SET {assignments} WHERE id = ?", [*values, job_id])

    def transition(
        self,
        job_id: int,
        to: JobState,
        *,
        expected: JobState | Iterable[JobState] | None = None,
        attempt: int | None = None,
        **fields: Any,
    ) -> Job:
        to = JobState(to)
        with self._tx() as db:
            job = self._get(db, job_id)
            check_expectations(job, to, expected, attempt)
            fields.setdefault("phase", PHASE_OF.get(to, job.phase))
            if to is JobState.QUEUED:
                fields.setdefault("error_kind", None)
                fields.setdefault("error", None)
                fields.setdefault("termination_confirmed", None)
                fields.setdefault("progress", 0.0)
            self._write_fields(db, job_id, {**fields, "state": to})
            detail = fields.get("error") or None
            self._event(db, job_id, job.state, to, fields.get("phase"), job.attempts, detail)
            return self._get(db, job_id)

    def claim(self, job_id: int, to: JobState, *, deadline: datetime | None = None) -> Job | None:
        with self._tx() as db:
            job = self._get(db, job_id)
            if job.state is not JobState.QUEUED:
                return None
            check_transition(job.state, to, job_id)
            phase = PHASE_OF.get(to)
            self._write_fields(
                db,
                job_id,
                {"state": to, "phase": phase, "attempts": job.attempts + 1, "deadline": deadline},
            )
            self._event(db, job_id, job.state, to, phase, job.attempts + 1, "claimed")
            return self._get(db, job_id)

    def update_job(self, job_id: int, *, attempt: int | None = None, **fields: Any) -> Job:
        if "state" in fields:
            raise ValueError("use transition() to change the state")
        with self._tx() as db:
            job = self._get(db, job_id)
            check_attempt(job, attempt)
            self._write_fields(db, job_id, fields)
            return self._get(db, job_id)

    def _event(
        self,
        db: sqlite3.Connection,
        job_id: int,
        from_state: JobState | None,
        to_state: JobState,
        phase: Phase | str | None,
        attempt: int,
        detail: str | None,
    ) -> None:
        db.execute(
            "INSERT INTO job_events (job_id, at, from_state, to_state, phase, attempt, detail)"
            " VALUES (?,?,?,?,?,?,?)",
            (
                job_id,
                _now().isoformat(),
                _to_db("from", from_state),
                _to_db("to", to_state),
                _to_db("phase", phase),
                attempt,
                detail,
            ),
        )

    def job_events(self, job_id: int) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT at, from_state, to_state, phase, attempt, detail FROM job_events"
                " WHERE job_id = ? ORDER BY id",
                (job_id,),
            ).fetchall()
        return [dict(r) for r in rows]

    def delete_job(self, job_id: int) -> None:
        with self._tx() as db:
            db.execute("UPDATE jobs SET duplicate_of = NULL WHERE duplicate_of = ?", (job_id,))
            db.execute("DELETE FROM jobs WHERE id = ?", (job_id,))

    # -- pages ------------------------------------------------------------------------

    def put_pages(self, pages: Sequence[Page]) -> None:
        with self._tx() as db:
            db.executemany(
                "INSERT OR REPLACE INTO pages (job_id, page_no, width, height, image_sha,"
                " thumb_sha, text, deliverable, rotation, rotation_confidence, ocr_engine,"
                " ocr_cached) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                [
                    (
                        p.job_id,
                        p.page_no,
                        p.width,
                        p.height,
                        p.image_sha,
                        p.thumb_sha,
                        p.text,
                        int(p.deliverable),
                        p.rotation,
                        p.rotation_confidence,
                        p.ocr_engine,
                        int(p.ocr_cached),
                    )
                    for p in pages
                ],
            )

    def list_pages(self, job_id: int) -> list[Page]:
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM pages WHERE job_id = ? ORDER BY page_no", (job_id,)
            ).fetchall()
        return [
            Page(
                job_id=r["job_id"],
                page_no=r["page_no"],
                width=r["width"],
                height=r["height"],
                image_sha=r["image_sha"],
                thumb_sha=r["thumb_sha"],
                text=r["text"],
                deliverable=bool(r["deliverable"]),
                rotation=r["rotation"],
                rotation_confidence=r["rotation_confidence"],
                ocr_engine=r["ocr_engine"],
                ocr_cached=bool(r["ocr_cached"]),
            )
            for r in rows
        ]

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
                body = doc.as_dict()
                for key in ("id", "job_id", "doc_index", "doc_type", "page_from", "page_to"):
                    body.pop(key)
                db.execute(
                    "INSERT INTO documents (job_id, doc_index, doc_type, page_from, page_to, body)"
                    " VALUES (?,?,?,?,?,?)",
                    (
                        job_id,
                        doc.doc_index,
                        doc.doc_type,
                        doc.page_from,
                        doc.page_to,
                        json.dumps(body, ensure_ascii=False),
                    ),
                )
            self._write_fields(db, job_id, {"documents": len(documents)})
        return self.list_documents(job_id)

    def list_documents(self, job_id: int | None = None) -> list[Document]:
        sql = "SELECT * FROM documents"
        args: list[Any] = []
        if job_id is not None:
            sql += " WHERE job_id = ?"
            args.append(job_id)
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY job_id, doc_index", args).fetchall()
        documents = []
        for r in rows:
            body = json.loads(r["body"])
            documents.append(
                Document(
                    id=r["id"],
                    job_id=r["job_id"],
                    doc_index=r["doc_index"],
                    doc_type=r["doc_type"],
                    page_from=r["page_from"],
                    page_to=r["page_to"],
                    **body,
                )
            )
        return documents

    # -- Claude requests ---------------------------------------------------------------

    def save_request(self, record: RequestRecord) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO requests (job_id, custom_id, group_no, body, updated_at)"
                " VALUES (?,?,?,?,?) ON CONFLICT(job_id, custom_id) DO UPDATE SET"
                " group_no = excluded.group_no, body = excluded.body,"
                " updated_at = excluded.updated_at",
                (
                    record.job_id,
                    record.custom_id,
                    record.group,
                    json.dumps(record.body(), ensure_ascii=False),
                    _now().isoformat(),
                ),
            )

    def list_requests(self, job_id: int) -> list[RequestRecord]:
        with self._lock:
            rows = self._db.execute(
                "SELECT body FROM requests WHERE job_id = ? ORDER BY group_no", (job_id,)
            ).fetchall()
        return [RequestRecord.from_body(json.loads(r["body"])) for r in rows]

    # -- batches ------------------------------------------------------------------------

    def create_batch(self, record: BatchRecord) -> BatchRecord:
        with self._tx() as db:
            cursor = db.execute(
                "INSERT INTO batches (batch_id, status, body) VALUES (?,?,?)",
                (record.batch_id, record.status, json.dumps(record.body())),
            )
            return replace(record, id=int(cursor.lastrowid or 0))

    def update_batch(self, local_id: int, **fields: Any) -> BatchRecord:
        with self._tx() as db:
            row = db.execute("SELECT * FROM batches WHERE id = ?", (local_id,)).fetchone()
            if row is None:
                raise KeyError(f"no batch {local_id}")
            record = replace(_row_to_batch(row), **fields)
            db.execute(
                "UPDATE batches SET batch_id = ?, status = ?, body = ? WHERE id = ?",
                (record.batch_id, record.status, json.dumps(record.body()), local_id),
            )
            return record

    def list_batches(self, statuses: Iterable[str] | None = None) -> list[BatchRecord]:
        sql, args = "SELECT * FROM batches", []
        if statuses is not None:
            values = list(statuses)
            sql += f" WHERE status IN ({','.join('?' * len(values))})"
            args = values
        with self._lock:
            return [_row_to_batch(r) for r in self._db.execute(sql + " ORDER BY id", args)]

    # -- OCR cache ----------------------------------------------------------------------

    def put_ocr(self, record: OcrRecord) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT OR REPLACE INTO ocr_cache (sha256, page_no, engine, text, rotation,"
                " rotation_confidence) VALUES (?,?,?,?,?,?)",
                (
                    record.sha256,
                    record.page_no,
                    record.engine,
                    record.text,
                    record.rotation,
                    record.rotation_confidence,
                ),
            )

    def get_ocr(self, sha256: str, engine: str) -> dict[int, OcrRecord]:
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM ocr_cache WHERE sha256 = ? AND engine = ?", (sha256, engine)
            ).fetchall()
        return {
            r["page_no"]: OcrRecord(
                r["sha256"],
                r["page_no"],
                r["engine"],
                r["text"],
                r["rotation"],
                r["rotation_confidence"],
            )
            for r in rows
        }

    # -- settings ---------------------------------------------------------------------

    def get_setting(self, key: str, default: Any = None) -> Any:
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return json.loads(row["value"]) if row else default

    def set_setting(self, key: str, value: Any) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?)"
                " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, json.dumps(value)),
            )
