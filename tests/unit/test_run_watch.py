"""A run's watch decodes only the jobs written since it last looked, and still sees
every write, a deletion and a duplicate's unlinking."""

from __future__ import annotations

from pathlib import Path

from docbatch_gui.app.run_watch import RunWatch
from docbatch_gui.domain.models import NewJob
from docbatch_gui.domain.states import JobState
from docbatch_gui.storage.sqlite import SQLiteStore


def _job(store: SQLiteStore, n: int, **kw: object) -> int:
    return store.create_job(NewJob(f"{n}.pdf", f"/in/{n}.pdf", f"{n:064d}", 1, **kw)).id  # type: ignore[arg-type]


def test_a_refresh_returns_the_jobs_written_since_the_last(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "db.sqlite3")
    ids = [_job(store, n) for n in range(3)]
    outside = _job(store, 9)
    watch = RunWatch(store, ids)
    assert [j.id for j in watch.refresh()] == ids  # the first look reads every job
    assert watch.refresh() == []
    store.claim(ids[1], JobState.PREPARING)
    store.update_job(outside, progress=0.5)  # not of this run
    changed = watch.refresh()
    assert [(j.id, j.state) for j in changed] == [(ids[1], JobState.PREPARING)]
    assert watch.jobs[ids[1]].state is JobState.PREPARING
    store.update_job(ids[1], progress=0.25)
    assert [j.progress for j in watch.refresh()] == [0.25]
    store.delete_job(ids[2])
    assert watch.refresh() == []
    assert sorted(watch.jobs) == ids[:2]
    store.close()


def test_a_duplicate_unlinked_from_its_deleted_original_is_read_again(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "db.sqlite3")
    original = _job(store, 1)
    dup = _job(store, 2, duplicate_of=original)
    store.transition(dup, JobState.DUPLICATE)
    watch = RunWatch(store, [dup])
    assert watch.refresh()[0].duplicate_of == original
    store.delete_job(original)
    assert [j.duplicate_of for j in watch.refresh()] == [None]
    store.close()
