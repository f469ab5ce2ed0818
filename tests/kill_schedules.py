"""Randomized kill schedules against batch mode, shared by the test and the bench.

A schedule (from its seed) is a list of kills: a crash point of the batch engine
(``engine.faults.POINTS``) and how many times the worker passes it before it dies. The
real ``docbatch worker`` process runs against the fake Anthropic server and kills
itself with SIGKILL at that moment (``DOCBATCH_CRASH_AT``, ``DOCBATCH_CRASH_HIT``): the
moments are events of the run, not timings. Then the next worker starts with the
next kill, and so on; a kill the run never reaches (every job already final) ends the
schedule, and a last worker without a kill finishes what is left. The fake's ledger
then says whether any request id was run twice with a billable outcome.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from docbatch_gui.engine.faults import POINTS
from tests.builders import invoice_pdf
from tests.fakes.anthropic_server import FakeAnthropic
from tests.helpers import REPO, child_processes, cli, wait_for

SUCCESS = {"done", "needs_review"}
FINAL = SUCCESS | {"failed", "timed_out", "canceled"}


def schedule(seed: int) -> list[tuple[str, int]]:
    """Three to seven kills: (crash point, the pass at which the worker dies), in the
    order a run passes the points."""
    rng = random.Random(seed)
    points = list(POINTS)  # a later kill is still ahead when the worker restarts
    kills = [(rng.choice(points), rng.randint(1, 3)) for _ in range(rng.randint(3, 7))]
    return sorted(kills, key=lambda kill: points.index(kill[0]))


@dataclass
class Outcome:
    seed: int
    kills: list[str] = field(default_factory=list)  # the points the worker died at
    paid_twice: dict[str, int] = field(default_factory=dict)
    states: dict[str, str] = field(default_factory=dict)
    most_attempts: int = 0  # the largest try count of a request record
    seconds: float = 0.0

    @property
    def good(self) -> bool:
        return (
            not self.paid_twice and set(self.states.values()) <= SUCCESS and self.most_attempts <= 1
        )


def stored(data: Path, sql: str) -> list[tuple[object, ...]]:
    try:
        with sqlite3.connect(f"file:{data / 'docbatch.sqlite3'}?mode=ro", uri=True) as db:
            return db.execute(sql).fetchall()
    except sqlite3.Error:  # busy this instant
        return []


def states(data: Path) -> dict[str, str]:
    return {
        str(name): str(state) for name, state in stored(data, "SELECT file_name, state FROM jobs")
    }


def all_final(data: Path) -> bool:
    found = states(data)
    return bool(found) and set(found.values()) <= FINAL


def _worker(data: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "docbatch_gui.cli", "--data-dir", str(data), "worker"],
        cwd=REPO,
        env={**os.environ, **env, "DOCBATCH_TEST_TAG": str(data)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _run_until_final_or_dead(data: Path, env: dict[str, str], deadline: float) -> int | None:
    """Run one worker until it dies (its return code) or every job is final (None)."""
    process = _worker(data, env)
    try:
        while process.poll() is None:
            if all_final(data):
                return None
            if time.monotonic() > deadline:
                raise TimeoutError(f"schedule over its time; jobs: {states(data)}")
            time.sleep(0.1)  # polling the store for the event, not waiting a time out
        return process.returncode
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=60)
        wait_for(lambda: not child_processes(str(data)), 20, "the children to die with it")


def run_schedule(
    seed: int, root: Path, fake: FakeAnthropic, *, files: int = 6, budget_s: float = 600
) -> Outcome:
    fake.reset()
    fake.batch_polls_needed = 2
    data = root / f"data-{seed}"
    inbox = root / f"in-{seed}"
    inbox.mkdir(parents=True)
    paths = [invoice_pdf(inbox / f"invoice_{n}.pdf", number=f"{seed}-{n}") for n in range(files)]
    env = {
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": fake.url,
        "POLL_INTERVAL": "0.1",
        "BATCH_MAX_REQUESTS": "2",  # several intents per run: kills between them too
    }
    queued = cli(data, "process", *map(str, paths), "--mode", "batch", env=env)
    if queued.returncode != 0:
        raise RuntimeError(queued.stderr)
    started = time.monotonic()
    deadline = started + budget_s
    outcome = Outcome(seed)
    for point, hit in schedule(seed):
        crash = {"DOCBATCH_CRASH_AT": point, "DOCBATCH_CRASH_HIT": str(hit)}
        code = _run_until_final_or_dead(data, {**env, **crash}, deadline)
        if code is None:
            break
        if code != -signal.SIGKILL:
            raise RuntimeError(f"worker ended with {code}, not killed at {point}")
        outcome.kills.append(point)
    if not all_final(data):
        _run_until_final_or_dead(data, env, deadline)
    outcome.seconds = round(time.monotonic() - started, 1)
    outcome.paid_twice = fake.paid_twice()
    outcome.states = states(data)
    attempts = stored(data, "SELECT MAX(json_extract(body, '$.attempts')) FROM requests")
    outcome.most_attempts = int(attempts[0][0] or 0) if attempts else 0
    return outcome
