"""MongoDB collection of confirmed counterparties: one document per confirmed document.

A mixin of ``MongoStore``, the counterpart of ``sqlite_counterparties``. The
document id is ``_id``, so a second confirmation replaces the first (one
``replace_one`` with upsert, atomic on its own); keys are field names of the profile
(``[a-z][a-z0-9_]*``), never the operator's text, so they are safe as MongoDB keys.
"""

from __future__ import annotations

from typing import Any

from pymongo import ASCENDING, DESCENDING

from docbatch_gui.domain.counterparty import (
    ConfirmedDocument,
    Counterparty,
    summarise,
    summarise_all,
)
from docbatch_gui.domain.errors import NotFound
from docbatch_gui.storage.mongo_records import MongoTables
from docbatch_gui.storage.store import stored_id

_NEWEST = [("confirmed_at", DESCENDING), ("_id", DESCENDING)]


def _to_entry(doc: dict[str, Any]) -> ConfirmedDocument:
    return ConfirmedDocument.from_body({**doc, "document_id": doc["_id"]})


class MongoCounterparties(MongoTables):
    def _counterparty_indexes(self) -> None:
        self.db.counterparty_documents.create_index(
            [("inn", ASCENDING), ("confirmed_at", ASCENDING)]
        )

    def remember_confirmed(self, entry: ConfirmedDocument, *, keep: int) -> None:
        body = {k: v for k, v in entry.body().items() if k != "document_id"}
        collection = self.db.counterparty_documents
        collection.replace_one({"_id": entry.document_id}, body, upsert=True)
        kept = collection.find(
            {"inn": entry.inn, "fields": {"$ne": None}}, {"_id": 1}, sort=_NEWEST
        )
        older = [d["_id"] for d in kept.skip(max(0, keep))]
        if older:
            collection.update_many({"_id": {"$in": older}}, {"$set": {"fields": None}})

    def counterparty(self, inn: str) -> Counterparty | None:
        found = self.db.counterparty_documents.find({"inn": inn})
        return summarise(inn, [_to_entry(d) for d in found])

    def list_counterparties(self) -> list[Counterparty]:
        return summarise_all([_to_entry(d) for d in self.db.counterparty_documents.find()])

    def forget_counterparty(self, inn: str) -> int:
        removed = self.db.counterparty_documents.delete_many({"inn": inn}).deleted_count
        if removed == 0:
            raise NotFound("counterparty", inn, f"no counterparty with INN {inn} is remembered")
        return removed

    def forget_confirmed_document(self, document_id: int) -> str:
        found = self.db.counterparty_documents.find_one_and_delete(
            {"_id": stored_id("document", int(document_id))}
        )
        if found is None:
            raise NotFound(
                "document", document_id, f"no confirmed document {document_id} is remembered"
            )
        return str(found["inn"])
