"""Job revisions: the number a run's watch reads to decode only the jobs written since
it last looked (``Store.job_revisions``). Every backend runs it (test_sqlite_store)."""

from __future__ import annotations

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
