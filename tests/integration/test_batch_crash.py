"""kill -9 at every dangerous moment of batch mode: nothing is paid twice, nothing lost.

The worker runs as a real subprocess against the fake Anthropic server and kills
itself with SIGKILL at a named crash point (``DOCBATCH_CRASH_AT``). It is then
started again, without the crash, and must finish every job exactly once while the
fake server sees each request id submitted exactly once.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from docbatch_gui.engine.faults import POINTS
from tests.conftest import SAMPLES
from tests.fakes.anthropic_server import FakeAnthropic
from tests.helpers import REPO, child_processes, cli, wait_for

pytestmark = pytest.mark.slow  # a worker killed and started again per crash point

FILES = ["en_invoice_INV-2024-0042.pdf", "ru_three_documents.pdf", "scan_two_pages.tiff"]


def worker(data: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "docbatch_gui.cli", "--data-dir", str(data), "worker"],
        cwd=REPO,
        env={**os.environ, **env, "DOCBATCH_TEST_TAG": str(data)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def jobs(data: Path, env: dict[str, str]) -> list[dict]:
    result = cli(data, "jobs", "--json", env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def stored_states(data: Path) -> dict[str, str]:
    """Each job's state as stored, by file name: read directly, as polling through
    ``docbatch jobs`` would start a Python process every time."""
    try:
        with sqlite3.connect(f"file:{data / 'docbatch.sqlite3'}?mode=ro", uri=True) as db:
            return dict(db.execute("SELECT file_name, state FROM jobs").fetchall())
    except sqlite3.Error:  # busy this instant
        return {}


def all_finished(data: Path) -> bool:
    states = stored_states(data)
    return bool(states) and set(states.values()) <= {"done", "needs_review", "failed"}


def submitted_ids(fake: FakeAnthropic) -> list[str]:
    return [
        entry["custom_id"]
        for request in fake.requests
        if request.method == "POST" and request.path == "/v1/messages/batches"
        for entry in (request.json or {}).get("requests", [])
    ]


@pytest.mark.parametrize("point", sorted(POINTS))
def test_kill_9_never_pays_twice_nor_loses_a_job(
    point: str, tmp_path: Path, fake_anthropic: FakeAnthropic
) -> None:
    fake_anthropic.batch_polls_needed = 2
    data = tmp_path / "data"
    env = {
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": fake_anthropic.url,
        "POLL_INTERVAL": "0.1",
    }
    queued = cli(data, "process", *(str(SAMPLES / f) for f in FILES), "--mode", "batch", env=env)
    assert queued.returncode == 0, queued.stderr

    crashing = worker(data, {**env, "DOCBATCH_CRASH_AT": point})
    crashing.communicate(timeout=600)
    assert crashing.returncode == -signal.SIGKILL, f"never reached {point}"
    wait_for(lambda: not child_processes(str(data)), 60, "the children to die with it")

    survivor = worker(data, env)
    try:
        wait_for(
            lambda: all_finished(data),
            600,  # generous: a loaded machine is slow, the test waits for the event
            lambda: f"every job to finish: {stored_states(data)}",
            interval=0.2,
        )
    finally:
        survivor.send_signal(signal.SIGTERM)
        survivor.communicate(timeout=60)
    states = {j["file"]: j["state"] for j in jobs(data, env)}
    assert states == {
        "en_invoice_INV-2024-0042.pdf": "done",
        "ru_three_documents.pdf": "done",
        # read by Tesseract; its table's lines are not in the fake's answer to a scan's
        # OCR text, so lines_missing sends it to review (never done on its own)
        "scan_two_pages.tiff": "needs_review",
    }, survivor.stderr
    ids = submitted_ids(fake_anthropic)
    assert sorted(ids) == sorted(set(ids)), Counter(ids).most_common(3)
    assert len(ids) == 3
    finals = Counter()
    from docbatch_gui.storage.sqlite import SQLiteStore

    store = SQLiteStore(data / "docbatch.sqlite3")
    for job in store.list_jobs():
        for event in store.job_events(job.id):
            if event["to_state"] in ("done", "needs_review"):
                finals[job.id] += 1
        assert len(store.list_documents(job.id)) == job.documents > 0
    store.close()
    assert set(finals.values()) == {1}  # every job ended once
