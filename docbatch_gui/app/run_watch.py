"""A run's jobs as last read, kept up to date at a small cost per loop.

A command's run (``docbatch process``) checks after every loop whether its jobs have
settled. Reading and decoding every job of the run each time cost the batch engine a
share of its bookkeeping that grew with the run; this reads each job's revision (two
integers a job) and decodes again only the jobs written since the last look.
"""

from __future__ import annotations

from collections.abc import Sequence

from docbatch_gui.domain.models import Job
from docbatch_gui.storage.store import Store


class RunWatch:
    """The jobs of one run, by id, as stored at the last ``refresh``."""

    def __init__(self, store: Store, job_ids: Sequence[int]) -> None:
        self._store = store
        self._ids = list(job_ids)
        #: the revision each kept job was read at (read before the job: at worst a
        #: job is read once more than needed, never kept older than its revision)
        self._revisions: dict[int, int] = {}
        self.jobs: dict[int, Job] = {}

    def refresh(self) -> list[Job]:
        """Read the jobs written since the last refresh (every job at the first) and
        return them in id order; a job deleted since is dropped."""
        revisions = self._store.job_revisions(self._ids) if self._ids else {}
        for gone in self.jobs.keys() - revisions.keys():
            del self.jobs[gone]
            self._revisions.pop(gone, None)
        moved = [i for i, rev in revisions.items() if self._revisions.get(i) != rev]
        if not moved:
            return []
        changed = self._store.list_jobs(ids=moved)
        for job in changed:
            self.jobs[job.id] = job
            self._revisions[job.id] = revisions[job.id]
        return changed
