"""Cancel stops a running job's child at once: the slot goes to the next queued file,
and the canceled job keeps no documents."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.domain.states import SUCCESS_STATES, JobState
from docbatch_gui.pipeline.child import STALL_MARKER_VARIABLE, STALL_VARIABLE
from docbatch_gui.pipeline.isolate import live_groups
from docbatch_gui.settings.model import Settings
from tests.builders import text_pdf
from tests.gui.conftest import until
from tests.gui.held_render import held_settings
from tests.gui.test_queue import select

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])


@pytest.fixture
def gui_settings(tmp_path: Path) -> Settings:
    """One slot, and limits far beyond any page: only a cancel can free the slot."""
    return held_settings(tmp_path, workers=1)


async def test_cancel_frees_the_slot_for_the_next_file_and_keeps_nothing(
    window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tab, store = window.queue_tab, window.ctx.app.store
    marker = tmp_path / "stalled.txt"
    monkeypatch.setenv(STALL_VARIABLE, "slow.pdf:2")  # page 2 never finishes: a seam
    monkeypatch.setenv(STALL_MARKER_VARIABLE, str(marker))
    slow = text_pdf(tmp_path / "slow.pdf", pages=4, text="Page {n} of the slow file")
    fast = text_pdf(tmp_path / "fast.pdf", text="Invoice No. 77 {n}\nTotal: 10.00 USD")
    await tab.add_paths([slow, fast])
    jobs = {job.file_name: job.id for job in store.list_jobs()}
    slow_id, fast_id = jobs["slow.pdf"], jobs["fast.pdf"]
    await until(
        lambda: store.get_job(slow_id).state is JobState.PREPARING, what="the slow file running"
    )
    assert store.get_job(fast_id).state is JobState.QUEUED  # waiting for the one slot
    await until(lambda: bool(live_groups()), what="the slow file's child")
    await until(marker.exists, what="the child stalled on page 2")
    await until(lambda: len(tab.model.jobs()) == 2, what="both rows")
    select(window, "slow.pdf")
    assert tab.cancel_action.isEnabled()
    tab.cancel_action.trigger()

    await until(
        lambda: store.get_job(fast_id).state in SUCCESS_STATES,
        timeout=120,
        what="the next file processed in the freed slot",
    )
    canceled = store.get_job(slow_id)
    assert canceled.state is JobState.CANCELED
    assert store.list_documents(slow_id) == []
    assert not any(page.deliverable for page in store.list_pages(slow_id))
    await until(
        lambda: any(
            "canceled" in line.message and f"job {slow_id} " in line.message
            for line in window.log_panel.model._items
        ),
        what="the cancel in the Log panel",
    )
