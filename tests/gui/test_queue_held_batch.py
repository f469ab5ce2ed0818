"""Batch mode with the Message Batches API out of reach: the job whose batch create
got no answer is held in the queue (its row, the bar above the queue with *Retry
now*), nothing is created again while it is held, and *Retry now* finds the batch the
server did make and finishes the job from it: one batch, paid once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from PySide6.QtCore import QSettings

from docbatch_gui._qt.queue.jobs_model import COL_STATE
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.loading import load_settings
from tests.fakes.anthropic_server import FakeAnthropic
from tests.gui.conftest import opened_window, until
from tests.gui.test_queue_held import INVOICE, held_for
from tests.integration.test_batch_mode import batch_posts

pytestmark = [pytest.mark.asyncio(loop_factories=["qasync"]), pytest.mark.slow]


@pytest_asyncio.fixture
async def batch_window(
    tmp_path: Path, qsettings: QSettings, fake_anthropic: FakeAnthropic
) -> AsyncIterator[Any]:
    settings = load_settings(
        data_dir=tmp_path / "data",
        PROCESSING_MODE="batch",
        OCR_ENGINE="none",
        ANTHROPIC_API_KEY="test-key",
        ANTHROPIC_BASE_URL=fake_anthropic.url,
        ANTHROPIC_MAX_RETRIES=0,
        POLL_INTERVAL=0.1,
        RENDER_WORKERS=1,
    )
    async with opened_window(settings, qsettings) as win:
        yield win


async def test_a_batch_the_api_did_not_answer_for_is_held_until_retry_now(
    batch_window: Any, fake_anthropic: FakeAnthropic
) -> None:
    window = batch_window
    tab, store = window.queue_tab, window.ctx.app.store
    # the create is carried out and its answer lost; then the API stays out of reach
    fake_anthropic.cut_next(1, path="/v1/messages/batches", after=True)
    fake_anthropic.cut_next(1_000_000, path="/v1/messages/batches")
    await tab.add_paths([INVOICE])
    await until(lambda: bool(store.list_jobs()), what="the job")
    (job,) = store.list_jobs()
    await until(lambda: held_for(tab, job.id) == "claude_unreachable", 90, "the network hold")
    assert store.get_job(job.id).state is JobState.SUBMITTED
    await until(lambda: tab.held_bar.isVisible(), what="the held bar")
    assert tab.held_bar.retry_button.isVisible()
    assert not tab.held_bar.offline_button.isVisible()  # its batch may be at the API
    assert "Message Batches API cannot be reached" in tab.held_bar.text.text()
    assert tab.model.index(tab.model.row_of(job.id), COL_STATE).data() == "Held"
    assert len(batch_posts(fake_anthropic)) == 1  # made once, at the server
    fake_anthropic.clear_cuts()  # the network is back
    tab.held_bar.retry_button.click()
    await until(lambda: store.get_job(job.id).state is JobState.DONE, 90, "the job done")
    assert len(batch_posts(fake_anthropic)) == 1 and not fake_anthropic.paid_twice()
    await until(lambda: not tab.held_bar.isVisible(), what="the held bar gone")
