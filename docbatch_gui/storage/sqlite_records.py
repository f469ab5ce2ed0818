"""SQLite tables beside the jobs: Claude requests, batches, the OCR cache, settings.

A mixin of ``SQLiteStore``: it uses the store's connection, lock and transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import fields, replace
from datetime import UTC, datetime
from typing import Any

from docbatch_gui.domain.errors import NotFound
from docbatch_gui.domain.models import BatchRecord, OcrRecord, RequestRecord
from docbatch_gui.storage.notes import OCR_NOTES, note_fields, notes_of
from docbatch_gui.storage.sqlite_tables import SQLiteTables
from docbatch_gui.storage.store import spend_growth, utc_text


def now_utc() -> datetime:
    return datetime.now(UTC)


def _ocr_record(row: sqlite3.Row) -> OcrRecord:
    values = {f.name: row[f.name] for f in fields(OcrRecord)}
    values["orientation_uncertain"] = bool(values["orientation_uncertain"])
    values.update(notes_of(dict(zip(row.keys(), tuple(row), strict=True)), OCR_NOTES))
    return OcrRecord(**values)


def _row_to_batch(row: sqlite3.Row) -> BatchRecord:
    return BatchRecord(**json.loads(row["body"]), id=row["id"])


class RecordTables(SQLiteTables):
    # -- Claude requests ---------------------------------------------------------------

    def save_request(self, record: RequestRecord) -> None:
        with self._tx() as db:
            self._write_request(db, record)

    def _write_request(self, db: sqlite3.Connection, record: RequestRecord) -> None:
        """Save one request record inside the caller's transaction; a cost that grew
        goes to the spend ledger in the same transaction."""
        row = db.execute(
            "SELECT json_extract(body, '$.cost_usd') AS cost FROM requests"
            " WHERE job_id = ? AND custom_id = ?",
            (record.job_id, record.custom_id),
        ).fetchone()
        grown = spend_growth(row["cost"] if row else None, record.cost_usd)
        if grown:
            db.execute(
                "INSERT INTO spend (at, usd, job_id, ref) VALUES (?,?,?,?)",
                (now_utc().isoformat(), grown, record.job_id, record.custom_id),
            )
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
                now_utc().isoformat(),
            ),
        )

    def list_requests(self, job_id: int) -> list[RequestRecord]:
        rows = self._rows("SELECT body FROM requests WHERE job_id = ? ORDER BY group_no", (job_id,))
        return [RequestRecord.from_body(json.loads(r["body"])) for r in rows]

    # -- the spend ledger -----------------------------------------------------------------

    def record_spend(
        self, usd: float, *, at: datetime | None = None, job_id: int | None = None, ref: str = ""
    ) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO spend (at, usd, job_id, ref) VALUES (?,?,?,?)",
                ((at or now_utc()).astimezone(UTC).isoformat(), float(usd), job_id, ref),
            )

    def spent_between(self, start: datetime, end: datetime | None = None) -> float:
        sql, args = "SELECT COALESCE(SUM(usd), 0) FROM spend WHERE at >= ?", [utc_text(start)]
        if end is not None:
            sql += " AND at < ?"
            args.append(utc_text(end))
        return round(float(self._value(sql, args)), 6)

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
                raise NotFound("batch", local_id)
            record = replace(_row_to_batch(row), **fields)
            db.execute(
                "UPDATE batches SET batch_id = ?, status = ?, body = ? WHERE id = ?",
                (record.batch_id, record.status, json.dumps(record.body()), local_id),
            )
            if record.status != "intent":  # created, or given up: its jobs are free
                db.execute("DELETE FROM intent_jobs WHERE batch = ?", (local_id,))
            return record

    def list_batches(self, statuses: Iterable[str] | None = None) -> list[BatchRecord]:
        sql, args = "SELECT * FROM batches", []
        if statuses is not None:
            values = list(statuses)
            sql += f" WHERE status IN ({','.join('?' * len(values))})"
            args = values
        return [_row_to_batch(r) for r in self._rows(sql + " ORDER BY id", args)]

    # -- OCR cache ----------------------------------------------------------------------

    def put_ocr(self, record: OcrRecord) -> None:
        values = {f.name: getattr(record, f.name) for f in fields(OcrRecord)}
        values.update(note_fields(record, OCR_NOTES, as_json=True))
        values["orientation_uncertain"] = int(record.orientation_uncertain)
        with self._tx() as db:
            db.execute(
                f"INSERT OR REPLACE INTO ocr_cache ({', '.join(values)})"
                f" VALUES ({','.join('?' * len(values))})",
                tuple(values.values()),
            )

    def get_ocr(self, sha256: str, engine: str) -> dict[int, OcrRecord]:
        rows = self._rows(
            "SELECT * FROM ocr_cache WHERE sha256 = ? AND engine = ?", (sha256, engine)
        )
        return {r["page_no"]: _ocr_record(r) for r in rows}

    # -- settings ---------------------------------------------------------------------

    def get_setting(self, key: str, default: Any = None) -> Any:
        row = self._row("SELECT value FROM settings WHERE key = ?", (key,))
        return json.loads(row["value"]) if row else default

    def set_setting(self, key: str, value: Any) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?)"
                " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, json.dumps(value)),
            )

    def mail_taken(self, key: str) -> dict[str, Any] | None:
        row = self._row("SELECT body FROM mail_taken WHERE key = ?", (key,))
        return json.loads(row["body"]) if row else None

    def remember_mail(self, key: str, body: dict[str, Any]) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO mail_taken (key, at, body) VALUES (?, ?, ?)"
                " ON CONFLICT(key) DO UPDATE SET body = excluded.body",
                (key, now_utc().isoformat(), json.dumps(body, ensure_ascii=False, default=str)),
            )
