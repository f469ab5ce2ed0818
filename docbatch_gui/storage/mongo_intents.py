"""A batch intent on MongoDB, atomic without multi-document transactions.

A mixin of ``MongoStore``. Collection ``intent_jobs`` has a unique index on
``job_id``: a job belongs to at most one open intent. The claim pattern:

1. claim the intent's jobs in ``intent_jobs`` (a job claimed by another open intent
   refuses the whole intent, and what this one claimed is taken back);
2. insert the intent's document with everything it is about to write embedded under
   ``apply`` (the job moves and the request records): this single-document insert is
   the commit point;
3. apply the moves and records (each write idempotent), then drop ``apply``.

A kill before step 2 leaves only claims without an intent, which ``settle_intents``
removes; a kill after it leaves an intent that ``settle_intents`` finishes (rolls
forward). The queue's leader settles before it recovers jobs or resolves intents, so
nothing reads a half-written intent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from pymongo.errors import BulkWriteError, DuplicateKeyError

from docbatch_gui.domain.errors import InvalidTransition, RequestHeld
from docbatch_gui.domain.models import BatchRecord, Job, RequestRecord
from docbatch_gui.domain.states import (
    BATCH_READY_STATES,
    BATCH_SENT_STATES,
    OPEN_BATCH_STATUSES,
    JobState,
)
from docbatch_gui.storage.job_changes import check_expectations
from docbatch_gui.storage.mongo_records import MongoTables
from docbatch_gui.storage.store import no_checkpoint

APPLY = "apply"


class MongoIntents(MongoTables):
    get_job: Callable[[int], Job]
    transition: Callable[..., Job]
    save_request: Callable[[RequestRecord], None]

    def open_intent(
        self,
        intent: BatchRecord,
        requests: Sequence[RequestRecord],
        estimates: Mapping[int, float | None],
        checkpoint: Callable[[str], None] = no_checkpoint,
    ) -> BatchRecord:
        local_id = self._next_ids("batches")
        self._claim(intent.job_ids, local_id)
        try:
            checkpoint("intent_claimed")
            for job_id in intent.job_ids:
                job = self.get_job(job_id)
                if job.state not in BATCH_SENT_STATES:
                    check_expectations(job, JobState.SUBMITTED, BATCH_READY_STATES, job.attempts)
            for record in requests:
                self._check_free(record)
            held = [replace(r, batch=local_id).body() for r in requests]
            moves = {str(j): estimates.get(j) for j in intent.job_ids}
            body = {**intent.body(), "status": "intent", "_id": local_id}
            self.db.batches.insert_one({**body, APPLY: {"moves": moves, "requests": held}})
        except Exception:  # refused: take the claims back (a kill leaves them to settle)
            self.db.intent_jobs.delete_many({"batch": local_id})
            raise
        checkpoint("intent_mid_write")
        self._apply(local_id)
        return replace(intent, id=local_id, status="intent")

    def _claim(self, job_ids: Sequence[int], local_id: int) -> None:
        claims = [{"job_id": int(j), "batch": local_id} for j in job_ids]
        try:
            if claims:
                self.db.intent_jobs.insert_many(claims, ordered=True)
        except (BulkWriteError, DuplicateKeyError):
            self.db.intent_jobs.delete_many({"batch": local_id})
            taken = self.db.intent_jobs.find_one({"job_id": {"$in": list(job_ids)}}) or {}
            raise RequestHeld.coded(
                "batch_job_held", {"job": taken.get("job_id"), "intent": taken.get("batch")}
            ) from None

    def _check_free(self, record: RequestRecord) -> None:
        """Refuse a request whose record waits in a batch still open."""
        found = self.db.requests.find_one(
            {"job_id": record.job_id, "custom_id": record.custom_id}, {"state": 1, "batch": 1}
        )
        if not found or found.get("state") != "pending" or found.get("batch") is None:
            return
        batch = self.db.batches.find_one({"_id": found["batch"]}, {"status": 1})
        if batch is not None and batch.get("status") in OPEN_BATCH_STATUSES:
            raise RequestHeld.coded(
                "batch_request_held", {"request": record.custom_id, "batch": found["batch"]}
            )

    def _apply(self, local_id: int) -> None:
        """Write what the intent's document says it writes; every step may run again."""
        doc = self.db.batches.find_one({"_id": local_id}, {APPLY: 1})
        if not doc or APPLY not in doc:
            return
        for job_id, estimate in doc[APPLY]["moves"].items():
            job = self.get_job(int(job_id))
            if job.state in BATCH_READY_STATES:
                try:
                    self.transition(
                        job.id,
                        JobState.SUBMITTED,
                        expected=BATCH_READY_STATES,
                        attempt=job.attempts,
                        cost_estimate_usd=estimate,
                    )
                except InvalidTransition:
                    continue  # canceled meanwhile: its requests' answers are discarded
        for body in doc[APPLY]["requests"]:
            self.save_request(RequestRecord.from_body(body))
        self.db.batches.update_one({"_id": local_id}, {"$unset": {APPLY: ""}})

    def settle_intents(self) -> None:
        for doc in list(self.db.batches.find({APPLY: {"$exists": True}}, {"_id": 1})):
            self._apply(int(doc["_id"]))
        open_ids = {d["_id"] for d in self.db.batches.find({"status": "intent"}, {"_id": 1})}
        self.db.intent_jobs.delete_many({"batch": {"$nin": sorted(open_ids)}})
