"""SQLite table of confirmed counterparties: one row per confirmed document.

A mixin of ``SQLiteStore``: it uses the store's connection, lock and transaction.
The document id is the key, so confirming a document again replaces its row (an INN
corrected in between moves it to the right seller). ``fields`` is its own column so
that values older than the ones kept are dropped with one UPDATE.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from docbatch_gui.domain.counterparty import (
    ConfirmedDocument,
    Counterparty,
    summarise,
    summarise_all,
)
from docbatch_gui.domain.errors import NotFound
from docbatch_gui.storage.sqlite_tables import SQLiteTables
from docbatch_gui.storage.store import stored_id

_COLUMNS = ("document_id", "inn", "confirmed_at", "fields")
_TAUGHT_NOTHING = "no confirmed document {} is remembered of any seller"


def _row_to_entry(row: sqlite3.Row) -> ConfirmedDocument:
    body: dict[str, Any] = json.loads(row["body"])
    fields = json.loads(row["fields"]) if row["fields"] is not None else None
    return ConfirmedDocument.from_body(
        {**body, "document_id": row["document_id"], "inn": row["inn"],
         "confirmed_at": row["confirmed_at"], "fields": fields}
    )  # fmt: skip


class CounterpartyTables(SQLiteTables):
    def remember_confirmed(self, entry: ConfirmedDocument, *, keep: int) -> None:
        body = {k: v for k, v in entry.body().items() if k not in _COLUMNS}
        fields = json.dumps(entry.fields, ensure_ascii=False) if entry.fields is not None else None
        with self._tx() as db:
            db.execute(
                "INSERT OR REPLACE INTO counterparty_documents"
                " (document_id, inn, confirmed_at, fields, body) VALUES (?,?,?,?,?)",
                (
                    entry.document_id,
                    entry.inn,
                    entry.confirmed_at,
                    fields,
                    json.dumps(body, ensure_ascii=False),
                ),
            )
            db.execute(
                "UPDATE counterparty_documents SET fields = NULL WHERE inn = ?"
                " AND fields IS NOT NULL AND document_id NOT IN (SELECT document_id"
                " FROM counterparty_documents WHERE inn = ? AND fields IS NOT NULL"
                " ORDER BY confirmed_at DESC, document_id DESC LIMIT ?)",
                (entry.inn, entry.inn, max(0, keep)),
            )

    def counterparty(self, inn: str) -> Counterparty | None:
        rows = self._rows("SELECT * FROM counterparty_documents WHERE inn = ?", (inn,))
        return summarise(inn, [_row_to_entry(r) for r in rows])

    def list_counterparties(self) -> list[Counterparty]:
        rows = self._rows("SELECT * FROM counterparty_documents")
        return summarise_all([_row_to_entry(r) for r in rows])

    def forget_counterparty(self, inn: str) -> int:
        with self._tx() as db:
            cursor = db.execute("DELETE FROM counterparty_documents WHERE inn = ?", (inn,))
        if cursor.rowcount == 0:
            raise NotFound("counterparty", inn, f"no counterparty with INN {inn} is remembered")
        return cursor.rowcount

    def forget_confirmed_document(self, document_id: int) -> str:
        with self._tx() as db:
            row = db.execute(
                "DELETE FROM counterparty_documents WHERE document_id = ? RETURNING inn",
                (stored_id("document", document_id),),
            ).fetchone()
        if row is None:
            raise NotFound("document", document_id, _TAUGHT_NOTHING.format(document_id))
        return str(row["inn"])
