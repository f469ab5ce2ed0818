"""Closing and waiting for running jobs says which jobs it waits for, and its bar
counts them, rather than an empty bar for as long as they take."""

from __future__ import annotations

from typing import Any

import pytest

from docbatch_gui.domain.models import NewJob
from docbatch_gui.domain.states import JobState

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])


async def test_the_wait_names_the_running_jobs(window: Any) -> None:
    store = window.ctx.app.store
    window.ctx.host.pause()  # nothing else starts meanwhile
    job = store.create_job(NewJob("scan_0042.pdf", "/in/scan_0042.pdf", "e" * 64, 10))
    store.claim(job.id, JobState.PREPARING)
    store.update_job(job.id, progress=0.25)
    window.queue_tab.load(window.ctx.app.jobs())
    running = window.running_jobs()
    assert [j.file_name for j in running] == ["scan_0042.pdf"]
    text = window.waiting_text(running)
    assert "scan_0042.pdf (Preparing, 25%)" in text
    many = running * 5
    assert "and 2 more" in window.waiting_text(many)
