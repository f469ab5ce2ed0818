"""The engine's log lines, in plain English with the job, its file and the numbers
support needs.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.recovery import recover_interrupted
from docbatch_gui.engine.render_step import capped_text
from tests import builders


def test_recovered_jobs_are_logged_with_their_state(
    tmp_path: Path, app: DocBatchApp, caplog: pytest.LogCaptureFixture
) -> None:
    requeued, failing, leased = app.add(
        [builders.text_pdf(tmp_path / f"{name}.pdf") for name in ("a", "b", "c")]
    ).jobs
    for job in (requeued, failing, leased):
        app.store.claim(job.id, JobState.PREPARING)  # a worker took them, then "crashed"
    app.store.update_job(failing.id, attempts=5)
    with caplog.at_level(logging.INFO, logger="docbatch_gui.engine.recovery"):
        recover_interrupted(app.store, max_attempts=5, leased=lambda i: i == leased.id)
    english = sorted(r.getMessage() for r in caplog.records)
    assert english == sorted(
        [
            f"recovered job {requeued.id} (a.pdf) → queued",
            f"recovered job {failing.id} (b.pdf) → failed",
            f"job {leased.id} (c.pdf) is running on a worker; left to it",
        ]
    )


def test_a_capped_page_text_is_logged_with_its_numbers(
    tmp_path: Path, app: DocBatchApp, caplog: pytest.LogCaptureFixture
) -> None:
    (job,) = app.add([builders.text_pdf(tmp_path / "bomb.pdf")]).jobs
    with caplog.at_level(logging.WARNING, logger="docbatch_gui.engine.render_step"):
        assert capped_text(job, 2, "x" * 50, limit=20) == "x" * 20
    assert caplog.records[0].getMessage() == (
        f"job {job.id} (bomb.pdf): page 2 has 50 characters of text; the first 20 are kept "
        "(MAX_PAGE_TEXT_CHARS)"
    )
