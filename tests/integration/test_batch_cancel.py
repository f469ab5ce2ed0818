"""Cancelling a whole batch from the facade (the Batches tab's Cancel) reaches the
API through the engine's own rule: a batch whose jobs are all canceled is canceled."""

from __future__ import annotations

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.model import Settings
from tests.fakes.anthropic_server import FakeAnthropic
from tests.integration.test_batch_mode import INVOICE, RUSSIAN, cycles

pytestmark = pytest.mark.slow  # a whole batch-mode run


@pytest.fixture
def app(claude_settings: Settings) -> DocBatchApp:
    application = DocBatchApp(claude_settings.model_copy(update={"poll_interval": 0.05}))
    yield application
    application.close()


def test_cancel_batch_cancels_every_job_and_then_the_batch(
    app: DocBatchApp, fake_anthropic: FakeAnthropic
) -> None:
    fake_anthropic.batch_polls_needed = 5
    jobs = app.add([INVOICE, RUSSIAN], mode="batch").jobs
    cycles(app)
    (batch,) = app.batches()
    assert batch.status == "in_progress"
    canceled = app.cancel_batch(batch.id)
    assert sorted(j.id for j in canceled) == sorted(j.id for j in jobs)
    cycles(app, 2)
    assert fake_anthropic.count("POST", "/v1/messages/batches/") == 1  # .../cancel
    assert {app.store.get_job(j.id).state for j in jobs} == {JobState.CANCELED}
    assert all(app.documents(j.id) == [] for j in jobs)
