"""The operator's moves on a job: retry, cancel, process again, delete.

A mixin of :class:`docbatch_gui.app.facade.DocBatchApp`, kept apart so the facade
stays readable. Each move also looks after what depends on the job: a person's
corrections, the registry results that use its documents, and a line in the log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docbatch_gui.domain.errors import InvalidTransition
from docbatch_gui.domain.messages import coded
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import FINAL_STATES, JobState, check_operator_move, state_words
from docbatch_gui.engine.documents import check_corrections, discard_documents
from docbatch_gui.engine.holds import BATCH_SENT, JobHold, retry_unreachable
from docbatch_gui.engine.job_log import log_operator

if TYPE_CHECKING:
    from docbatch_gui.registry.service import RegistryService
    from docbatch_gui.storage.store import Store


def retried_line(before: JobHold | None, after: JobHold | None) -> str:
    """What the log says of *Retry now*: the hold the job had, or the one it still
    has (a job held for a missing key stays held for it after the retry)."""
    if after is not None:
        return f"retried now, still held: {after.reason()}"
    why = before.reason() if before is not None else "Claude could not be reached"
    return f"retried now (it was held: {why})"


class JobMoves:
    @property
    def store(self) -> Store:  # DocBatchApp opens it on first use (a cached_property)
        raise NotImplementedError

    def hold_of(self, job: Job) -> JobHold | None:  # DocBatchApp says why a job is held
        raise NotImplementedError

    @property
    def registry(self) -> RegistryService:  # likewise
        raise NotImplementedError

    def retry(self, job_id: int, *, force: bool = False) -> Job:
        """Put a finished or failed job back in the queue for a new attempt.

        A job with documents a person corrected or confirmed needs ``force``
        (``CorrectionsAtRisk`` says why); the corrections are then carried over where
        the same document is found again (``engine.documents``). Registry results
        that use its documents are flagged stale until it is done again.
        """
        job = self.store.get_job(job_id)
        # a job held because Claude could not be reached: *Retry now* (`docbatch
        # retry` too, as held_actions "retry_now" says); an old hold never outlives
        # a retry either; a batch job whose batch is planned or at the API stays where
        # it is (the batch engine looks for its batch before creating it again)
        waiting = job.state is JobState.QUEUED or job.state in BATCH_SENT
        before = self.hold_of(job) if waiting else None
        if retry_unreachable(self.store, [job_id]) and waiting:
            log_operator(job, retried_line(before, self.hold_of(job)))
            return job
        check_operator_move(job_id, job.file_name, job.state, JobState.QUEUED)
        check_corrections(self.store, job_id, job.file_name, force=force)
        # a new round of automatic attempts; ``attempts`` itself still grows, as it
        # fences a worker of an older attempt (FAILED and the final states: none runs)
        queued = self.store.transition(
            job_id, JobState.QUEUED, attempt=job.attempts, error=None, retry_base=job.attempts
        )
        self._registry_stale(queued, "queued again")
        log_operator(queued, "queued again")
        return queued

    def cancel(self, job_id: int) -> Job:
        """Stop a job: a running one's child is stopped by its worker within a moment
        (``LocalWorker`` watches for this state), and a canceled job keeps no
        documents, so nothing of it reaches Review or a registry export."""
        job = self.store.get_job(job_id)
        check_operator_move(job_id, job.file_name, job.state, JobState.CANCELED)
        canceled = self.store.transition(
            job_id, JobState.CANCELED, error=coded("canceled_by_operator")
        )
        discard_documents(self.store, job_id)
        log_operator(canceled, "canceled")
        return canceled

    def reprocess(self, job_id: int, *, force: bool = False) -> Job:
        """Process a finished job or a duplicate again, as a new attempt.

        A duplicate stops pointing at its original and is processed in its own right.
        Answers already paid for are reused by the extraction step. Corrections are
        guarded and registry results flagged as in ``retry``.
        """
        job = self.store.get_job(job_id)
        if job.state not in FINAL_STATES:
            raise InvalidTransition.coded(
                "job_reprocess_running", {"file": job.file_name, "state": state_words(job.state)}
            )
        check_corrections(self.store, job_id, job.file_name, force=force)
        queued = self.store.transition(
            job_id,
            JobState.QUEUED,
            attempt=job.attempts,
            error=None,
            error_kind=None,
            duplicate_of=None,
            retry_base=job.attempts,  # a new round of automatic attempts, as in ``retry``
        )
        self._registry_stale(queued, "processed again")
        log_operator(queued, "queued to be processed again")
        return queued

    def _registry_stale(self, job: Job, what: str) -> None:
        ids = [d.id for d in self.store.list_documents(job.id) if d.id is not None]
        if ids:
            self.registry.mark_stale(
                ids, f"{job.file_name} (job {job.id}) is {what}; the match is checked again "
                "when it is done"
            )  # fmt: skip

    def delete(self, job_id: int, *, keep_documents: bool = False) -> None:
        """Forget a finished or queued job and its pages (blobs are shared by content
        and stay). Its documents go too, and registry rows that used them are matched
        again when next read; with ``keep_documents`` the job only leaves the queue
        and Review and the registry keep what it found."""
        job = self.store.get_job(job_id)
        if job.state not in FINAL_STATES and job.state is not JobState.QUEUED:
            raise InvalidTransition.coded(
                "job_delete_running", {"file": job.file_name, "state": state_words(job.state)}
            )
        if keep_documents and job.documents:
            self.store.update_job(job_id, archived=True)
            log_operator(job, "removed from the queue (its documents kept)")
            return
        self.store.delete_job(job_id)
        log_operator(job, "deleted with its documents")
