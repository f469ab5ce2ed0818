"""The budget in the window: the queue's forecast line, a run held by a cap (shown
plainly, with Raise the cap and Run anyway), and the Batches tab's budget line.

The window runs its real engine against the fake Anthropic server; a held run must
send nothing until the operator acts.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from PySide6.QtCore import QSettings

from docbatch_gui.domain.states import SUCCESS_STATES, JobState
from docbatch_gui.settings.loading import load_settings
from tests.conftest import SAMPLES
from tests.fakes.anthropic_server import FakeAnthropic
from tests.gui.conftest import opened_window, signal_future, until

pytestmark = [pytest.mark.asyncio(loop_factories=["qasync"]), pytest.mark.slow]

INVOICE = SAMPLES / "en_invoice_INV-2024-0042.pdf"
RUSSIAN = SAMPLES / "ru_three_documents.pdf"


@pytest_asyncio.fixture
async def capped(
    tmp_path: Path, qsettings: QSettings, fake_anthropic: FakeAnthropic
) -> AsyncIterator[Any]:
    """The window in sync mode against the fake, with a budget per run of $0.0001."""
    settings = load_settings(
        data_dir=tmp_path / "data",
        PROCESSING_MODE="sync",
        OCR_ENGINE="none",
        ANTHROPIC_API_KEY="test-key",
        ANTHROPIC_BASE_URL=fake_anthropic.url,
        JOB_TIMEOUT=60,
        RENDER_WORKERS=2,
        BUDGET_RUN_USD=0.0001,
    )
    async with opened_window(settings, qsettings) as win:
        yield win


async def test_a_held_run_is_shown_with_its_forecast_and_raising_the_cap_runs_it(
    capped: Any, fake_anthropic: FakeAnthropic
) -> None:
    window = capped
    bar = window.queue_tab.budget_bar
    await window.queue_tab.add_paths([INVOICE, RUSSIAN])
    # the forecast line, for the queued files, before anything is sent
    await until(lambda: bar.forecast_shown, what="the forecast line")
    line = bar.forecast_label.text()
    assert "Forecast for 2 queued files, 5 pages" in line and "sync" in line, line
    assert "$" in line and " to $" in line
    assert "cache" in bar.forecast_label.toolTip()
    # the engine holds the run: the notice says what it would cost and which cap
    await until(lambda: not bar.hold_box.isHidden(), what="the held-run notice")
    notice = bar.hold_text.text()
    assert "budget per run of $0.0001" in notice and "Nothing was sent" in notice, notice
    assert bar.raise_button.isVisible() and bar.run_anyway_button.isVisible()
    assert fake_anthropic.requests == []
    store = window.ctx.app.store
    assert {j.state for j in store.list_jobs()} == {JobState.QUEUED}
    # the Batches tab says it too, beside the month's spend and the caps
    await window.batches_tab.refresh(full=True)
    budget_line = window.batches_tab.budget_line.text()
    assert "per run <b>$0.0001</b>" in budget_line and "held by the budget" in budget_line

    saved = signal_future(bar.settings_saved)
    await bar.raise_cap(5.0)
    (settings,) = await saved
    assert settings.budget_run_usd == 5.0
    assert window.settings_tab.editors["budget_run_usd"].value() == 5.0
    await until(
        lambda: all(j.state in SUCCESS_STATES for j in window.ctx.app.store.list_jobs()),
        what="the run going ahead with the raised cap",
    )
    assert fake_anthropic.count("POST", "/v1/messages") >= 2
    await until(lambda: bar.hold_box.isHidden(), what="the notice gone")
    await window.batches_tab.refresh(full=True)
    assert "held by the budget" not in window.batches_tab.budget_line.text()


async def test_run_anyway_lets_the_held_run_go(capped: Any, fake_anthropic: FakeAnthropic) -> None:
    window = capped
    bar = window.queue_tab.budget_bar
    await window.queue_tab.add_paths([INVOICE])
    await until(lambda: not bar.hold_box.isHidden(), what="the held-run notice")
    assert fake_anthropic.requests == []
    bar.run_anyway_button.click()
    store = window.ctx.app.store
    await until(
        lambda: all(j.state in SUCCESS_STATES for j in store.list_jobs()),
        what="the run let go",
    )
    assert fake_anthropic.count("POST", "/v1/messages") == 1
    assert window.ctx.app.settings.budget_run_usd == 0.0001  # the cap stays
