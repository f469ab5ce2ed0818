"""The team store: MongoDB, shared by every workstation and Celery worker.

A standalone MongoDB has no multi-document transactions, so every state change is one
``find_one_and_update`` on the job document whose filter repeats the state and
attempt the check was made against (compare-and-swap). The job's events live in the
same document and are pushed in that same update: a change and its event are written
together or not at all. A lost race re-reads and checks again, so two workers can
never both claim or finish a job.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, Unpack

from pymongo import ASCENDING, MongoClient, ReturnDocument
from pymongo.database import Database

from docbatch_gui.checks.duplicates import match_key
from docbatch_gui.domain.errors import ErrorKind, NotFound
from docbatch_gui.domain.models import Document, Job, NewJob
from docbatch_gui.domain.states import FAILURE_STATES, JobState, Phase
from docbatch_gui.storage.job_changes import (
    JobChange,
    JobMoves,
    StoredHead,
    created,
    update_patch,
    written,
)
from docbatch_gui.storage.job_patch import JobPatch, job_of
from docbatch_gui.storage.mongo_budget import MongoBudget
from docbatch_gui.storage.mongo_counterparties import MongoCounterparties
from docbatch_gui.storage.mongo_intents import MongoIntents
from docbatch_gui.storage.mongo_records import MongoRecords
from docbatch_gui.storage.mongo_registry import MongoRegistry
from docbatch_gui.storage.store import check_attempt, stored_id

DEFAULT_DB = "docbatch"
#: how often a compare-and-swap that lost a race is re-checked before giving up
CAS_ROUNDS = 50
_NO_EVENTS = {"events": 0}
#: every write of a job document counts one more revision (``Store.job_revisions``)
_NEXT_REVISION = {"revision": 1}


def _to_db(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if isinstance(value, (JobState, Phase, ErrorKind)):
        return value.value
    return value


def _doc_to_job(doc: dict[str, Any]) -> Job:
    return job_of(doc, doc["_id"])


class MongoStore(
    JobMoves, MongoRecords, MongoIntents, MongoBudget, MongoRegistry, MongoCounterparties
):
    """Store on one MongoDB database (``pymongo`` or ``mongomock`` alike)."""

    def __init__(self, database: Database[Any], *, owns_client: bool = False) -> None:
        self.db = database
        self._owns_client = owns_client
        self._ensure_indexes()

    @classmethod
    def connect(cls, uri: str, *, timeout_ms: int = 5000) -> MongoStore:
        """Open ``MONGODB_URI``; the database is the URI's, else ``docbatch``."""
        client: Any = MongoClient(uri, serverSelectionTimeoutMS=timeout_ms)
        database = client.get_default_database(default=DEFAULT_DB)
        return cls(database, owns_client=True)

    def _ensure_indexes(self) -> None:
        """Unique where the contract needs one row per key; idempotent on every start."""
        self.db.jobs.create_index([("state", ASCENDING), ("mode", ASCENDING)])
        self.db.jobs.create_index([("sha256", ASCENDING)])
        self.db.pages.create_index([("job_id", ASCENDING), ("page_no", ASCENDING)], unique=True)
        self.db.documents.create_index(
            [("job_id", ASCENDING), ("doc_index", ASCENDING)], unique=True
        )
        self.db.documents.create_index([("match_key", ASCENDING)])
        for raw in self.db.documents.find({"match_key": None}, {"fields": 1}):  # older ones
            key = match_key(raw.get("fields") or {})
            self.db.documents.update_one({"_id": raw["_id"]}, {"$set": {"match_key": key}})
        self.db.requests.create_index(
            [("job_id", ASCENDING), ("custom_id", ASCENDING)], unique=True
        )
        self.db.batches.create_index([("status", ASCENDING)])
        self.db.intent_jobs.create_index([("job_id", ASCENDING)], unique=True)
        self.db.spend.create_index([("at", ASCENDING)])
        self.db.ocr_cache.create_index(
            [("sha256", ASCENDING), ("engine", ASCENDING), ("page_no", ASCENDING)], unique=True
        )
        self._registry_indexes()
        self._counterparty_indexes()

    def close(self) -> None:
        if self._owns_client:
            self.db.client.close()

    # -- jobs -------------------------------------------------------------------------

    def create_job(self, new: NewJob) -> Job:
        new_job = created(new)
        doc = {"_id": self._next_ids("jobs"), **new_job.fields, "attempts": 0, "documents": 0,
               "artifacts_deliverable": False, "progress": 0.0,
               "events": [new_job.event]}  # fmt: skip
        self.db.jobs.insert_one(doc)
        return _doc_to_job(doc)

    def _raw(self, job_id: int) -> dict[str, Any]:
        doc = self.db.jobs.find_one({"_id": stored_id("job", int(job_id))}, _NO_EVENTS)
        if doc is None:
            raise NotFound("job", job_id)
        return doc

    def get_job(self, job_id: int) -> Job:
        return _doc_to_job(self._raw(job_id))

    def list_jobs(
        self,
        states: Iterable[JobState] | None = None,
        ids: Iterable[int] | None = None,
        *,
        mode: str | None = None,
        limit: int | None = None,
    ) -> list[Job]:
        query: dict[str, Any] = {}
        if states is not None:
            query["state"] = {"$in": [JobState(s).value for s in states]}
        if ids is not None:
            query["_id"] = {"$in": [int(i) for i in ids]}
        if mode is not None:
            query["mode"] = mode
        cursor = self.db.jobs.find(query, _NO_EVENTS).sort("_id", ASCENDING)
        if limit is not None:
            cursor = cursor.limit(int(limit))
        return [_doc_to_job(d) for d in cursor]

    def job_revisions(self, ids: Iterable[int]) -> dict[int, int]:
        found = self.db.jobs.find({"_id": {"$in": [int(i) for i in ids]}}, {"revision": 1})
        return {doc["_id"]: int(doc.get("revision", 0)) for doc in found}

    def find_original(self, sha256: str) -> Job | None:
        query = {
            "sha256": sha256,
            "duplicate_of": None,
            "state": {"$nin": sorted(s.value for s in FAILURE_STATES)},
        }
        found = list(self.db.jobs.find(query, _NO_EVENTS).sort("_id", ASCENDING).limit(1))
        return _doc_to_job(found[0]) if found else None

    @staticmethod
    def _fields(fields: dict[str, Any]) -> dict[str, Any]:
        return {name: _to_db(value) for name, value in written(fields).items()}

    def _swap(self, raw: dict[str, Any], change: JobChange) -> dict[str, Any] | None:
        """Write ``change`` and its event if the job still has the state and attempt it
        was read with; None when another writer changed it first."""
        return self.db.jobs.find_one_and_update(
            {"_id": raw["_id"], "state": raw["state"], "attempts": raw.get("attempts", 0)},
            {
                "$set": self._fields(change.fields),
                "$push": {"events": change.event},
                "$inc": _NEXT_REVISION,
            },
            projection=_NO_EVENTS,
            return_document=ReturnDocument.AFTER,
        )

    def _apply_change(
        self, job_id: int, decide: Callable[[StoredHead], JobChange | None]
    ) -> Job | None:
        """A lost race reads the job again and decides again."""
        for _ in range(CAS_ROUNDS):
            raw = self._raw(job_id)
            change = decide(_doc_to_job(raw))
            if change is None:
                return None
            done = self._swap(raw, change)
            if done is not None:
                return _doc_to_job(done)
        raise RuntimeError(f"job {job_id}: too many concurrent changes; try again")

    def update_job(
        self, job_id: int, *, attempt: int | None = None, **fields: Unpack[JobPatch]
    ) -> Job:
        patch = update_patch(fields)
        query: dict[str, Any] = {"_id": int(job_id)}
        if attempt is not None:
            query["attempts"] = attempt
        done = self.db.jobs.find_one_and_update(
            query,
            {"$set": self._fields(patch), "$inc": _NEXT_REVISION},
            projection=_NO_EVENTS,
            return_document=ReturnDocument.AFTER,
        )
        if done is None:
            check_attempt(self.get_job(job_id), attempt)  # raises NotFound or the refusal
            return self.update_job(job_id, attempt=attempt, **fields)
        return _doc_to_job(done)

    def job_events(self, job_id: int) -> list[dict[str, Any]]:
        doc = self.db.jobs.find_one({"_id": int(job_id)}, {"events": 1})
        return list(doc.get("events", [])) if doc else []

    def delete_job(self, job_id: int) -> None:
        job_id = int(job_id)
        self.db.jobs.update_many(
            {"duplicate_of": job_id},
            {"$set": self._fields({"duplicate_of": None}), "$inc": _NEXT_REVISION},
        )
        for name in ("pages", "documents", "requests"):
            self.db[name].delete_many({"job_id": job_id})
        self.db.jobs.delete_one({"_id": job_id})

    # -- documents --------------------------------------------------------------------

    def replace_documents(self, job_id: int, documents: Sequence[Document]) -> list[Document]:
        self.db.documents.delete_many({"job_id": job_id})
        if documents:
            fresh = [doc for doc in documents if doc.id is None]
            first = self._next_ids("documents", len(fresh)) if fresh else 0
            ids = iter(range(first, first + len(fresh)))
            bodies = []
            for doc in documents:
                doc_id = doc.id if doc.id is not None else next(ids)
                bodies.append({**doc.as_dict(), "_id": doc_id, "id": doc_id, "job_id": job_id,
                               "match_key": match_key(doc.fields)})  # fmt: skip
            self.db.documents.insert_many(bodies, ordered=True)
        self.update_job(job_id, documents=len(documents))
        return self.list_documents(job_id)

    def update_document(self, document: Document) -> Document:
        if document.id is None:
            raise ValueError("a document without an id cannot be updated in place")
        body = {**document.as_dict(), "_id": document.id, "match_key": match_key(document.fields)}
        result = self.db.documents.replace_one(
            {"_id": document.id, "job_id": document.job_id}, body
        )
        if result.matched_count != 1:
            raise NotFound(
                "document", document.id, f"job {document.job_id} has no document {document.id}"
            )
        return document

    def archive_documents(self, job_id: int, documents: Sequence[Document], reason: str) -> None:
        if documents:
            at = datetime.now(UTC).isoformat()
            self.db.document_history.insert_many(
                [
                    {
                        "job_id": job_id,
                        "document_id": d.id,
                        "at": at,
                        "reason": reason,
                        "document": d.as_dict(),
                    }
                    for d in documents
                ]
            )

    def document_history(self, job_id: int) -> list[dict[str, Any]]:
        cursor = self.db.document_history.find({"job_id": job_id}, {"_id": 0, "job_id": 0})
        return list(cursor.sort("_id", ASCENDING))

    def list_documents(self, job_id: int | None = None) -> list[Document]:
        query = {} if job_id is None else {"job_id": job_id}
        cursor = self.db.documents.find(query, {"_id": 0}).sort(
            [("job_id", ASCENDING), ("doc_index", ASCENDING)]
        )
        return [Document.from_body(doc) for doc in cursor]

    def documents_matching(self, key: str) -> list[Document]:
        if not key:
            return []
        cursor = self.db.documents.find({"match_key": key}, {"_id": 0}).sort("id", ASCENDING)
        return [Document.from_body(doc) for doc in cursor]
