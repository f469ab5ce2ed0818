"""The engine host without a window: drain, restart on new settings, resume after a
critical error stopped the queue."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.app.host import EngineHost, EngineState
from docbatch_gui.domain.errors import CriticalError
from docbatch_gui.domain.states import RECOVERABLE_STATES, SUCCESS_STATES, JobState
from docbatch_gui.engine.extractors import Offline
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.model import Settings
from tests import helpers
from tests.builders import text_pdf


def wait_for(predicate: Callable[[], bool], what: str, timeout: float = 120) -> None:
    """``tests.helpers.wait_for`` with the wait's description first: a hang guard,
    never failing sooner than ``LEAST_WAIT_S``."""
    helpers.wait_for(predicate, timeout, what)


@pytest.fixture
def host_settings(tmp_path: Path) -> Settings:
    """One job at a time, so that a second one stays queued while the first runs."""
    return load_settings(
        data_dir=tmp_path / "data",
        PROCESSING_MODE="offline",
        OCR_ENGINE="none",
        JOB_TIMEOUT=120,
        RENDER_WORKERS=1,
    )


@pytest.fixture
def host(host_settings: Settings) -> Iterator[EngineHost]:
    engine = EngineHost.for_settings(host_settings)
    yield engine
    engine.close()


def add(host: EngineHost, *paths: Path) -> list[int]:
    return [job.id for job in host.app.add(paths).jobs]


def state_of(host: EngineHost, job_id: int) -> JobState:
    return host.app.store.get_job(job_id).state


@pytest.mark.slow  # starts a render child
def test_drain_lets_the_running_job_finish_and_starts_no_other(
    host: EngineHost, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[EngineState] = []
    host.add_state_listener(seen.append)
    draining = threading.Event()
    host.add_state_listener(lambda state: state is EngineState.DRAINING and draining.set())
    extract = Offline.extract

    async def held_until_draining(self: Offline, ctx: Any, job: Any) -> Any:
        # The first job is still running when the drain is asked for, on any machine
        # (a 300-page file used to make it long enough, most of the time).
        assert await asyncio.to_thread(draining.wait, 60), "no drain was asked for"
        return await extract(self, ctx, job)

    monkeypatch.setattr(Offline, "extract", held_until_draining)
    first, second = add(
        host, text_pdf(tmp_path / "first.pdf"), text_pdf(tmp_path / "second.pdf", text="Other {n}")
    )
    host.start()
    wait_for(lambda: state_of(host, first) in RECOVERABLE_STATES, "the first job running")
    assert host.drain(timeout=120)
    job = host.app.store.get_job(first)
    assert job.state in SUCCESS_STATES and job.attempts == 1  # finished, not interrupted
    assert state_of(host, second) is JobState.QUEUED  # taken by nobody
    assert host.state is EngineState.STOPPED
    assert seen[:1] == [EngineState.RUNNING] and EngineState.DRAINING in seen
    assert seen[-1] is EngineState.STOPPED


@pytest.mark.slow  # starts a render child
def test_restart_opens_the_new_settings_and_keeps_the_queue(
    host: EngineHost, host_settings: Settings, tmp_path: Path
) -> None:
    host.pause()
    ids = add(host, text_pdf(tmp_path / "a.pdf"), text_pdf(tmp_path / "b.pdf", text="Other {n}"))
    host.start()
    wait_for(lambda: host.state is EngineState.PAUSED, "the paused state")
    old = host.app
    host.restart(host_settings.model_copy(update={"batch_size": 44}))
    assert host.app is not old and host.app.settings.batch_size == 44
    assert host.running and host.state is EngineState.PAUSED  # the flag is in the store
    assert [state_of(host, i) for i in ids] == [JobState.QUEUED, JobState.QUEUED]
    host.resume()
    wait_for(lambda: all(state_of(host, i) in SUCCESS_STATES for i in ids), "both jobs done")


# slow: two jobs and two flag polls (4 s) of the halted engine doing nothing
@pytest.mark.slow
def test_resume_after_a_critical_error_processes_the_next_job(
    host: EngineHost, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extract = Offline.extract
    calls: list[int] = []

    async def refused_once(self: Offline, ctx: Any, job: Any) -> Any:
        calls.append(job.id)
        if len(calls) == 1:
            raise CriticalError("Anthropic: your credit balance is too low")
        return await extract(self, ctx, job)

    monkeypatch.setattr(Offline, "extract", refused_once)
    first, second = add(
        host, text_pdf(tmp_path / "a.pdf"), text_pdf(tmp_path / "b.pdf", text="Other {n}")
    )
    announced: list[Any] = []
    host.add_job_listener(announced.append)
    host.start()
    wait_for(lambda: host.state is EngineState.HALTED, "the halt")
    assert host.halted is not None and "credit balance" in host.halted.text
    assert state_of(host, first) is JobState.FAILED
    # Halted, the engine takes nothing however long it waits: two passes of the flag
    # watcher on the engine's loop (FLAG_POLL_S apart) since the halt, so the loop had
    # a whole FLAG_POLL_S to take the job, and the halted host announced it queued.
    polls = host.flag_polls
    wait_for(lambda: host.flag_polls >= polls + 2, what="two flag polls while halted")
    assert host.state is EngineState.HALTED
    assert state_of(host, second) is JobState.QUEUED
    assert [j.state for j in announced if j.id == second] == [JobState.QUEUED]
    host.resume()  # the operator fixed the billing and pressed Resume
    wait_for(lambda: state_of(host, second) in SUCCESS_STATES, "the next job done")
    assert host.state is EngineState.RUNNING and host.halted is None
