"""The forecast and the budget caps, against the wire-level fake Anthropic server.

A run over a cap must be held before anything reaches the API (not even the free
``count_tokens``), in sync and in batch mode; new settings with a raised cap (what
the Settings tab saves) or the operator's *run anyway* let it go. The forecast's
range must hold the actual cost the answers' ``usage`` gave.
"""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.budget import HOLD_KEY, Forecaster, month_start
from docbatch_gui.settings.model import Settings
from tests.conftest import SAMPLES
from tests.fakes.anthropic_server import FakeAnthropic
from tests.helpers import cli
from tests.routing_helpers import ESCALATION, FIRST, routed_profile

pytestmark = pytest.mark.slow  # whole runs against the fake

FILES = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".pdf", ".tiff", ".jpg"))
SUCCESS = (JobState.DONE, JobState.NEEDS_REVIEW)


def opened(settings: Settings, **update: object) -> DocBatchApp:
    return DocBatchApp(settings.model_copy(update={"poll_interval": 0.05, **update}))


def queue(app: DocBatchApp, mode: str) -> list[int]:
    return [j.id for j in app.add(FILES, mode=mode).jobs]


def run(app: DocBatchApp, ids: list[int]) -> list:
    return asyncio.run(app.run(ids))


@pytest.mark.parametrize("mode", ["sync", "batch"])
def test_a_run_over_the_run_cap_sends_nothing_until_the_cap_is_raised(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, mode: str
) -> None:
    app = opened(claude_settings, budget_run_usd=0.001)
    ids = queue(app, mode)
    forecast = app.forecast(ids)
    assert forecast.usd > 0.001
    jobs = run(app, ids)
    assert {j.state for j in jobs} == {JobState.QUEUED}
    assert fake_anthropic.requests == []  # no request of any kind reached the API
    assert all(app.store.list_pages(i) == [] for i in ids)  # not even rendered
    held = app.held
    assert held is not None and held.code == "budget_run_cap"
    assert sorted(held.jobs) == sorted(ids) and held.cap_usd == 0.001
    assert held.usd == pytest.approx(forecast.usd)
    assert "budget per run of $0.0010" in held.words() and "Nothing was sent" in held.words()
    assert "бюджета на запуск" in held.words("ru")
    assert app.budget().hold == held  # what the window and `docbatch budget` show
    app.close()

    raised = opened(claude_settings, budget_run_usd=100.0)
    jobs = run(raised, ids)
    assert {j.state for j in jobs} <= set(SUCCESS), [j.error for j in jobs]
    assert raised.held is None and raised.store.get_setting(HOLD_KEY) is None
    sent = "/v1/messages" if mode == "sync" else "/v1/messages/batches"
    assert fake_anthropic.count("POST", sent) >= 1
    raised.close()


def test_the_month_cap_counts_this_months_spend_and_run_anyway_lets_it_go(
    claude_settings: Settings, fake_anthropic: FakeAnthropic
) -> None:
    app = opened(claude_settings, budget_month_usd=5.0)
    start = month_start()
    app.store.record_spend(4.999, at=start + timedelta(seconds=1))
    app.store.record_spend(50.0, at=start - timedelta(seconds=1))  # last month: not counted
    assert app.budget().spent_usd == pytest.approx(4.999)
    assert app.budget().left_usd == pytest.approx(0.001)
    ids = queue(app, "batch")
    jobs = run(app, ids)
    assert {j.state for j in jobs} == {JobState.QUEUED}
    assert fake_anthropic.requests == []
    assert app.held is not None and app.held.code == "budget_month_cap"
    assert app.held.spent_usd == pytest.approx(4.999)
    lifted = app.allow_over_budget()  # the operator's "run anyway"
    assert lifted is not None and app.budget().hold is None
    jobs = run(app, ids)
    assert {j.state for j in jobs} <= set(SUCCESS), [j.error for j in jobs]
    assert fake_anthropic.count("POST", "/v1/messages/batches") == 1
    paid = sum(j.cost_actual_usd or 0.0 for j in jobs)
    assert paid > 0
    # the month's spend is the ledger of actual costs: what was there, plus this run
    assert app.budget().spent_usd == pytest.approx(4.999 + paid, abs=1e-5)
    app.close()


