"""SQLite tables of the registry: registries, rows, samples, results, audit.

A mixin of ``SQLiteStore``: it uses the store's connection, lock and transaction.
Row views and result details are JSON text; the columns that are filtered or joined
on (row number, document id, score, manual flag) are real columns.
"""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from docbatch_gui.domain.errors import NotFound
from docbatch_gui.domain.registry import (
    Assignment,
    FilteredRowRecord,
    Registry,
    RegistryRowRecord,
    RegistryStatus,
    SearchResult,
    manual_result,
)
from docbatch_gui.storage.row_json import EncodedRow, dumps, encode_record
from docbatch_gui.storage.sqlite_records import now_utc
from docbatch_gui.storage.sqlite_tables import SQLiteTables
from docbatch_gui.storage.store import registry_columns, stored_id

#: parameters of one INSERT of registry rows: 100 rows, under the 999 of old SQLite builds
_INSERT_VALUES = 500


@functools.cache
def _insert_rows(count: int) -> str:
    """One statement for ``count`` rows: executemany gives up and takes back the
    interpreter lock around every row it steps, and an import's writing thread then
    waits for the parsing one 100,000 times; this steps once per hundred rows."""
    return (
        "INSERT OR REPLACE INTO registry_rows (registry_id, row_no, raw_data, mapped_data,"
        " normalized) VALUES " + ",".join(["(?,?,?,?,?)"] * count)
    )


def _row_to_registry(row: sqlite3.Row) -> Registry:
    return Registry.from_stored(dict(row), json.loads(row["config"]), json.loads(row["stats"]))


def _result_body(result: SearchResult) -> str:
    body = result.body()
    for key in ("row", "document_id", "score", "manual"):
        body.pop(key)
    return dumps(body)


def _row_to_result(row: sqlite3.Row) -> SearchResult:
    return SearchResult.from_body(
        {
            "row": row["row_no"],
            "document_id": row["document_id"],
            "score": row["score"],
            "manual": bool(row["manual"]),
            **json.loads(row["body"]),
        }
    )


