"""A real Celery worker never crosses a budget cap: its paid requests reserve first.

For the month cap, jobs handed to Celery (``dispatch_queued``) skip the leader's
admission on purpose: what holds the cap is the reservation each task makes in the
shared store before every paid request, re-asks included (every first answer is
invalid). For the run cap, the dispatcher's gate admits the run and sends its id
with each task, so the workers' reservations count against that run. The figure
checked is what the fake Anthropic server billed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.domain.states import FINAL_STATES, JobState
from docbatch_gui.settings.loading import load_settings
from tests.fakes.anthropic_server import FakeAnthropic
from tests.helpers import REPO, wait_for
from tests.integration.test_budget_reservations import billed_usd, invoices, overshoot
from tests.peers import MotoS3

pytestmark = pytest.mark.slow


@pytest.fixture
def celery_env(
    tmp_path: Path, redis_url: str, moto_s3: MotoS3, fake_anthropic: FakeAnthropic
) -> dict[str, str]:
    return {
        "DOCBATCH_DATA_DIR": str(tmp_path / "data"),
        "REDIS_URL": redis_url,
        "CELERY_BROKER_URL": redis_url,
        "MINIO_ENDPOINT": moto_s3.endpoint,
        "MINIO_ACCESS_KEY": "test-key",
        "MINIO_SECRET_KEY": "test-secret",
        "MINIO_BUCKET": f"budget-{uuid.uuid4().hex[:10]}",
        "EXECUTION": "celery",
        "RENDER_WORKERS": "1",
        "OCR_ENGINE": "none",
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": fake_anthropic.url,
    }


@pytest.fixture
def worker(celery_env: dict[str, str], tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    log = open(tmp_path / "worker.log", "w")  # noqa: SIM115 - closed with the process
    process = subprocess.Popen(
        [sys.executable, "-m", "docbatch_gui.cli", "celery-worker", "--concurrency", "2",
         "--loglevel", "WARNING", "--name", "budget@%h"],
        cwd=REPO, env={**os.environ, **celery_env}, stdout=log, stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    yield process
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    log.close()


def _queued_under_a_cap(
    celery_env: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    variable: str,
    share: float,
    files: int,
) -> tuple[list[int], float]:
    """``files`` sync invoices queued, and the cap ``variable`` set to ``share`` of
    their forecast (in this process and in the worker's environment to come)."""
    from docbatch_gui.app.facade import DocBatchApp

    for name, value in celery_env.items():
        monkeypatch.setenv(name, value)
    app = DocBatchApp(load_settings())
    ids = [j.id for j in app.add(invoices(tmp_path / "in", files), mode="sync").jobs]
    limit = round(app.forecast(ids).usd * share, 6)
    app.close()
    monkeypatch.setenv(variable, str(limit))
    celery_env[variable] = str(limit)
    return ids, limit


def _answering_worker(request: pytest.FixtureRequest) -> Any:
    """The Celery worker, started with the cap in its environment, once it answers."""
    from docbatch_gui.distributed.celery_app import configure

    request.getfixturevalue("worker")
    celery = configure(load_settings())
    wait_for(lambda: celery.control.ping(timeout=0.5), 120, "the Celery worker to answer")
    return celery


def _billed_within(
    app: Any, celery: Any, tasks: list[str], ids: list[int], fake: FakeAnthropic,
    limit: float, what: str, log: Path,
) -> None:  # fmt: skip
    """Every task done, each job final or held, and the fake billed no more than ``limit``."""
    results = [celery.AsyncResult(t) for t in tasks]
    wait_for(lambda: all(r.ready() for r in results), 240, lambda: log.read_text())
    states = {app.store.get_job(i).state for i in ids}
    assert states <= FINAL_STATES | {JobState.QUEUED}, states
    billed = billed_usd(fake)
    overshoot(f"Celery worker, {what}", billed, limit)
    assert 0 < billed <= limit, (billed, limit)
    assert app.store.list_reservations() == []


def test_celery_workers_never_cross_the_month_cap(
    celery_env: dict[str, str],
    request: pytest.FixtureRequest,
    fake_anthropic: FakeAnthropic,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from docbatch_gui.app.facade import DocBatchApp
    from docbatch_gui.distributed.dispatch import dispatch_queued

    ids, limit = _queued_under_a_cap(celery_env, tmp_path, monkeypatch, "BUDGET_MONTH_USD", 1.05, 4)
    celery = _answering_worker(request)
    fake_anthropic.invalid_output_next(4)  # every first answer re-asked
    settings = load_settings()
    app = DocBatchApp(settings)
    try:
        tasks = dispatch_queued(app.store, settings, set())
        _billed_within(
            app, celery, tasks, ids, fake_anthropic, limit, "budget_month_usd",
            tmp_path / "worker.log",
        )  # fmt: skip
    finally:
        app.close()


def test_celery_workers_never_cross_the_run_cap(
    celery_env: dict[str, str],
    request: pytest.FixtureRequest,
    fake_anthropic: FakeAnthropic,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from docbatch_gui.app.facade import DocBatchApp
    from docbatch_gui.distributed.dispatch import dispatch_queued

    ids, limit = _queued_under_a_cap(celery_env, tmp_path, monkeypatch, "BUDGET_RUN_USD", 1.05, 4)
    celery = _answering_worker(request)
    fake_anthropic.invalid_output_next(4)  # every first answer re-asked: over the forecast
    settings = load_settings()
    app = DocBatchApp(settings)
    try:
        gate = app.budget_gate()
        tasks = dispatch_queued(app.store, settings, set(), gate)
        assert len(tasks) == 4  # the run's forecast is within its cap: all admitted
        assert len({gate.run_of(i) for i in ids}) == 1 and gate.run_of(ids[0])
        _billed_within(
            app, celery, tasks, ids, fake_anthropic, limit, "budget_run_usd",
            tmp_path / "worker.log",
        )  # fmt: skip
        assert app.store.run_spent(str(gate.run_of(ids[0]))) > 0  # counted against the run
    finally:
        app.close()


def test_a_run_over_its_cap_is_not_handed_to_celery(
    celery_env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docbatch_gui.app.facade import DocBatchApp
    from docbatch_gui.distributed.dispatch import dispatch_queued

    ids, _limit = _queued_under_a_cap(celery_env, tmp_path, monkeypatch, "BUDGET_RUN_USD", 0.5, 2)
    app = DocBatchApp(load_settings())
    try:
        gate = app.budget_gate()
        assert dispatch_queued(app.store, app.settings, set(), gate) == []  # no worker needed
        assert gate.hold is not None and gate.hold.code == "budget_run_cap"
        assert {app.store.get_job(i).state for i in ids} == {JobState.QUEUED}
    finally:
        app.close()
