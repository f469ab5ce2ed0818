"""MongoDB collections beside the jobs: pages, Claude requests, batches, OCR, settings.

A mixin of ``MongoStore``. Rows that a worker writes many at a time (pages) go in one
``bulk_write`` of upserts keyed by their unique index, so a re-run replaces instead
of duplicating and a page batch costs one round trip.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, replace
from datetime import UTC, datetime
from typing import Any

from pymongo import ASCENDING, ReplaceOne, ReturnDocument
from pymongo.database import Database

from docbatch_gui.domain.errors import NotFound
from docbatch_gui.domain.models import BatchRecord, OcrRecord, Page, RequestRecord
from docbatch_gui.storage.notes import OCR_NOTES, PAGE_NOTES, note_fields, notes_of
from docbatch_gui.storage.store import spend_growth, utc_text


def now_iso() -> str:
    """ISO UTC text, as the SQLite store keeps it: it sorts and round-trips exactly."""
    return datetime.now(UTC).isoformat()


class MongoTables:
    """What every collection mixin of ``MongoStore`` shares: its database, new ids."""

    db: Database[Any]

    def _next_ids(self, name: str, count: int = 1) -> int:
        """The first of ``count`` new ids: one atomic increment, shared by all clients."""
        counter = self.db.counters.find_one_and_update(
            {"_id": name},
            {"$inc": {"value": count}},
            upsert=True,
            return_document=ReturnDocument.AFTER,
        )
        assert counter is not None  # upsert with ReturnDocument.AFTER always returns one
        return int(counter["value"]) - count + 1


class MongoRecords(MongoTables):
    update_job: Callable[..., Any]

    # -- pages ------------------------------------------------------------------------

    def put_pages(self, pages: Sequence[Page]) -> None:
        if not pages:
            return
        self.db.pages.bulk_write(
            [
                ReplaceOne({"job_id": p.job_id, "page_no": p.page_no}, _page_doc(p), upsert=True)
                for p in pages
            ],
            ordered=True,
        )

    def list_pages(self, job_id: int) -> list[Page]:
        cursor = self.db.pages.find({"job_id": job_id}, {"_id": 0}).sort("page_no", ASCENDING)
        return [Page(**_with_notes(doc, PAGE_NOTES)) for doc in cursor]

    def set_pages_deliverable(self, job_id: int, deliverable: bool) -> int:
        result = self.db.pages.update_many(
            {"job_id": job_id}, {"$set": {"deliverable": bool(deliverable)}}
        )
        self.update_job(job_id, artifacts_deliverable=bool(deliverable))
        return int(result.matched_count)

    def delete_pages(self, job_id: int) -> None:
        self.db.pages.delete_many({"job_id": job_id})

    # -- Claude requests ----------------------------------------------------------------

    def save_request(self, record: RequestRecord) -> None:
        key = {"job_id": record.job_id, "custom_id": record.custom_id}
        before = self.db.requests.find_one(key, {"cost_usd": 1})
        self.db.requests.replace_one(key, record.body(), upsert=True)
        grown = spend_growth(before.get("cost_usd") if before else None, record.cost_usd)
        if grown:
            self.record_spend(grown, job_id=record.job_id, ref=record.custom_id)

    # -- the spend ledger -----------------------------------------------------------------

    def record_spend(
        self, usd: float, *, at: datetime | None = None, job_id: int | None = None, ref: str = ""
    ) -> None:
        moment = utc_text(at or datetime.now(UTC))
        self.db.spend.insert_one({"at": moment, "usd": float(usd), "job_id": job_id, "ref": ref})

    def spent_between(self, start: datetime, end: datetime | None = None) -> float:
        when: dict[str, str] = {"$gte": utc_text(start)}
        if end is not None:
            when["$lt"] = utc_text(end)
        total = sum(float(d["usd"]) for d in self.db.spend.find({"at": when}, {"usd": 1}))
        return round(total, 6)

    def list_requests(self, job_id: int) -> list[RequestRecord]:
        cursor = self.db.requests.find({"job_id": job_id}, {"_id": 0}).sort("group", ASCENDING)
        return [RequestRecord.from_body(doc) for doc in cursor]

    # -- batches ------------------------------------------------------------------------

    def create_batch(self, record: BatchRecord) -> BatchRecord:
        local_id = self._next_ids("batches")
        self.db.batches.insert_one({**record.body(), "_id": local_id})
        return replace(record, id=local_id)

    def update_batch(self, local_id: int, **fields: Any) -> BatchRecord:
        doc = self.db.batches.find_one({"_id": local_id})
        if doc is None:
            raise NotFound("batch", local_id)
        record = replace(_to_batch(doc), **fields)
        self.db.batches.replace_one({"_id": local_id}, {**record.body(), "_id": local_id})
        if record.status != "intent":  # created, or given up: its jobs are free
            self.db.intent_jobs.delete_many({"batch": local_id})
        return record

    def list_batches(self, statuses: Iterable[str] | None = None) -> list[BatchRecord]:
        query = {} if statuses is None else {"status": {"$in": list(statuses)}}
        return [_to_batch(d) for d in self.db.batches.find(query).sort("_id", ASCENDING)]

    # -- OCR cache ----------------------------------------------------------------------

    def put_ocr(self, record: OcrRecord) -> None:
        key = {"sha256": record.sha256, "page_no": record.page_no, "engine": record.engine}
        doc = {**asdict(record), **note_fields(record, OCR_NOTES)}
        self.db.ocr_cache.replace_one(key, doc, upsert=True)

    def get_ocr(self, sha256: str, engine: str) -> dict[int, OcrRecord]:
        cursor = self.db.ocr_cache.find({"sha256": sha256, "engine": engine}, {"_id": 0})
        return {doc["page_no"]: OcrRecord(**_with_notes(doc, OCR_NOTES)) for doc in cursor}

    # -- settings ---------------------------------------------------------------------

    def get_setting(self, key: str, default: Any = None) -> Any:
        doc = self.db.settings.find_one({"_id": key})
        return doc["value"] if doc else default

    def set_setting(self, key: str, value: Any) -> None:
        self.db.settings.replace_one({"_id": key}, {"_id": key, "value": value}, upsert=True)

    def mail_taken(self, key: str) -> dict[str, Any] | None:
        doc = self.db.mail_taken.find_one({"_id": key})
        return dict(doc["body"]) if doc else None

    def remember_mail(self, key: str, body: dict[str, Any]) -> None:
        self.db.mail_taken.replace_one(
            {"_id": key}, {"_id": key, "at": now_iso(), "body": body}, upsert=True
        )


def _page_doc(page: Page) -> dict[str, Any]:
    """A page as stored: its notes as text, code and parameters (``storage.notes``)."""
    return {**asdict(page), **note_fields(page, PAGE_NOTES)}


def _with_notes(doc: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """A stored page or OCR record's fields, its notes as messages. A document written
    by an older version keeps the codes in ``said`` (``{name: {"code", "params"}}``)."""
    said = doc.pop("said", None)
    for name in names:
        old = said.get(name) if isinstance(said, dict) else None
        if isinstance(old, dict) and not doc.get(f"{name}_code"):
            doc[f"{name}_code"], doc[f"{name}_params"] = old.get("code"), old.get("params")
    notes = notes_of(doc, names)
    for name in names:
        doc.pop(f"{name}_code", None)
        doc.pop(f"{name}_params", None)
    return {**doc, **notes}


def _to_batch(doc: dict[str, Any]) -> BatchRecord:
    body = {k: v for k, v in doc.items() if k not in ("_id", "apply")}
    return BatchRecord(**body, id=doc["_id"])
