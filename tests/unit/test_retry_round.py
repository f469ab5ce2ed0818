"""An operator's Retry (or Process again) gives a failed job a new round of automatic
attempts, while ``attempts`` keeps growing and fencing a stale worker's writes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.attempts import MAX_ATTEMPTS, automatic_attempt, retrying
from docbatch_gui.domain.errors import ErrorKind, InvalidTransition
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.recovery import recover_interrupted
from docbatch_gui.engine.worker import MAX_INTERRUPTIONS
from tests import builders


def failed_after(app: DocBatchApp, job_id: int, attempts: int) -> None:
    """The job failed at its ``attempts``-th attempt (the count set directly: what
    the earlier attempts did is not the point here)."""
    app.store.claim(job_id, JobState.PREPARING)
    app.store.update_job(job_id, attempts=attempts)
    app.store.transition(
        job_id, JobState.FAILED, attempt=attempts, error_kind=ErrorKind.RETRYABLE, error="x"
    )


def test_retry_starts_a_new_round_and_an_old_attempt_is_still_refused(
    app: DocBatchApp, tmp_path: Path
) -> None:
    (job,) = app.add([builders.text_pdf(tmp_path / "a.pdf")]).jobs
    failed_after(app, job.id, MAX_ATTEMPTS)
    retried = app.retry(job.id)
    assert (retried.attempts, retried.retry_base) == (MAX_ATTEMPTS, MAX_ATTEMPTS)
    claimed = app.store.claim(job.id, JobState.PREPARING)
    assert claimed is not None and automatic_attempt(claimed) == 1
    assert not retrying(claimed)  # the first of the new round: no "try 1/3"
    with pytest.raises(InvalidTransition):  # a worker of the attempt before the Retry
        app.store.update_job(job.id, attempt=MAX_ATTEMPTS, progress=0.5)
    app.store.transition(job.id, JobState.QUEUED, attempt=claimed.attempts)  # automatic
    second = app.store.claim(job.id, JobState.PREPARING)
    assert second is not None and retrying(second) and automatic_attempt(second) == 2


def test_process_again_starts_a_new_round_too(app: DocBatchApp, tmp_path: Path) -> None:
    (job,) = app.add([builders.text_pdf(tmp_path / "a.pdf")]).jobs
    failed_after(app, job.id, 5)
    again = app.reprocess(job.id)
    assert (again.attempts, again.retry_base) == (5, 5)


def test_an_interruption_after_a_retry_counts_from_the_retry(
    app: DocBatchApp, tmp_path: Path
) -> None:
    """A job failed once for being interrupted MAX_INTERRUPTIONS times, then retried
    by the operator and interrupted once more, goes back to the queue."""
    (job,) = app.add([builders.text_pdf(tmp_path / "a.pdf")]).jobs
    failed_after(app, job.id, MAX_INTERRUPTIONS)
    app.retry(job.id)
    app.store.claim(job.id, JobState.PREPARING)  # interrupted here, left behind
    (recovered,) = recover_interrupted(app.store, max_attempts=MAX_INTERRUPTIONS)
    assert recovered.state is JobState.QUEUED
    assert recovered.attempts == MAX_INTERRUPTIONS + 1  # still growing: the fence
    for _ in range(MAX_INTERRUPTIONS - 1):  # the net still holds within the new round
        app.store.claim(job.id, JobState.PREPARING)
        (recovered,) = recover_interrupted(app.store, max_attempts=MAX_INTERRUPTIONS)
    assert recovered.state is JobState.FAILED
    assert f"interrupted {MAX_INTERRUPTIONS} times" in (recovered.error or "")


def test_the_attempt_is_counted_from_the_retry_base(app: DocBatchApp, tmp_path: Path) -> None:
    (job,) = app.add([builders.text_pdf(tmp_path / "a.pdf")]).jobs
    at_work = replace(app.store.get_job(job.id), state=JobState.EXTRACTING)
    assert not retrying(replace(at_work, attempts=4))  # past the round: not automatic
    assert retrying(replace(at_work, attempts=5, retry_base=3))
    assert automatic_attempt(replace(at_work, attempts=5, retry_base=3)) == 2
