"""Job revisions: the number a run's watch reads to decode only the jobs written since
it last looked (``Store.job_revisions``). Every backend runs it (test_sqlite_store)."""

from __future__ import annotations

import pytest

from docbatch_gui.domain.errors import InvalidTransition, NotFound
from docbatch_gui.domain.models import Document
from docbatch_gui.domain.states import JobState
from docbatch_gui.storage.store import Store
from tests.contract.store_contract import SHA_B, new_job


class RevisionContract:
    def test_every_write_of_a_job_moves_its_revision_and_no_other(self, store: Store) -> None:
        job = store.create_job(new_job())
        other = store.create_job(new_job(SHA_B, "other.pdf"))
        seen = [store.job_revisions([job.id])[job.id]]
        untouched = store.job_revisions([other.id])

        def moved() -> bool:
            now = store.job_revisions([job.id])[job.id]
            grew = now > seen[-1]
            seen.append(now)
            return grew

        store.claim(job.id, JobState.PREPARING)
        assert moved()
        store.update_job(job.id, progress=0.5)
        assert moved()
        store.transition(job.id, JobState.EXTRACTING)
        assert moved()
        store.set_pages_deliverable(job.id, True)
        assert moved()
        store.replace_documents(job.id, [Document(job.id, 0, "invoice", 1, 1)])
        assert moved()
        assert store.job_revisions([other.id]) == untouched
        store.job_events(job.id)
        store.list_jobs(ids=[job.id])
        assert not moved()  # a read is no write

    def test_unlinking_a_duplicate_moves_its_revision(self, store: Store) -> None:
        first = store.create_job(new_job())
        dup = store.create_job(new_job(duplicate_of=first.id))
        store.transition(dup.id, JobState.DUPLICATE)
        before = store.job_revisions([dup.id])[dup.id]
        store.delete_job(first.id)
        assert store.get_job(dup.id).duplicate_of is None
        assert store.job_revisions([dup.id])[dup.id] > before

    def test_only_stored_jobs_of_those_asked_are_listed(self, store: Store) -> None:
        kept = store.create_job(new_job())
        gone = store.create_job(new_job(SHA_B, "gone.pdf"))
        store.create_job(new_job(SHA_B, "not_asked.pdf"))
        store.delete_job(gone.id)
        assert set(store.job_revisions([kept.id, gone.id, 9999])) == {kept.id}
        assert store.job_revisions([]) == {}

    def test_a_write_refused_by_its_attempt_writes_nothing(self, store: Store) -> None:
        job = store.create_job(new_job())
        store.claim(job.id, JobState.PREPARING)  # attempt 1
        before = store.get_job(job.id)
        revision = store.job_revisions([job.id])[job.id]
        with pytest.raises(InvalidTransition):
            store.update_job(job.id, attempt=2, progress=0.5)
        with pytest.raises(InvalidTransition):
            store.transition(job.id, JobState.EXTRACTING, attempt=2)
        assert store.get_job(job.id) == before
        assert store.job_revisions([job.id])[job.id] == revision
        with pytest.raises(NotFound):
            store.update_job(9999, attempt=1, progress=0.5)

    def test_the_job_a_write_returns_is_the_job_as_stored(self, store: Store) -> None:
        job = store.create_job(new_job())
        claimed = store.claim(job.id, JobState.PREPARING)
        assert claimed == store.get_job(job.id)
        patched = store.update_job(job.id, attempt=1, progress=0.5, escalation_reasons=["x"])
        assert patched == store.get_job(job.id)
        assert (patched.progress, patched.escalation_reasons) == (0.5, ["x"])
        moved = store.transition(job.id, JobState.EXTRACTING, attempt=1)
        assert moved == store.get_job(job.id)
        assert moved.phase == store.get_job(job.id).phase
