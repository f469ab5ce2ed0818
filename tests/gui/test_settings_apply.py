"""Saved settings reach the engine without a restart of the application, and without
interrupting a running job."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.app.host import EngineState
from docbatch_gui.domain.states import RECOVERABLE_STATES
from docbatch_gui.settings.model import Settings
from tests.gui.conftest import signal_future, until
from tests.gui.held_render import HeldRender, held_settings

pytestmark = [
    pytest.mark.slow,  # the engine restarts around a running job
    pytest.mark.asyncio(loop_factories=["qasync"]),
]


async def applied(window: Any) -> None:
    while True:
        text, _level = await signal_future(window.ctx.notifier.shown)
        if text == "Settings applied.":
            return


@pytest.fixture
def gui_settings(tmp_path: Path) -> Settings:
    return held_settings(tmp_path)


async def test_saved_settings_restart_the_engine_after_running_jobs(
    window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = HeldRender(tmp_path, monkeypatch)  # running until the test releases it
    old_app = window.ctx.app
    await window.queue_tab.add_paths([held.file])
    await until(held.stalled, what="the job's render child held on its page")
    assert all(j.state in RECOVERABLE_STATES for j in old_app.store.list_jobs())
    tab = window.settings_tab
    tab.editors["batch_size"].editor.setValue(44)
    done = asyncio.ensure_future(applied(window))
    tab.save_button.click()
    # the switch waits for the held job: the engine drains, the old app stays
    await until(lambda: window.ctx.host.state is EngineState.DRAINING, what="the drain")
    assert not done.done() and window.ctx.app is old_app
    held.release()
    await done
    new_app = window.ctx.app
    assert new_app is not old_app and new_app.settings.batch_size == 44
    assert window.ctx.bridge.running and window.ctx.bridge.app is new_app
    # the running job was not interrupted: it finished before the switch
    job = new_app.store.list_jobs()[0]
    assert job.state.value in ("done", "needs_review") and job.attempts == 1
