"""Caps that hold by reservation, against the fake Anthropic server with latency.

Each paid request (a sync call, each re-ask of an invalid answer, an escalation, a
batch create) reserves its high-end estimate in the store first; the caps must hold
whatever the answers make the engine send after admission, and across processes.
The figure checked is the *billed* cost: the fake's ledger of what it answered,
priced by the catalogue, never DocBatch's own bookkeeping.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.budget import HOLD_KEY, allow_over_budget
from docbatch_gui.llm.catalogue import Usage, load_catalogue
from docbatch_gui.settings.model import Settings
from tests.builders import invoice_pdf
from tests.fakes.anthropic_server import FakeAnthropic
from tests.helpers import REPO, wait_for
from tests.routing_helpers import ESCALATION, FIRST, routed_profile

pytestmark = pytest.mark.slow  # whole runs against the fake

SUCCESS = {JobState.DONE, JobState.NEEDS_REVIEW}


def billed_usd(fake: FakeAnthropic) -> float:
    """What the fake would bill: every answered request, priced by the catalogue."""
    catalogue = load_catalogue()
    return round(
        sum(
            catalogue.cost(e.model, Usage.from_api(e.usage), batch=e.via != "sync") or 0.0
            for e in fake.billed()
            if e.usage
        ),
        6,
    )


def overshoot(what: str, billed: float, cap: float) -> None:
    """The figure the issue asks for, shown with ``pytest -s``."""
    print(f"{what}: billed ${billed:.6f}, cap ${cap:.6f}, overshoot ${max(0, billed - cap):.6f}")


def invoices(folder: Path, count: int, tag: str = "") -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    return [invoice_pdf(folder / f"inv{tag}{n}.pdf", number=f"{tag}{n}") for n in range(count)]


def opened(settings: Settings, **update: object) -> DocBatchApp:
    return DocBatchApp(settings.model_copy(update={"poll_interval": 0.05, **update}))


def run(app: DocBatchApp, ids: list[int]) -> list:
    return asyncio.run(app.run(ids))


def forecast_of(
    settings: Settings, files: list[Path], mode: str
) -> tuple[DocBatchApp, list[int], float]:
    app = opened(settings)
    ids = [j.id for j in app.add(files, mode=mode).jobs]
    usd = app.forecast(ids).usd
    app.close()
    return app, ids, usd


@pytest.mark.parametrize("cap", ["budget_month_usd", "budget_run_usd"])
def test_re_asks_never_cross_a_cap_and_the_rest_waits_until_it_is_raised(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path, cap: str
) -> None:
    files = invoices(tmp_path / "in", 6)
    _, ids, usd = forecast_of(claude_settings, files, "sync")
    limit = round(usd * 1.05, 6)  # the run is admitted: its forecast fits
    fake_anthropic.latency = 0.05
    fake_anthropic.invalid_output_next(6)  # each first answer is invalid: re-asked
    app = opened(claude_settings, **{cap: limit})
    jobs = run(app, ids)
    billed = billed_usd(fake_anthropic)
    overshoot(f"re-asks, {cap}", billed, limit)
    assert billed <= limit, (billed, limit)  # overshoot: none
    states = {j.state for j in jobs}
    assert states <= SUCCESS | {JobState.QUEUED}, [j.error for j in jobs]
    held = app.held
    code = "budget_month_cap" if cap == "budget_month_usd" else "budget_run_cap"
    assert JobState.QUEUED in states and held is not None and held.code == code
    waiting = sorted(j.id for j in jobs if j.state is JobState.QUEUED)
    assert set(waiting) <= set(held.jobs)
    assert "Raise the budget" in held.words()  # the admission's words
    assert app.store.list_reservations() == []  # every reservation released
    app.close()

    raised = opened(claude_settings, **{cap: 100.0})
    again = run(raised, waiting)
    assert {j.state for j in again} <= SUCCESS, [j.error for j in again]
    assert raised.store.get_setting(HOLD_KEY) is None
    raised.close()


def test_run_anyway_resumes_a_run_a_cap_stopped_mid_way(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    files = invoices(tmp_path / "in", 4)
    _, ids, usd = forecast_of(claude_settings, files, "sync")
    fake_anthropic.invalid_output_next(4)
    app = opened(claude_settings, budget_month_usd=round(usd * 1.05, 6))
    jobs = run(app, ids)
    waiting = [j.id for j in jobs if j.state is JobState.QUEUED]
    assert waiting
    allow_over_budget(app.store, waiting)  # `process --over-budget`, *Run anyway*
    app.close()
    anyway = opened(claude_settings, budget_month_usd=round(usd * 1.05, 6))
    assert {j.state for j in run(anyway, waiting)} <= SUCCESS
    anyway.close()


def test_escalations_never_cross_the_cap(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    files = invoices(tmp_path / "in", 4)
    app = opened(claude_settings)
    app.profile = routed_profile(tmp_path)  # type: ignore[misc]
    ids = [j.id for j in app.add(files, mode="sync").jobs]
    forecast = app.forecast(ids)  # usd: the first model's reading, escalation not in it
    app.close()
    fake_anthropic.answer_as(FIRST, confidence=0.4)  # unsure of everything: all escalate
    fake_anthropic.answer_as(ESCALATION, confidence=0.95)
    # room for the first readings and some escalations, not for all of them
    limit = round(forecast.usd + (forecast.high_usd - forecast.usd) / 2, 6)
    capped = opened(claude_settings, budget_month_usd=limit)
    capped.profile = routed_profile(tmp_path)  # type: ignore[misc]
    jobs = run(capped, ids)
    billed = billed_usd(fake_anthropic)
    overshoot("escalations, budget_month_usd", billed, limit)
    assert billed <= limit, (billed, limit)
    assert any(e.model == ESCALATION for e in fake_anthropic.billed())  # some escalated
    assert {j.state for j in jobs} <= SUCCESS | {JobState.QUEUED}
    capped.close()


def _process(data: Path, env: dict[str, str], files: list[Path]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "docbatch_gui.cli", "--data-dir", str(data), "process",
         *map(str, files), "--mode", "sync", "--wait"],
        cwd=REPO, env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip


def started(data: Path) -> bool:
    try:
        with sqlite3.connect(f"file:{data / 'docbatch.sqlite3'}?mode=ro", uri=True) as db:
            return bool(db.execute("SELECT 1 FROM jobs WHERE state != 'queued'").fetchall())
    except sqlite3.Error:  # not created yet, or busy this instant
        return False


def test_two_cli_processes_on_one_data_folder_never_cross_the_month_cap(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    first, second = invoices(tmp_path / "a", 3, "a"), invoices(tmp_path / "b", 3, "b")
    _, _, usd = forecast_of(claude_settings, first, "sync")
    limit = round(usd * 1.7, 6)  # each run fits alone; both together do not
    fake_anthropic.latency = 0.3  # the two runs' requests overlap at the API
    env = {
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": fake_anthropic.url,
        "BUDGET_MONTH_USD": str(limit),
    }
    data = tmp_path / "shared"
    runs = [_process(data, env, first)]
    # the second starts once the first run was admitted (its jobs left the queue), so
    # each is admitted alone, as runs started a little apart are
    wait_for(lambda: started(data), 120, "the first run to start")
    runs.append(_process(data, env, second))
    said = [p.communicate(timeout=300)[1] for p in runs]
    assert {p.returncode for p in runs} <= {0, 4}, said
    billed = billed_usd(fake_anthropic)
    overshoot("two CLI processes, budget_month_usd", billed, limit)
    assert 0 < billed <= limit, (billed, limit, said)
