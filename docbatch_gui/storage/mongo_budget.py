"""Budget reservations on MongoDB: the check and the write under one short lease.

A mixin of ``MongoStore``. Without multi-document transactions, the sum of the spend
ledger and the reservations and the insert of a new one must not interleave with
another process doing the same: each reservation step first takes the lease document
``budget_lock`` (a conditional upsert: only one holder, expiring after
``LEASE_S`` should its holder die), then checks and writes, then gives it back.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from pymongo import ReturnDocument
from pymongo.errors import DuplicateKeyError

from docbatch_gui.domain.errors import StoreBusy
from docbatch_gui.domain.messages import coded
from docbatch_gui.domain.models import CapRefusal, Caps, Reservation
from docbatch_gui.storage.budget_rules import refusal
from docbatch_gui.storage.mongo_records import MongoTables

LOCK = "budget_lock"
LEASE_S = 10.0
WAIT_S = 30.0


def _now() -> datetime:
    return datetime.now(UTC)


class MongoBudget(MongoTables):
    spent_between: Callable[..., float]  # (start, end=None)

    @contextmanager
    def _budget_lease(self) -> Iterator[None]:
        token = uuid.uuid4().hex
        deadline = time.monotonic() + WAIT_S
        while True:
            now = _now()
            until = (now + timedelta(seconds=LEASE_S)).isoformat()
            free = {"$or": [{"holder": None}, {"until": {"$lt": now.isoformat()}}]}
            try:
                taken = self.db.locks.find_one_and_update(
                    {"_id": LOCK, **free},
                    {"$set": {"holder": token, "until": until}},
                    upsert=True,
                    return_document=ReturnDocument.AFTER,
                )
            except DuplicateKeyError:
                taken = None
            if taken is not None and taken.get("holder") == token:
                break
            if time.monotonic() > deadline:
                raise StoreBusy(coded("budget_store_busy", seconds=int(WAIT_S)))
            time.sleep(0.01)  # another process holds the lease for a few milliseconds
        try:
            yield
        finally:
            self.db.locks.update_one({"_id": LOCK, "holder": token}, {"$set": {"holder": None}})

    def _reserved(self, query: dict[str, Any]) -> float:
        return sum(float(d["usd"]) for d in self.db.reservations.find(query, {"usd": 1}))

    def reserve(
        self, reservation: Reservation, caps: Caps, *, forced: bool = False
    ) -> CapRefusal | None:
        with self._budget_lease():
            others = {"_id": {"$ne": reservation.key}}
            run_spent = run_reserved = 0.0
            if reservation.run is not None:
                run_spent = self.run_spent(reservation.run)
                run_reserved = self._reserved({**others, "run": reservation.run})
            refused = refusal(
                caps,
                reservation.usd,
                month_spent=self.spent_between(caps.month_start),
                month_reserved=self._reserved(others),
                run_spent=run_spent,
                run_reserved=run_reserved,
            )
            if refused is not None and not forced:
                return refused
            doc = {
                "usd": float(reservation.usd),
                "owner": reservation.owner,
                "run": reservation.run,
                "at": _now().isoformat(),
            }
            self.db.reservations.replace_one({"_id": reservation.key}, doc, upsert=True)
            return None

    def release(self, key: str, actual_usd: float = 0.0) -> None:
        doc = self.db.reservations.find_one_and_delete({"_id": key})
        if doc is not None and doc.get("run") is not None and actual_usd:
            self.db.run_spend.update_one(
                {"_id": doc["run"]}, {"$inc": {"usd": float(actual_usd)}}, upsert=True
            )

    def hand_over(self, key: str, new_key: str, owner: str) -> None:
        doc = self.db.reservations.find_one({"_id": key})
        if doc is None:
            return
        moved = {**doc, "_id": new_key, "owner": owner, "at": _now().isoformat()}
        self.db.reservations.replace_one({"_id": new_key}, moved, upsert=True)
        self.db.reservations.delete_one({"_id": key})

    def list_reservations(self) -> list[Reservation]:
        return [
            Reservation(d["_id"], float(d["usd"]), d["owner"], d.get("run"), d.get("at", ""))
            for d in self.db.reservations.find()
        ]

    def refresh_reservations(self, owner: str) -> None:
        self.db.reservations.update_many({"owner": owner}, {"$set": {"at": _now().isoformat()}})

    def drop_reservations(self, keys: Sequence[str]) -> None:
        self.db.reservations.delete_many({"_id": {"$in": list(keys)}})

    def run_spent(self, run: str) -> float:
        doc = self.db.run_spend.find_one({"_id": run})
        return float(doc["usd"]) if doc else 0.0
