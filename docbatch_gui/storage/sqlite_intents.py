"""A batch intent written in one SQLite transaction: the intent, its jobs' moves to
``submitted`` and its request records commit together or not at all.

A mixin of ``SQLiteStore``. Table ``intent_jobs`` (migration 18) has the job as its
primary key: a job belongs to at most one open intent. A kill anywhere before the
commit leaves nothing; after it, everything, so a later cycle never finds an intent
whose requests are not held by their records (what used to send them twice).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from docbatch_gui.domain.errors import RequestHeld
from docbatch_gui.domain.models import BatchRecord, Job, RequestRecord
from docbatch_gui.domain.states import (
    BATCH_READY_STATES,
    BATCH_SENT_STATES,
    OPEN_BATCH_STATUSES,
    JobState,
)
from docbatch_gui.storage.job_changes import JobChange, Transition
from docbatch_gui.storage.sqlite_tables import SQLiteTables
from docbatch_gui.storage.store import no_checkpoint


class IntentTables(SQLiteTables):
    _get: Callable[[sqlite3.Connection, int], Job]
    _write_request: Callable[[sqlite3.Connection, RequestRecord], None]
    #: (db, job id, change): a job's columns and its history row, in the transaction
    _change: Callable[[sqlite3.Connection, int, JobChange], None]

    def open_intent(
        self,
        intent: BatchRecord,
        requests: Sequence[RequestRecord],
        estimates: Mapping[int, float | None],
        checkpoint: Callable[[str], None] = no_checkpoint,
    ) -> BatchRecord:
        with self._tx() as db:
            cursor = db.execute(
                "INSERT INTO batches (batch_id, status, body) VALUES (?,?,?)",
                (None, "intent", json.dumps(intent.body())),
            )
            local_id = int(cursor.lastrowid or 0)
            for job_id in intent.job_ids:
                held = db.execute(
                    "SELECT batch FROM intent_jobs WHERE job_id = ?", (job_id,)
                ).fetchone()
                if held is not None:
                    raise RequestHeld.coded("batch_job_held", {"job": job_id, "intent": held[0]})
                db.execute(
                    "INSERT INTO intent_jobs (job_id, batch) VALUES (?,?)", (job_id, local_id)
                )
                self._move_to_submitted(db, job_id, estimates.get(job_id))
            checkpoint("intent_mid_write")
            for record in requests:
                self._check_free(db, record)
                self._write_request(db, replace(record, batch=local_id))
            return replace(intent, id=local_id, status="intent")

    def _move_to_submitted(
        self, db: sqlite3.Connection, job_id: int, estimate: float | None
    ) -> None:
        job = self._get(db, job_id)
        if job.state in BATCH_SENT_STATES:  # a resubmission, or a job split over batches
            return
        asked = Transition.asked(
            JobState.SUBMITTED, BATCH_READY_STATES, job.attempts, {"cost_estimate_usd": estimate}
        )
        self._change(db, job_id, asked.against(job))

    @staticmethod
    def _check_free(db: sqlite3.Connection, record: RequestRecord) -> None:
        """Refuse a request whose record waits in a batch still open."""
        row = db.execute(
            "SELECT json_extract(body, '$.state') AS state, json_extract(body, '$.batch') AS"
            " batch FROM requests WHERE job_id = ? AND custom_id = ?",
            (record.job_id, record.custom_id),
        ).fetchone()
        if row is None or row["state"] != "pending" or row["batch"] is None:
            return
        status = db.execute("SELECT status FROM batches WHERE id = ?", (row["batch"],)).fetchone()
        if status is not None and status[0] in OPEN_BATCH_STATUSES:
            raise RequestHeld.coded(
                "batch_request_held", {"request": record.custom_id, "batch": row["batch"]}
            )

    def settle_intents(self) -> None:
        """Nothing to finish: an intent commits whole in one transaction."""
