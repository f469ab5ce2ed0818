"""What a job's row says while it runs and after it failed: the bar only moves
forward through the steps' declared weights (no "Reading 90%" for the whole request),
and a failed job's reason does not promise a retry nobody will make."""

from __future__ import annotations

import asyncio

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.steps import BAR, EXTRACT, PREPARE, SEPARATE
from docbatch_gui.settings.model import Settings
from tests.conftest import SAMPLES
from tests.fakes.anthropic_server import FakeAnthropic

pytestmark = pytest.mark.slow

INVOICE = SAMPLES / "en_invoice_INV-2024-0042.pdf"


def test_the_bar_moves_forward_through_each_step(claude_settings: Settings) -> None:
    app = DocBatchApp(claude_settings.model_copy(update={"ocr_engine": "none"}))
    seen: list[tuple[JobState, float]] = []
    try:
        (job,) = app.add([INVOICE], mode="sync").jobs
        asyncio.run(app.run([job.id], lambda j: seen.append((j.state, j.progress))))
    finally:
        app.close()
    values = [p for _, p in seen]
    assert values == sorted(values), seen  # never backwards
    assert (JobState.PREPARING, BAR.done(PREPARE)) in seen  # every page rendered: its share
    reading_values = [p for s, p in seen if s is JobState.EXTRACTING]
    assert reading_values[0] == BAR.done(SEPARATE) < 0.9, seen
    assert BAR.done(EXTRACT) in reading_values  # the request answered, before the build
    assert seen[-1][1] == 1.0


def test_a_failed_job_does_not_say_it_will_be_retried(
    claude_settings: Settings, fake_anthropic: FakeAnthropic
) -> None:
    app = DocBatchApp(claude_settings.model_copy(update={"ocr_engine": "none"}))
    try:
        (job,) = app.add([INVOICE], mode="sync").jobs
        fake_anthropic.fail_custom_ids({f"job_{job.id}_batch_1"}, 500)
        (failed,) = asyncio.run(app.run([job.id]))
    finally:
        app.close()
    assert isinstance(failed, Job) and failed.state is JobState.FAILED
    english = failed.error_words("en") or ""
    assert "will be retried" not in english, english
    assert "Claude is busy or failing (500" in english and "Retry the job" in english
    russian = failed.error_words("ru") or ""
    assert "будет повторён" not in russian and "Повторите задание" in russian
