"""After a critical error stopped the queue, the notice says "press Resume": the button
offers it, and pressing it takes the next job."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.domain.errors import CriticalError
from docbatch_gui.domain.states import SUCCESS_STATES, JobState
from docbatch_gui.engine.extractors import Offline
from tests.builders import text_pdf
from tests.gui.conftest import signal_future, until

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])


# Three whole jobs in two render children; test_engine_host's resume test, headless, is
# the fast loop's.
@pytest.mark.slow
async def test_resume_after_a_critical_error_takes_the_next_job(
    window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extract = Offline.extract
    calls: list[int] = []

    async def refused_once(self: Offline, ctx: Any, job: Any) -> Any:
        calls.append(job.id)
        if len(calls) == 1:
            raise CriticalError("Anthropic: your credit balance is too low")
        return await extract(self, ctx, job)

    monkeypatch.setattr(Offline, "extract", refused_once)
    notices: list[tuple[str, str]] = []
    window.ctx.notifier.shown.connect(lambda text, level: notices.append((text, level)))
    halted = signal_future(window.ctx.bridge.halted)
    # Two run at once (RENDER_WORKERS=2): one is refused, the other finishes, the
    # third must wait for the operator.
    paths = [text_pdf(tmp_path / f"{name}.pdf", text=f"{name} {{n}}") for name in "abc"]
    await window.queue_tab.add_paths(paths)
    (message,) = await asyncio.wait_for(halted, 60)
    assert "credit balance" in message
    # the notice says what happened and what to do, and so does the log
    await until(lambda: any("press Resume" in text for text, _ in notices), what="the notice")
    notice, level = next(n for n in notices if "press Resume" in n[0])
    assert "credit balance" in notice and level == "error"
    await until(
        lambda: any(
            "the queue stopped" in line.message and "credit balance" in line.message
            for line in window.log_panel.model._items
        ),
        what="the halt in the Log panel",
    )
    store = window.ctx.app.store
    third = max(job.id for job in store.list_jobs())
    assert store.get_job(third).state is JobState.QUEUED
    button = window.queue_tab.pause_button
    assert button.isChecked() and button.text() == "Resume"
    button.click()
    await until(lambda: store.get_job(third).state in SUCCESS_STATES, what="the next job done")
    assert not button.isChecked() and not window.ctx.app.is_paused()
