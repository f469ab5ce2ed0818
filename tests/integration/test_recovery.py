"""Nothing is lost: a crash or a kill mid-job leaves the job recoverable, no process
behind, and the next start finishes it."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.coordination.lock import WorkerLock
from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.states import JobState
from docbatch_gui.pipeline.child import STALL_MARKER_VARIABLE, STALL_VARIABLE
from docbatch_gui.settings.model import Settings
from tests import builders
from tests.helpers import LEAST_WAIT_S, REPO, child_processes, cli_json, wait_for

pytestmark = pytest.mark.slow  # processes killed mid-render and started again

#: The file's pages; its render child stalls on STALLED (a seam), so the test stops
#: the process mid-render however fast the machine is. (It was 300 pages, "long
#: enough" to still be rendering: a bet on the machine's speed.)
PAGES, STALLED = 12, 3


def start_rendering_a_big_file(tmp_path: Path, data: Path) -> subprocess.Popen[str]:
    """`docbatch process --wait` on a 12-page file, returned once its render child
    is stuck on page 3 (pages 1 and 2 rendered)."""
    big = builders.text_pdf(tmp_path / "big.pdf", pages=PAGES)
    marker = tmp_path / "stalled.txt"
    command = ["-m", "docbatch_gui.cli", "--data-dir", str(data), "process", str(big), "--wait"]
    process = subprocess.Popen(
        [sys.executable, *command],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "DOCBATCH_TEST_TAG": str(data),
             STALL_VARIABLE: f"big.pdf:{STALLED}", STALL_MARKER_VARIABLE: str(marker)},
    )  # fmt: skip

    # One cheap look per poll: the marker says the child runs and the job renders.
    # (Listing the machine's processes, as this did first, costs 39 ms of CPU: 20 times
    # a second, nearly a core per waiting test, which starved the CLIs they waited on.)
    def stalled() -> bool:
        assert process.poll() is None, process.communicate()
        return marker.exists()

    wait_for(stalled, what=f"the render child to stall on page {STALLED}")
    assert child_processes(str(data)) and job_state(data) == "preparing"
    return process


def job_state(data: Path) -> str | None:
    """The one job's state as stored, read without a process of our own."""
    try:
        with sqlite3.connect(f"file:{data / 'docbatch.sqlite3'}?mode=ro", uri=True) as db:
            row = db.execute("SELECT state FROM jobs").fetchone()
    except sqlite3.Error:  # not created yet, or busy this instant
        return None
    return row[0] if row else None


def test_interrupted_job_is_requeued_on_start(app: DocBatchApp, tmp_path: Path) -> None:
    pdf = builders.text_pdf(tmp_path / "a.pdf", pages=3)
    (job,) = app.add([pdf]).jobs
    app.store.claim(job.id, JobState.PREPARING)  # a worker took it, then "crashed"
    (job,) = asyncio.run(app.run([job.id]))
    assert job.state in (JobState.DONE, JobState.NEEDS_REVIEW)
    assert job.attempts == 2
    states = [e["to_state"] for e in app.store.job_events(job.id)]
    assert states[:4] == ["queued", "preparing", "queued", "preparing"]


def test_interruptions_are_not_the_files_fault_but_do_not_loop_forever(
    app: DocBatchApp, tmp_path: Path
) -> None:
    """A worker interrupted a few times (killed, restarted) just re-queues the job; a
    job interrupted MAX_INTERRUPTIONS times fails all the same (a safety net)."""
    from docbatch_gui.engine.worker import MAX_INTERRUPTIONS

    first, second = app.add(
        [builders.text_pdf(tmp_path / "a.pdf"), builders.text_pdf(tmp_path / "b.pdf", pages=2)]
    ).jobs
    for job, times in ((first, 4), (second, MAX_INTERRUPTIONS)):
        for _ in range(times - 1):
            app.store.claim(job.id, JobState.PREPARING)
            app.store.transition(job.id, JobState.QUEUED)
        app.store.claim(job.id, JobState.PREPARING)  # interrupted here, left behind
    done, failed = asyncio.run(app.run([first.id, second.id]))
    assert done.state in (JobState.DONE, JobState.NEEDS_REVIEW), done.error
    assert failed.state is JobState.FAILED
    assert failed.error_kind is ErrorKind.UNSUPPORTED
    assert f"interrupted {MAX_INTERRUPTIONS} times" in (failed.error or "")


def test_second_process_watches_while_the_lock_holder_works(
    settings: Settings, tmp_path: Path
) -> None:
    """With the worker lock held elsewhere (the GUI), `process --wait` does not
    process the job itself; it returns once the holder has finished it."""
    holder = WorkerLock(settings.data_dir)
    assert holder.acquire()
    app = DocBatchApp(settings)
    (job,) = app.add([builders.text_pdf(tmp_path / "a.pdf")]).jobs

    async def scenario() -> JobState:
        waiting = asyncio.create_task(app.run([job.id]))
        await asyncio.sleep(1.0)
        assert not waiting.done()
        assert app.store.get_job(job.id).state is JobState.QUEUED
        holder.release()  # the holder exits; the waiter takes over
        (finished,) = await asyncio.wait_for(waiting, LEAST_WAIT_S)  # a hang guard
        return finished.state

    assert asyncio.run(scenario()) in (JobState.DONE, JobState.NEEDS_REVIEW)
    app.close()


def test_sigkill_mid_render_loses_nothing_and_leaves_no_process(tmp_path: Path) -> None:
    data = tmp_path / "data"
    process = start_rendering_a_big_file(tmp_path, data)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    wait_for(lambda: not child_processes(str(data)), 10, "the child to die with its parent")
    (job,) = cli_json(data, "jobs")
    assert job["state"] == "preparing"  # exactly where it was; not lost, not "done"
    result = subprocess.run(
        [sys.executable, "-m", "docbatch_gui.cli", "--data-dir", str(data), "worker", "--once"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    (job,) = cli_json(data, "jobs")
    assert job["state"] in ("done", "needs_review")
    assert job["pages"] == PAGES and job["attempts"] == 2
    documents = json.loads(
        subprocess.run(
            [
                sys.executable,
                "-m",
                "docbatch_gui.cli",
                "--data-dir",
                str(data),
                "documents",
                "--json",
            ],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    assert documents and documents[-1]["page_to"] == PAGES


def test_sigterm_stops_at_once_and_requeues_running_jobs(tmp_path: Path) -> None:
    data = tmp_path / "data"
    process = start_rendering_a_big_file(tmp_path, data)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=240)  # a hang guard: the state says "at once"
    assert process.returncode == 1, stderr
    assert "Interrupted: 1 job left in the queue" in stderr, stderr
    (job,) = cli_json(data, "jobs")
    assert job["state"] == "queued", job  # it stopped mid-render, not after finishing
    # A spare child that was still starting when the signal came exits at its first
    # read of the closed pipe; give it a moment rather than racing it.
    wait_for(lambda: not child_processes(str(data)), 10, "no render child left")
