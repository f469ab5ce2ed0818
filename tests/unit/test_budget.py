"""The budget's rules without a server: which cap a forecast crosses, the gate's
decision over a real store, run anyway, and the month's bounds.

Nothing here renders or sends: the gate forecasts from the files' page counts, as it
does before a run (tests/integration/test_budget.py runs it against the fake API).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from docbatch_gui.app.budget import budget_status
from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.states import ProcessingMode
from docbatch_gui.engine.budget import (
    ALLOW_KEY,
    HOLD_KEY,
    BudgetGate,
    Forecast,
    Hold,
    allow_over_budget,
    month_label,
    month_start,
    over_cap,
    usd_text,
)
from docbatch_gui.settings.loading import load_settings
from tests.conftest import SAMPLES

INVOICE = SAMPLES / "en_invoice_INV-2024-0042.pdf"
RUSSIAN = SAMPLES / "ru_three_documents.pdf"  # four pages


def app_with(tmp_path: Path, **caps: float) -> DocBatchApp:
    values = {k.upper(): v for k, v in caps.items()}
    settings = load_settings(data_dir=tmp_path / "data", ANTHROPIC_API_KEY="x", **values)
    return DocBatchApp(settings)


def test_which_cap_a_forecast_crosses(tmp_path: Path) -> None:
    forecast = Forecast(2.0, 1.0, 4.0)
    none = load_settings(data_dir=tmp_path)
    assert over_cap(none, forecast, spent=1000.0) is None  # 0: no cap
    run = load_settings(data_dir=tmp_path, BUDGET_RUN_USD=1.5)
    assert over_cap(run, forecast, spent=0.0) == ("budget_run_cap", 1.5)
    assert over_cap(load_settings(data_dir=tmp_path, BUDGET_RUN_USD=2.0), forecast, 0) is None
    month = load_settings(data_dir=tmp_path, BUDGET_MONTH_USD=10)
    assert over_cap(month, forecast, spent=8.0) is None  # 8 + 2 is not over 10
    assert over_cap(month, forecast, spent=8.01) == ("budget_month_cap", 10.0)


def test_money_reads_in_cents_or_below_a_cent() -> None:
    assert usd_text(0) == "0.00" and usd_text(1234.5) == "1,234.50"
    assert usd_text(0.00123) == "0.0012"


def test_the_gate_holds_a_run_over_a_cap_then_lets_it_go_once(tmp_path: Path) -> None:
    app = app_with(tmp_path, budget_run_usd=0.0001)
    jobs = app.add([INVOICE, RUSSIAN], mode="sync").jobs
    offline = app.add([SAMPLES / "scan_two_pages.tiff"], mode="offline").jobs
    gate = BudgetGate(app.forecaster)
    admitted = gate.admit(app.jobs())
    assert [j.id for j in admitted] == [offline[0].id]  # offline work is never held
    hold = gate.hold
    assert hold is not None and hold.code == "budget_run_cap"
    assert sorted(hold.jobs) == sorted(j.id for j in jobs) and hold.pages == 5
    assert hold.low_usd <= hold.usd <= hold.high_usd
    assert Hold.from_dict(app.store.get_setting(HOLD_KEY)) == hold
    assert budget_status(app.store, app.settings).hold == hold
    # asked again with nothing new, the same hold stands (no second log line)
    assert gate.admit(app.jobs()) == admitted and gate.hold == hold

    assert allow_over_budget(app.store) == hold  # run anyway
    assert app.store.get_setting(HOLD_KEY) is None
    assert {j.id for j in gate.admit(app.jobs())} == {j.id for j in app.jobs()}
    assert gate.hold is None and app.store.get_setting(ALLOW_KEY) is None  # used up
    # a file added later is a new run, checked on its own
    later = app.add([SAMPLES / "photo_invoice_sideways.jpg"], mode="batch").jobs[0]
    assert later.mode is ProcessingMode.BATCH
    assert later.id not in {j.id for j in gate.admit(app.jobs())}
    assert gate.hold is not None and gate.hold.jobs == [later.id]
    app.close()


def test_a_raised_cap_admits_the_run(tmp_path: Path) -> None:
    app = app_with(tmp_path, budget_month_usd=1.0)
    app.store.record_spend(0.99999, at=month_start() + timedelta(minutes=1))
    app.add([INVOICE], mode="batch")
    assert BudgetGate(app.forecaster).admit(app.jobs()) == []
    held = app.budget().hold
    assert held is not None and held.code == "budget_month_cap"
    app.close()
    raised = app_with(tmp_path, budget_month_usd=2.0)  # what new settings open
    assert len(BudgetGate(raised.forecaster).admit(raised.jobs())) == 1
    assert raised.budget().hold is None
    raised.close()


def test_the_month_is_the_operators_calendar_month() -> None:
    now = datetime(2026, 12, 15, 12, tzinfo=UTC)
    start = month_start(now)
    assert start.astimezone().day == 1 and start.astimezone().hour == 0
    assert start <= now < start + timedelta(days=32)
    assert month_label(now) == start.astimezone().strftime("%Y-%m")


def test_left_is_what_the_month_cap_leaves(tmp_path: Path) -> None:
    app = app_with(tmp_path, budget_month_usd=3.0, budget_run_usd=1.0)
    app.store.record_spend(1.25)
    app.store.record_spend(9.0, at=month_start() - timedelta(seconds=1))  # last month
    status = app.budget()
    assert status.spent_usd == pytest.approx(1.25) and status.left_usd == pytest.approx(1.75)
    assert status.as_dict() == {
        "month": month_label(),
        "spent_usd": pytest.approx(1.25),
        "month_cap_usd": 3.0,
        "run_cap_usd": 1.0,
        "left_usd": pytest.approx(1.75),
        "held": None,
    }
    app.close()


def test_a_hold_nothing_holds_any_more_is_dropped(tmp_path: Path) -> None:
    app = app_with(tmp_path, budget_run_usd=0.0001)
    (job,) = app.add([INVOICE], mode="sync").jobs
    BudgetGate(app.forecaster).admit(app.jobs())
    assert app.budget().hold is not None
    app.close()
    # the next engine has no caps: the hold the last one left is not shown any more
    free = app_with(tmp_path)
    assert free.budget().hold is not None
    assert [j.id for j in BudgetGate(free.forecaster).admit(free.jobs())] == [job.id]
    assert free.budget().hold is None
    free.close()
    # a held run whose jobs were canceled holds nothing
    capped = app_with(tmp_path, budget_run_usd=0.0001)
    gate = BudgetGate(capped.forecaster)
    assert gate.admit(capped.jobs()) == [] and capped.budget().hold is not None
    capped.cancel(job.id)
    assert gate.admit(capped.jobs()) == []
    assert capped.budget().hold is None and gate.hold is None
    capped.close()