class RegistryTables(SQLiteTables):
    def _registry(self, db: sqlite3.Connection, registry_id: int) -> Registry:
        row = db.execute(
            "SELECT * FROM registries WHERE id = ?", (stored_id("registry", registry_id),)
        ).fetchone()
        if row is None:
            raise NotFound("registry", registry_id)
        return _row_to_registry(row)

    # -- registries ---------------------------------------------------------------------

    def create_registry(
        self,
        name: str,
        source_file: str,
        config: dict[str, Any],
        *,
        staging: bool = False,
        task_owner: str | None = None,
    ) -> Registry:
        now = now_utc().isoformat()
        status = RegistryStatus.STAGING if staging else RegistryStatus.IMPORTING
        with self._tx() as db:
            cursor = db.execute(
                "INSERT INTO registries (name, source_file, config, status, created_at,"
                " updated_at, task_owner) VALUES (?,?,?,?,?,?,?)",
                (name, source_file, dumps(config), status.value, now, now, task_owner),
            )
            return self._registry(db, int(cursor.lastrowid or 0))

    def swap_registry_data(self, registry_id: int, staging_id: int, **fields: Any) -> Registry:
        """One transaction: the staging copy's rows and filtered rows become the
        registry's, its old rows and results go, ``fields`` are set, the copy is gone.
        A kill at any point leaves either the old registry or the new one, whole."""
        values = registry_columns(fields, dumps)
        with self._tx() as db:
            self._registry(db, registry_id)
            if self._registry(db, staging_id).status is not RegistryStatus.STAGING:
                raise ValueError(f"registry {staging_id} is not a staging copy")
            for table in ("registry_rows", "registry_filtered", "registry_results"):
                db.execute(f"DELETE FROM {table} WHERE registry_id = ?", (registry_id,))
            for table in ("registry_rows", "registry_filtered"):
                db.execute(
                    f"UPDATE {table} SET registry_id = ? WHERE registry_id = ?",
                    (registry_id, staging_id),
                )
            assignments = ", ".join(f"{name} = ?" for name in values)
            db.execute(
                f"UPDATE registries SET {assignments} WHERE id = ?", [*values.values(), registry_id]
            )
            db.execute("DELETE FROM registries WHERE id = ?", (staging_id,))
            return self._registry(db, registry_id)

    def get_registry(self, registry_id: int) -> Registry:
        with self._lock:
            return self._registry(self._db, registry_id)

    def list_registries(self, *, staging: bool = False) -> list[Registry]:
        """Registries in id order; staging copies only when asked for."""
        sql = "SELECT * FROM registries" + ("" if staging else " WHERE status != 'staging'")
        rows = self._rows(sql + " ORDER BY id")
        return [_row_to_registry(r) for r in rows]

    def find_registry(self, source_file: str) -> Registry | None:
        row = self._row(
            "SELECT * FROM registries WHERE source_file = ? AND status != 'staging'"
            " ORDER BY id DESC LIMIT 1",
            (source_file,),
        )
        return _row_to_registry(row) if row else None

    def update_registry(self, registry_id: int, **fields: Any) -> Registry:
        values = registry_columns(fields, dumps)
        with self._tx() as db:
            self._registry(db, registry_id)
            assignments = ", ".join(f"{name} = ?" for name in values)
            db.execute(
                f"UPDATE registries SET {assignments} WHERE id = ?", [*values.values(), registry_id]
            )
            return self._registry(db, registry_id)

    def delete_registry(self, registry_id: int) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM registries WHERE id = ?", (registry_id,))

    def clear_registry_data(self, registry_id: int) -> None:
        with self._tx() as db:
            for table in ("registry_rows", "registry_filtered", "registry_results"):
                db.execute(f"DELETE FROM {table} WHERE registry_id = ?", (registry_id,))

    # -- rows ---------------------------------------------------------------------------

    def add_registry_rows(self, registry_id: int, rows: Sequence[RegistryRowRecord]) -> None:
        self.add_encoded_registry_rows(registry_id, [encode_record(r) for r in rows])

    def add_encoded_registry_rows(self, registry_id: int, rows: Sequence[EncodedRow]) -> None:
        # Flattened before the transaction: the lock is held for the writing only.
        values = [value for r in rows for value in (registry_id, *r)]
        with self._tx() as db:
            for start in range(0, len(values), _INSERT_VALUES):
                part = values[start : start + _INSERT_VALUES]
                db.execute(_insert_rows(len(part) // 5), part)

    def list_registry_rows(
        self, registry_id: int, *, offset: int = 0, limit: int | None = None
    ) -> list[RegistryRowRecord]:
        rows = self._rows(
            "SELECT * FROM registry_rows WHERE registry_id = ? ORDER BY row_no LIMIT ? OFFSET ?",
            (registry_id, -1 if limit is None else limit, offset),
        )
        return [
            RegistryRowRecord(
                row=r["row_no"],
                raw_data=json.loads(r["raw_data"]),
                mapped_data=json.loads(r["mapped_data"]),
                normalized=json.loads(r["normalized"]),
            )
            for r in rows
        ]

    def count_registry_rows(self, registry_id: int) -> int:
        return int(
            self._value("SELECT COUNT(*) FROM registry_rows WHERE registry_id = ?", (registry_id,))
        )

    def set_filtered_rows(self, registry_id: int, rows: Sequence[FilteredRowRecord]) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM registry_filtered WHERE registry_id = ?", (registry_id,))
            db.executemany(
                "INSERT INTO registry_filtered (registry_id, row_no, reason, body)"
                " VALUES (?,?,?,?)",
                [
                    (registry_id, r.row, r.reason, dumps({"values": r.values, "detail": r.detail}))
                    for r in rows
                ],
            )

    def list_filtered_rows(self, registry_id: int) -> list[FilteredRowRecord]:
        rows = self._rows(
            "SELECT * FROM registry_filtered WHERE registry_id = ? ORDER BY row_no", (registry_id,)
        )
        return [
            FilteredRowRecord(row=r["row_no"], reason=r["reason"], **json.loads(r["body"]))
            for r in rows
        ]

    # -- results ------------------------------------------------------------------------

    def clear_results(self, registry_id: int, *, keep_manual: bool = True) -> None:
        sql = "DELETE FROM registry_results WHERE registry_id = ?"
        with self._tx() as db:
            db.execute(sql + (" AND manual = 0" if keep_manual else ""), (registry_id,))

    def put_results(self, registry_id: int, results: Sequence[SearchResult]) -> None:
        with self._tx() as db:
            db.executemany(
                "INSERT OR REPLACE INTO registry_results (registry_id, row_no, document_id,"
                " score, manual, body) VALUES (?,?,?,?,?,?)",
                [
                    (registry_id, r.row, r.document_id, r.score, int(r.manual), _result_body(r))
                    for r in results
                ],
            )

    def list_results(self, registry_id: int) -> list[SearchResult]:
        rows = self._rows(
            "SELECT * FROM registry_results WHERE registry_id = ? ORDER BY row_no", (registry_id,)
        )
        return [_row_to_result(r) for r in rows]

    def count_results(self, registry_id: int) -> int:
        return int(
            self._value(
                "SELECT COUNT(*) FROM registry_results WHERE registry_id = ?", (registry_id,)
            )
        )

    def assign(self, registry_id: int, row: int, document_id: int | None, who: str) -> SearchResult:
        at = now_utc().isoformat()
        with self._tx() as db:
            self._registry(db, registry_id)  # "no registry N" before "no row"
            exists = db.execute(
                "SELECT 1 FROM registry_rows WHERE registry_id = ? AND row_no = ?",
                (registry_id, row),
            ).fetchone()
            if exists is None:
                raise NotFound("row", row, f"registry {registry_id} has no row {row}")
            old = db.execute(
                "SELECT * FROM registry_results WHERE registry_id = ? AND row_no = ?",
                (registry_id, row),
            ).fetchone()
            previous = _row_to_result(old) if old else None
            result = manual_result(row, document_id, who, at, previous)
            db.execute(
                "INSERT OR REPLACE INTO registry_results (registry_id, row_no, document_id,"
                " score, manual, body) VALUES (?,?,?,?,?,?)",
                (registry_id, row, document_id, result.score, 1, _result_body(result)),
            )
            db.execute(
                "INSERT INTO registry_assignments (registry_id, row_no, document_id,"
                " previous_document_id, who, at) VALUES (?,?,?,?,?,?)",
                (registry_id, row, document_id, previous and previous.document_id, who, at),
            )
            return result

    def list_assignments(self, registry_id: int) -> list[Assignment]:
        rows = self._rows(
            "SELECT * FROM registry_assignments WHERE registry_id = ? ORDER BY id", (registry_id,)
        )
        return [
            Assignment(
                row=r["row_no"],
                document_id=r["document_id"],
                previous_document_id=r["previous_document_id"],
                who=r["who"],
                at=r["at"],
            )
            for r in rows
        ]
