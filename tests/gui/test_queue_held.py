"""The issue's steps: a key saved, a file added while Claude is unreachable, the key
cleared. The job used to stay "Queued 0%" for good, priced by the forecast, with
nothing saying why. Now it is held: the row, the detail pane and a bar above the
queue say what is missing and offer the way on. Claude unreachable holds it too, with
the host and *Retry now* (it used to fail as a network error after its retries).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from PySide6.QtCore import QSettings

from docbatch_gui._qt.queue.jobs_model import COL_FILE, COL_STATE, ErrorLineRole, HeldRole
from docbatch_gui.domain.states import SUCCESS_STATES, JobState
from docbatch_gui.settings.loading import load_settings
from tests.conftest import SAMPLES
from tests.gui.conftest import opened_window, until
from tests.gui.test_queue import select

pytestmark = [pytest.mark.asyncio(loop_factories=["qasync"]), pytest.mark.slow]

INVOICE = SAMPLES / "en_invoice_INV-2024-0042.pdf"


def held_for(tab: Any, job_id: int) -> str | None:
    """What the queue says ``job_id`` is held for (``held_by``), if it is held."""
    job = tab.model.job(job_id)
    hold = tab.model.hold(job) if job is not None else None
    return hold.need if hold is not None else None


@pytest_asyncio.fixture
async def unreachable(tmp_path: Path, qsettings: QSettings) -> AsyncIterator[Any]:
    """The window in sync mode with a key, Claude's address refusing connections."""
    settings = load_settings(
        data_dir=tmp_path / "data",
        PROCESSING_MODE="sync",
        OCR_ENGINE="none",
        ANTHROPIC_API_KEY="a-key-for-now",
        ANTHROPIC_BASE_URL="http://127.0.0.1:9",
        ANTHROPIC_MAX_RETRIES=0,
        JOB_TIMEOUT=60,
        RENDER_WORKERS=1,
    )
    async with opened_window(settings, qsettings) as win:
        yield win


async def test_a_job_without_its_key_is_held_with_the_reason_and_the_ways_on(
    unreachable: Any, tmp_path: Path
) -> None:
    window = unreachable
    tab, store = window.queue_tab, window.ctx.app.store
    await tab.add_paths([INVOICE])
    await until(lambda: bool(store.list_jobs()), what="the job")
    (job,) = store.list_jobs()
    await until(lambda: held_for(tab, job.id) == "claude_unreachable", 90, "the network hold")

    # the key cleared (as Settings → Save does with an empty key): the job, still
    # queued, is held for the key now (said first: Process offline lifts both)
    without_key = window.ctx.app.settings.model_copy(update={"anthropic_api_key": None})
    await window.apply_settings(without_key)
    assert window.ctx.app.anthropic_key is None
    select(window, INVOICE.name)
    await until(lambda: held_for(tab, job.id) == "anthropic_key", what="held for the key")

    row = tab.model.row_of(job.id)
    state = tab.model.index(row, COL_STATE)
    assert state.data() == "Held"
    assert "no Anthropic API key is set" in state.data(3)  # the tooltip: the reason
    line = tab.model.index(row, COL_FILE).data(ErrorLineRole)
    assert "process it offline" in line
    assert INVOICE.name not in line and "held:" not in line  # the row names the file
    assert tab.model.index(row, COL_FILE).data(HeldRole) is True
    await until(lambda: tab.held_bar.isVisible(), what="the held bar")
    assert "1 queued job held" in tab.held_bar.text.text()
    assert tab.held_bar.add_key_button.isVisible() and tab.held_bar.offline_button.isVisible()
    await until(lambda: tab.detail.error.isVisible(), what="the reason in the detail pane")
    assert tab.detail.error.text().startswith("Held: It is to be read by Claude")
    # the forecast does not price a job that cannot be sent
    assert window.ctx.app.forecast().jobs == 0
    await until(lambda: not tab.budget_bar.forecast_shown, what="no forecast line")

    # Add a key… opens Settings at the key, focused
    tab.held_bar.add_key_button.click()
    await until(lambda: window.settings_tab.isVisible(), what="the Settings tab")
    key_editor = window.settings_tab.editors["anthropic_api_key"].editor
    await until(lambda: key_editor.hasFocus(), what="the key editor focused")
    window.tabs.setCurrentWidget(tab)

    # Process offline lifts the hold: the engine takes the job and reads it locally
    tab.held_bar.offline_button.click()
    store = window.ctx.app.store  # the facade of the new settings
    await until(lambda: store.get_job(job.id).state in SUCCESS_STATES, 90, "the offline run")
    assert store.get_job(job.id).mode.value == "offline"
    await until(lambda: not tab.held_bar.isVisible(), what="the held bar gone")


async def test_claude_unreachable_holds_the_job_and_retry_now_sends_it_again(
    unreachable: Any,
) -> None:
    """The address refuses connections: the job is held (not failed) with the host in
    the bar; *Retry now* lifts the hold and the engine tries it again (a new attempt,
    held again since the address still refuses)."""
    window = unreachable
    tab, store = window.queue_tab, window.ctx.app.store
    await tab.add_paths([INVOICE])
    await until(lambda: bool(store.list_jobs()), what="the job")
    (job,) = store.list_jobs()
    await until(lambda: held_for(tab, job.id) == "claude_unreachable", 90, "the network hold")
    assert store.get_job(job.id).state is JobState.QUEUED
    await until(lambda: tab.held_bar.isVisible(), what="the held bar")
    assert "Claude cannot be reached at 127.0.0.1:9" in tab.held_bar.text.text()
    bar = tab.held_bar
    assert bar.retry_button.isVisible() and bar.offline_button.isVisible()
    assert not bar.add_key_button.isVisible()
    row = tab.model.row_of(job.id)
    assert tab.model.index(row, COL_STATE).data() == "Held"
    select(window, INVOICE.name)
    await until(lambda: tab.detail.error.isVisible(), what="the reason in the detail pane")
    said = tab.detail.error.text()
    assert "Retry now" in said and "Add a key" not in said  # the key is there
    tried = store.get_job(job.id).attempts
    bar.retry_button.click()
    await until(lambda: store.get_job(job.id).attempts > tried, 90, "a new attempt")
    await until(lambda: held_for(tab, job.id) == "claude_unreachable", 90, "held again")
