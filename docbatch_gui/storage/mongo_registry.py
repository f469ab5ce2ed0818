"""MongoDB collections of the registry: registries, rows, samples, results, audit.

A mixin of ``MongoStore``, the counterpart of ``sqlite_registry.RegistryTables``.
Callers write rows (500 at a time) and results (200 at a time) in chunks; each chunk
is one ``bulk_write`` of upserts keyed by the unique ``(registry_id, row)`` index, so a
chunk costs one round trip and a re-run replaces instead of duplicating.

Rows, filtered rows and results live under the registry's ``data_id`` (its own id
until a re-import): a re-import writes a staging copy under its own id, and the swap
is one atomic update of the registry's ``data_id``, so a kill leaves either the old
rows or the new ones, whole. Rows no registry points at are swept away.

Row views are keyed by spreadsheet headers, which may hold ``.`` or start with ``$``
("Сумма, руб."): MongoDB reads such names as paths and operators. They are kept as
``[key, value]`` pairs, which also keeps the column order the operator sees.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pymongo import ASCENDING, DESCENDING, ReplaceOne

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
from docbatch_gui.storage.mongo_records import MongoTables, now_iso
from docbatch_gui.storage.row_json import EncodedRow
from docbatch_gui.storage.store import registry_columns, stored_id

_ROW_VIEWS = ("raw_data", "mapped_data", "normalized")
_KEY = [("registry_id", ASCENDING), ("row", ASCENDING)]


def _pairs(mapping: dict[str, Any]) -> list[list[Any]]:
    return [[key, value] for key, value in mapping.items()]


def _mapping(pairs: list[list[Any]]) -> dict[str, Any]:
    return {key: value for key, value in pairs}


def _to_registry(doc: dict[str, Any]) -> Registry:
    config, stats = _mapping(doc["config"]), _mapping(doc.get("stats", []))
    return Registry.from_stored({**doc, "id": doc["_id"]}, config, stats)


def _result_doc(registry_id: int, result: SearchResult) -> dict[str, Any]:
    body = result.body()
    body["explanation"] = [_pairs(step) for step in result.explanation]
    return {"registry_id": registry_id, **body}


def _to_result(doc: dict[str, Any]) -> SearchResult:
    body = {k: v for k, v in doc.items() if k not in ("_id", "registry_id")}
    body["explanation"] = [_mapping(step) for step in body.get("explanation", [])]
    return SearchResult.from_body(body)


class MongoRegistry(MongoTables):
    def _registry_indexes(self) -> None:
        """Unique per (registry, row) where the contract replaces by row."""
        self.db.registries.create_index([("source_file", ASCENDING), ("_id", DESCENDING)])
        for name in ("registry_rows", "registry_filtered", "registry_results"):
            self.db[name].create_index(_KEY, unique=True)
        self.db.registry_assignments.create_index([("registry_id", ASCENDING)])

    def _registry_doc(self, registry_id: int) -> dict[str, Any]:
        doc = self.db.registries.find_one({"_id": stored_id("registry", int(registry_id))})
        if doc is None:
            raise NotFound("registry", registry_id)
        return doc

    def _data_id(self, registry_id: int) -> int:
        """Where the registry's rows and results are kept (see the module docstring)."""
        doc = self.db.registries.find_one({"_id": int(registry_id)}, {"data_id": 1})
        return int(doc.get("data_id", registry_id)) if doc else int(registry_id)

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
        self._sweep_orphan_rows()
        now = now_iso()
        status = RegistryStatus.STAGING if staging else RegistryStatus.IMPORTING
        registry_id = self._next_ids("registries")
        doc = {
            "_id": registry_id,
            "data_id": registry_id,
            "name": name,
            "source_file": source_file,
            "config": _pairs(config),  # its keys are the operator's too (mapping names)
            "status": status.value,
            "task_error": None,
            "stats": [],
            "created_at": now,
            "updated_at": now,
            "task_owner": task_owner,
        }
        self.db.registries.insert_one(doc)
        return _to_registry(doc)

    def swap_registry_data(self, registry_id: int, staging_id: int, **fields: Any) -> Registry:
        """The staging copy's rows become the registry's in one atomic update of its
        ``data_id``; the old rows and results, and the copy, are removed after."""
        staging = self._registry_doc(staging_id)
        if staging["status"] != RegistryStatus.STAGING.value:
            raise ValueError(f"registry {staging_id} is not a staging copy")
        old_data = self._data_id(registry_id)
        values = registry_columns(fields, _pairs)
        values["data_id"] = int(staging.get("data_id", staging_id))
        self.db.registries.update_one({"_id": int(registry_id)}, {"$set": values})
        self.db.registries.delete_one({"_id": int(staging_id)})
        self._clear_data(old_data)
        return self.get_registry(registry_id)

    def _sweep_orphan_rows(self) -> None:
        """Rows a kill left behind: under a data id no registry points at any more."""
        live = {
            int(d.get("data_id", d["_id"])) for d in self.db.registries.find({}, {"data_id": 1})
        }
        for name in ("registry_rows", "registry_filtered", "registry_results"):
            orphans = [i for i in self.db[name].distinct("registry_id") if int(i) not in live]
            if orphans:
                self.db[name].delete_many({"registry_id": {"$in": orphans}})

    def get_registry(self, registry_id: int) -> Registry:
        return _to_registry(self._registry_doc(registry_id))

    def list_registries(self, *, staging: bool = False) -> list[Registry]:
        query = {} if staging else {"status": {"$ne": RegistryStatus.STAGING.value}}
        return [_to_registry(d) for d in self.db.registries.find(query).sort("_id", ASCENDING)]

    def find_registry(self, source_file: str) -> Registry | None:
        query = {"source_file": source_file, "status": {"$ne": RegistryStatus.STAGING.value}}
        found = list(self.db.registries.find(query).sort("_id", DESCENDING).limit(1))
        return _to_registry(found[0]) if found else None

    def update_registry(self, registry_id: int, **fields: Any) -> Registry:
        values = registry_columns(fields, _pairs)
        self._registry_doc(registry_id)
        self.db.registries.update_one({"_id": int(registry_id)}, {"$set": values})
        return self.get_registry(registry_id)

    def delete_registry(self, registry_id: int) -> None:
        """Everything of the registry, audit trail included (SQLite cascades alike)."""
        registry_id = int(registry_id)
        self.clear_registry_data(registry_id)
        self.db.registry_assignments.delete_many({"registry_id": registry_id})
        self.db.registries.delete_one({"_id": registry_id})

    def clear_registry_data(self, registry_id: int) -> None:
        self._clear_data(self._data_id(registry_id))

    def _clear_data(self, data_id: int) -> None:
        for name in ("registry_rows", "registry_filtered", "registry_results"):
            self.db[name].delete_many({"registry_id": int(data_id)})

    # -- rows ---------------------------------------------------------------------------

    def add_registry_rows(self, registry_id: int, rows: Sequence[RegistryRowRecord]) -> None:
        if not rows:
            return
        registry_id = self._data_id(registry_id)
        self.db.registry_rows.bulk_write(
            [
                ReplaceOne(
                    {"registry_id": registry_id, "row": r.row},
                    {
                        "registry_id": registry_id,
                        "row": r.row,
                        **{view: _pairs(getattr(r, view)) for view in _ROW_VIEWS},
                    },
                    upsert=True,
                )
                for r in rows
            ],
            ordered=False,
        )

    def add_encoded_registry_rows(self, registry_id: int, rows: Sequence[EncodedRow]) -> None:
        self.add_registry_rows(
            registry_id,
            [RegistryRowRecord(r, json.loads(raw), json.loads(mapped), json.loads(normalized))
             for r, raw, mapped, normalized in rows],
        )  # fmt: skip

    def list_registry_rows(
        self, registry_id: int, *, offset: int = 0, limit: int | None = None
    ) -> list[RegistryRowRecord]:
        cursor = (
            self.db.registry_rows.find({"registry_id": self._data_id(registry_id)}, {"_id": 0})
            .sort("row", ASCENDING)
            .skip(int(offset))
        )
        if limit is not None:
            cursor = cursor.limit(int(limit))
        return [
            RegistryRowRecord(row=d["row"], **{view: _mapping(d[view]) for view in _ROW_VIEWS})
            for d in cursor
        ]

    def count_registry_rows(self, registry_id: int) -> int:
        query = {"registry_id": self._data_id(registry_id)}
        return int(self.db.registry_rows.count_documents(query))

    def set_filtered_rows(self, registry_id: int, rows: Sequence[FilteredRowRecord]) -> None:
        registry_id = self._data_id(registry_id)
        self.db.registry_filtered.delete_many({"registry_id": registry_id})
        if rows:
            self.db.registry_filtered.insert_many(
                [{"registry_id": registry_id, **r.__dict__} for r in rows], ordered=False
            )

    def list_filtered_rows(self, registry_id: int) -> list[FilteredRowRecord]:
        cursor = self.db.registry_filtered.find(
            {"registry_id": self._data_id(registry_id)}, {"_id": 0, "registry_id": 0}
        ).sort("row", ASCENDING)
        return [FilteredRowRecord(**doc) for doc in cursor]

    # -- results ------------------------------------------------------------------------

    def clear_results(self, registry_id: int, *, keep_manual: bool = True) -> None:
        query: dict[str, Any] = {"registry_id": self._data_id(registry_id)}
        if keep_manual:
            query["manual"] = False
        self.db.registry_results.delete_many(query)

    def put_results(self, registry_id: int, results: Sequence[SearchResult]) -> None:
        if not results:
            return
        registry_id = self._data_id(registry_id)
        self.db.registry_results.bulk_write(
            [
                ReplaceOne(
                    {"registry_id": registry_id, "row": r.row},
                    _result_doc(registry_id, r),
                    upsert=True,
                )
                for r in results
            ],
            ordered=False,
        )

    def list_results(self, registry_id: int) -> list[SearchResult]:
        cursor = self.db.registry_results.find({"registry_id": self._data_id(registry_id)}).sort(
            "row", ASCENDING
        )
        return [_to_result(d) for d in cursor]

    def count_results(self, registry_id: int) -> int:
        query = {"registry_id": self._data_id(registry_id)}
        return int(self.db.registry_results.count_documents(query))

    def assign(self, registry_id: int, row: int, document_id: int | None, who: str) -> SearchResult:
        """The result first, then its audit record: a crash between them leaves the
        assignment without its record, never a record of something not done."""
        registry_id = int(registry_id)
        self._registry_doc(registry_id)  # "no registry N" before "no row"
        data_id = self._data_id(registry_id)
        key = {"registry_id": data_id, "row": row}
        if self.db.registry_rows.find_one(key, {"_id": 1}) is None:
            raise NotFound("row", row, f"registry {registry_id} has no row {row}")
        old = self.db.registry_results.find_one(key)
        previous = _to_result(old) if old else None
        at = now_iso()
        result = manual_result(row, document_id, who, at, previous)
        self.db.registry_results.replace_one(key, _result_doc(data_id, result), upsert=True)
        self.db.registry_assignments.insert_one(
            {
                "_id": self._next_ids("registry_assignments"),
                "registry_id": registry_id,
                "row": row,
                "document_id": document_id,
                "previous_document_id": previous.document_id if previous else None,
                "who": who,
                "at": at,
            }
        )
        return result

    def list_assignments(self, registry_id: int) -> list[Assignment]:
        cursor = self.db.registry_assignments.find(
            {"registry_id": int(registry_id)}, {"_id": 0, "registry_id": 0}
        ).sort("_id", ASCENDING)
        return [Assignment(**doc) for doc in cursor]
