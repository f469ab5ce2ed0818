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


def test_celery_workers_never_cross_the_month_cap(
    celery_env: dict[str, str],
    request: pytest.FixtureRequest,
    fake_anthropic: FakeAnthropic,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from docbatch_gui.app.facade import DocBatchApp
    from docbatch_gui.distributed.celery_app import configure
    from docbatch_gui.distributed.dispatch import dispatch_queued

    for name, value in celery_env.items():
        monkeypatch.setenv(name, value)
    files = invoices(tmp_path / "in", 4)
    app = DocBatchApp(load_settings())
    ids = [j.id for j in app.add(files, mode="sync").jobs]
    limit = round(app.forecast(ids).usd * 1.05, 6)
    app.close()
    monkeypatch.setenv("BUDGET_MONTH_USD", str(limit))
    celery_env["BUDGET_MONTH_USD"] = str(limit)
    request.getfixturevalue("worker")  # started with the cap in its environment
    settings = load_settings()
    celery = configure(settings)
    wait_for(lambda: celery.control.ping(timeout=0.5), 120, "the Celery worker to answer")
    fake_anthropic.invalid_output_next(4)  # every first answer re-asked
    app = DocBatchApp(settings)
    try:
        tasks = dispatch_queued(app.store, settings, set())
        results = [celery.AsyncResult(t) for t in tasks]
        wait_for(
            lambda: all(r.ready() for r in results),
            240,
            lambda: (tmp_path / "worker.log").read_text(),
        )
        states = {app.store.get_job(i).state for i in ids}
        assert states <= FINAL_STATES | {JobState.QUEUED}, states
        billed = billed_usd(fake_anthropic)
        overshoot("Celery worker, budget_month_usd", billed, limit)
        assert 0 < billed <= limit, (billed, limit)
        assert app.store.list_reservations() == []
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
    from docbatch_gui.distributed.celery_app import configure
    from docbatch_gui.distributed.dispatch import dispatch_queued

    for name, value in celery_env.items():
        monkeypatch.setenv(name, value)
    files = invoices(tmp_path / "in", 4)
    app = DocBatchApp(load_settings())
    ids = [j.id for j in app.add(files, mode="sync").jobs]
    limit = round(app.forecast(ids).usd * 1.05, 6)
    app.close()
    monkeypatch.setenv("BUDGET_RUN_USD", str(limit))
    celery_env["BUDGET_RUN_USD"] = str(limit)
    request.getfixturevalue("worker")  # started with the cap in its environment
    settings = load_settings()
    celery = configure(settings)
    wait_for(lambda: celery.control.ping(timeout=0.5), 120, "the Celery worker to answer")
    fake_anthropic.invalid_output_next(4)  # every first answer re-asked: over the forecast
    app = DocBatchApp(settings)
    try:
        gate = app.budget_gate()
        tasks = dispatch_queued(app.store, settings, set(), gate)
        assert len(tasks) == 4  # the run's forecast is within its cap: all admitted
        assert len({gate.run_of(i) for i in ids}) == 1 and gate.run_of(ids[0])
        results = [celery.AsyncResult(t) for t in tasks]
        wait_for(
            lambda: all(r.ready() for r in results),
            240,
            lambda: (tmp_path / "worker.log").read_text(),
        )
        states = {app.store.get_job(i).state for i in ids}
        assert states <= FINAL_STATES | {JobState.QUEUED}, states
        billed = billed_usd(fake_anthropic)
        overshoot("Celery worker, budget_run_usd", billed, limit)
        assert 0 < billed <= limit, (billed, limit)
        assert app.store.run_spent(str(gate.run_of(ids[0]))) > 0  # counted against the run
        assert app.store.list_reservations() == []
    finally:
        app.close()


def test_a_run_over_its_cap_is_not_handed_to_celery(
    celery_env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docbatch_gui.app.facade import DocBatchApp
    from docbatch_gui.distributed.dispatch import dispatch_queued

    for name, value in celery_env.items():
        monkeypatch.setenv(name, value)
    files = invoices(tmp_path / "in", 2)
    app = DocBatchApp(load_settings())
    ids = [j.id for j in app.add(files, mode="sync").jobs]
    limit = round(app.forecast(ids).usd / 2, 6)
    app.close()
    monkeypatch.setenv("BUDGET_RUN_USD", str(limit))
    app = DocBatchApp(load_settings())
    try:
        gate = app.budget_gate()
        assert dispatch_queued(app.store, app.settings, set(), gate) == []  # no worker needed
        assert gate.hold is not None and gate.hold.code == "budget_run_cap"
        assert {app.store.get_job(i).state for i in ids} == {JobState.QUEUED}
    finally:
        app.close()