@pytest.mark.parametrize("mode", ["sync", "batch"])
def test_the_forecast_range_holds_the_actual_cost(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, mode: str
) -> None:
    app = opened(claude_settings)
    ids = queue(app, mode)
    forecast = app.forecast(ids)
    assert forecast.jobs == len(FILES) and forecast.pages >= len(FILES)
    assert forecast.low_usd < forecast.usd < forecast.high_usd
    jobs = run(app, ids)
    assert {j.state for j in jobs} <= set(SUCCESS), [j.error for j in jobs]
    actual = sum(j.cost_actual_usd or 0.0 for j in jobs)
    assert forecast.low_usd <= actual <= forecast.high_usd, (forecast, actual)
    assert app.budget().spent_usd == pytest.approx(actual, abs=1e-5)
    # rendered now: the same jobs forecast again know their pages
    again = app.forecaster.forecast(jobs)
    assert again.rendered_pages == again.pages == forecast.pages
    app.close()


@pytest.mark.parametrize("mode", ["sync", "batch"])
def test_with_routing_the_range_holds_a_run_where_every_document_escalates(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path, mode: str
) -> None:
    app = opened(claude_settings)
    app.profile = routed_profile(tmp_path)  # type: ignore[misc]
    fake_anthropic.answer_as(FIRST, confidence=0.4)  # unsure of everything: all escalate
    fake_anthropic.answer_as(ESCALATION, confidence=0.95)
    ids = queue(app, mode)
    forecast = app.forecast(ids)
    unrouted = Forecaster(
        app.store, app.blobs, app.settings, routed_profile(tmp_path, escalation=None)
    ).forecast(app.jobs(ids))
    assert forecast.usd == pytest.approx(unrouted.usd)  # the first model reads every page
    assert forecast.high_usd > unrouted.high_usd  # and the high end reads them all again
    jobs = run(app, ids)
    assert {j.state for j in jobs} <= set(SUCCESS), [j.error for j in jobs]
    assert all(j.escalated for j in jobs)
    actual = sum(j.cost_actual_usd or 0.0 for j in jobs)
    assert actual > unrouted.high_usd  # escalation cost what the unrouted range left out
    assert forecast.low_usd <= actual <= forecast.high_usd, (forecast, actual)
    app.close()


def test_cli_process_prints_the_forecast_and_stops_at_a_cap(
    tmp_path: Path, fake_anthropic: FakeAnthropic
) -> None:
    env = {
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": fake_anthropic.url,
        "BUDGET_RUN_USD": "0.0001",
        "POLL_INTERVAL": "0.1",
    }
    data = tmp_path / "data"
    invoice = str(SAMPLES / "en_invoice_INV-2024-0042.pdf")
    held = cli(data, "process", invoice, "--mode", "sync", "--wait", "--json", env=env)
    assert held.returncode == 4, held.stderr  # refused in the current state
    assert "Forecast: $" in held.stderr and "cache hit to miss" in held.stderr
    assert "budget per run of $0.0001" in held.stderr
    (row,) = json.loads(held.stdout)
    assert row["state"] == "queued" and row["held_by"] == "budget_run_cap"
    assert set(row["forecast"]) >= {"usd", "low_usd", "high_usd", "pages"}
    assert row["forecast"]["pages"] == 1 and row["forecast"]["usd"] > 0.0001
    assert fake_anthropic.requests == []

    status = json.loads(cli(data, "budget", "--json", env=env).stdout)
    assert set(status) >= {"month", "spent_usd", "month_cap_usd", "run_cap_usd", "left_usd"}
    assert status["spent_usd"] == 0 and status["run_cap_usd"] == 0.0001
    assert status["month_cap_usd"] is None and status["left_usd"] is None
    assert status["held"]["code"] == "budget_run_cap"

    worker = cli(data, "worker", "--once", env={**env, "BUDGET_RUN_USD": "10"})
    assert worker.returncode == 0, worker.stderr
    status = json.loads(cli(data, "budget", "--json", env=env).stdout)
    assert status["held"] is None and status["spent_usd"] > 0
    text = cli(data, "budget", env={**env, "BUDGET_MONTH_USD": "20"})
    assert "Budget per month: $20.00" in text.stdout and "Left this month:" in text.stdout
