"""Leases, not guesses: a new leader leaves running Celery work alone, each data store
has its own leader, and an unusable Redis stops the queue with a sentence."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from docbatch_gui.coordination.workload import RedisWorkload
from docbatch_gui.domain.models import NewJob
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.recovery import recover_interrupted
from docbatch_gui.storage.sqlite import SQLiteStore
from tests.conftest import SAMPLES
from tests.helpers import REPO, cli, closed_port, wait_for


def test_recovery_requeues_only_jobs_whose_lease_is_gone(tmp_path: Path, redis_url: str) -> None:
    store = SQLiteStore(tmp_path / "db.sqlite3")
    running, orphan = (store.create_job(NewJob(f"{n}.pdf", f"/{n}.pdf", n * 64, 1))
                       for n in "ab")  # fmt: skip
    for job in (running, orphan):
        store.transition(job.id, JobState.PREPARING, expected=JobState.QUEUED)
    workload = RedisWorkload(redis_url)
    holding, release = threading.Event(), threading.Event()

    def celery_task() -> None:  # what process_job holds while it runs
        with workload.track_task("job_processing", running.id):
            holding.set()
            release.wait(30)

    task = threading.Thread(target=celery_task)
    task.start()
    try:
        assert holding.wait(10)
        recovered = recover_interrupted(
            store, max_attempts=5, leased=lambda job_id: workload.holds("job_processing", job_id)
        )
        assert [j.id for j in recovered] == [orphan.id]
        assert store.get_job(running.id).state is JobState.PREPARING  # left running
        assert store.get_job(orphan.id).state is JobState.QUEUED
    finally:
        release.set()
        task.join()
    assert not workload.holds("job_processing", running.id)


@pytest.mark.slow  # a worker process, three CLI runs and a whole job
def test_two_workstations_on_one_redis_each_process_their_own_queue(
    tmp_path: Path, redis_url: str
) -> None:
    env = {"REDIS_URL": redis_url, "PROCESSING_MODE": "offline", "POLL_INTERVAL": "0.5"}
    first = tmp_path / "first"
    assert cli(first, "jobs", env=env).returncode == 0  # its data folder exists
    # the first workstation's worker runs (and leads its own queue) the whole time
    worker = subprocess.Popen(
        [sys.executable, "-m", "docbatch_gui.cli", "--data-dir", str(first), "worker"],
        cwd=REPO, env={**os.environ, **env}, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        wait_for(lambda: worker.poll() is None and _leaders(redis_url) == 1, 60,
                 "the first worker to lead its queue")  # fmt: skip
        second = cli(tmp_path / "second", "process", str(SAMPLES / "scan_two_pages.tiff"),
                     "--wait", "--mode", "offline", env={**env, "OCR_ENGINE": "none"},
                     timeout=300)  # fmt: skip
        assert second.returncode == 0, second.stderr
        assert _leaders(redis_url) >= 1
    finally:
        worker.terminate()
        worker.communicate(timeout=60)


def _leaders(url: str) -> int:
    import redis

    client = redis.Redis.from_url(url)
    try:
        return len(client.keys("docbatch:leader:batch-loop:*"))
    finally:
        client.close()


@pytest.mark.slow  # a CLI process; the lease recovery above stays in the fast loop
def test_an_unreachable_redis_stops_process_wait_with_a_sentence(tmp_path: Path) -> None:
    env = {"REDIS_URL": f"redis://127.0.0.1:{closed_port()}/0", "PROCESSING_MODE": "offline"}
    result = cli(tmp_path / "data", "process", str(SAMPLES / "en_invoice_INV-2024-0042.pdf"),
                 "--wait", env=env, timeout=120)  # fmt: skip
    assert result.returncode != 0
    assert "cannot be used" in result.stderr and "REDIS_URL" in result.stderr
    assert "Traceback" not in result.stderr
