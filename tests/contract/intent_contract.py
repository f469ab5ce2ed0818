"""The batch intent contract: one atomic write up to the ``create`` call.

Every backend writes a batch intent, its jobs' moves to ``submitted`` and its request
records as one step (SQLite: one transaction; MongoDB: a claim and a single-document
commit point, rolled forward by ``settle_intents``), and a job belongs to at most one
open intent. A kill is simulated by a ``BaseException`` raised from the checkpoint:
nothing after it runs, as after ``kill -9`` (SQLite drops the open transaction).
"""

from __future__ import annotations

import contextlib

import pytest

from docbatch_gui.domain.errors import RequestHeld
from docbatch_gui.domain.models import BatchRecord, RequestRecord
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.faults import STORE_POINTS
from docbatch_gui.storage.store import Store
from tests.contract.store_contract import new_job, run_to

CHECKPOINTS = sorted({"intent_mid_write", *STORE_POINTS})


class Killed(BaseException):
    """Raised at a checkpoint: the process is gone, no cleanup of ours runs."""


def ready_job(store: Store, name: str) -> int:
    job = store.create_job(new_job(name=name))
    run_to(store, job.id, JobState.PREPARING)
    return job.id


def intent_of(*job_ids: int) -> BatchRecord:
    return BatchRecord(
        [f"job_{j}_batch_1" for j in job_ids], list(job_ids), "2026-01-01T00:00:00+00:00"
    )


def pending(job_id: int) -> RequestRecord:
    return RequestRecord(
        job_id=job_id,
        custom_id=f"job_{job_id}_batch_1",
        group=1,
        pages=[1],
        state="pending",
        error_kind=None,
        error=None,
        answer=None,
        attempts=1,
        mode="batch",
    )


def snapshot(store: Store, job_ids: list[int]) -> tuple[list[str], list[str], list[int]]:
    states = [store.get_job(j).state.value for j in job_ids]
    records = [f"{r.custom_id}@{r.batch}" for j in job_ids for r in store.list_requests(j)]
    intents = [b.id or 0 for b in store.list_batches(["intent"])]
    return states, records, intents


class IntentContract:
    def test_an_intent_commits_its_moves_and_records_together(self, store: Store) -> None:
        a, b = ready_job(store, "a.pdf"), ready_job(store, "b.pdf")
        intent = store.open_intent(intent_of(a, b), [pending(a), pending(b)], {a: 0.1, b: 0.2})
        assert intent.id is not None and intent.status == "intent"
        assert store.get_job(a).state is JobState.SUBMITTED
        assert store.get_job(b).cost_estimate_usd == 0.2
        assert [r.batch for r in store.list_requests(a)] == [intent.id]
        assert [x.id for x in store.list_batches(["intent"])] == [intent.id]

    def test_a_job_belongs_to_at_most_one_open_intent(self, store: Store) -> None:
        a, b = ready_job(store, "a.pdf"), ready_job(store, "b.pdf")
        first = store.open_intent(intent_of(a), [pending(a)], {})
        before = snapshot(store, [a, b])
        with pytest.raises(RequestHeld, match=f"job {a} is already in the planned batch"):
            store.open_intent(intent_of(b, a), [pending(b), pending(a)], {})
        assert snapshot(store, [a, b]) == before  # nothing of the refused intent was written
        assert first.id is not None
        store.update_batch(first.id, batch_id="msgbatch_1", status="in_progress")
        # created: the job is free of intents, but its request waits in the open batch
        with pytest.raises(RequestHeld, match="waits in batch"):
            store.open_intent(intent_of(a), [pending(a)], {})
        store.update_batch(first.id, status="ended")
        assert store.open_intent(intent_of(a), [pending(a)], {}).id != first.id

    @pytest.mark.parametrize("point", CHECKPOINTS)
    def test_a_kill_inside_the_write_leaves_all_or_nothing(self, store: Store, point: str) -> None:
        a, b = ready_job(store, "a.pdf"), ready_job(store, "b.pdf")
        before = snapshot(store, [a, b])

        def kill(name: str) -> None:
            if name == point:
                raise Killed(name)

        reaches = point == "intent_mid_write" or type(store).__name__ == "MongoStore"
        with pytest.raises(Killed) if reaches else contextlib.nullcontext():
            store.open_intent(intent_of(a, b), [pending(a), pending(b)], {}, checkpoint=kill)
        store.settle_intents()
        after = snapshot(store, [a, b])
        if after != before:  # rolled forward: the whole intent, never a part
            states, records, intents = after
            assert states == ["submitted", "submitted"] and len(intents) == 1
            assert records == [f"job_{a}_batch_1@{intents[0]}", f"job_{b}_batch_1@{intents[0]}"]
        # either way the jobs can be planned (again or once more) with nothing held twice
        if after == before:
            assert store.open_intent(intent_of(a, b), [pending(a), pending(b)], {}).id
