"""Batch mode when the Message Batches API cannot be reached: the jobs are held with
the reason in words (``held_by: claude_unreachable``), ``process --wait`` stops waiting
on them, and a create whose answer was lost is never created again: the engine finds
the batch in the API's list once it answers."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.errors import ExitCode
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.holds import NEEDS_CLAUDE_REACHABLE, RETRY_NOW
from docbatch_gui.settings.model import Settings
from tests.fakes.anthropic_server import FakeAnthropic
from tests.helpers import LEAST_WAIT_S, cli
from tests.integration.test_batch_mode import INVOICE, batch_posts, cycles, state

pytestmark = pytest.mark.slow  # batch-mode runs against the fake


@pytest.fixture
def app(claude_settings: Settings) -> DocBatchApp:
    application = DocBatchApp(claude_settings.model_copy(update={"poll_interval": 0.05}))
    yield application
    application.close()


def test_a_create_whose_answer_was_lost_is_held_and_never_created_again(
    app: DocBatchApp, fake_anthropic: FakeAnthropic
) -> None:
    """The server made the batch, the answer never came: no second create (the SDK's
    retries included), the job held while the API stays out of reach, then the batch
    found in the list and adopted."""
    (job,) = app.add([INVOICE], mode="batch").jobs
    fake_anthropic.cut_next(1, path="/v1/messages/batches", after=True)
    cycles(app)
    assert len(batch_posts(fake_anthropic)) == 1  # made once, at the server
    assert state(app, job.id) is JobState.SUBMITTED
    hold = app.hold_of(app.store.get_job(job.id))
    assert hold is not None and hold.need == NEEDS_CLAUDE_REACHABLE
    assert hold.actions == (RETRY_NOW,)
    assert "cannot be reached at 127.0.0.1:" in hold.message.english
    fake_anthropic.cut_next(100)  # still out of reach: nothing is created
    cycles(app, 2)
    assert len(batch_posts(fake_anthropic)) == 1
    assert app.hold_of(app.store.get_job(job.id)) is not None
    fake_anthropic.clear_cuts()  # the network is back
    cycles(app, 3)
    assert state(app, job.id) is JobState.DONE
    assert len(batch_posts(fake_anthropic)) == 1 and not fake_anthropic.paid_twice()
    assert app.hold_of(app.store.get_job(job.id)) is None


def test_a_poll_that_gets_no_answer_holds_the_running_job(
    app: DocBatchApp, fake_anthropic: FakeAnthropic
) -> None:
    """Retrieve cut: the processing job is held, a run does not wait on it, *Retry
    now* (``docbatch retry``) lifts the hold and the job finishes from its batch."""
    fake_anthropic.batch_polls_needed = 3
    (job,) = app.add([INVOICE], mode="batch").jobs
    cycles(app)
    assert state(app, job.id) is JobState.PROCESSING
    fake_anthropic.cut_next(100)
    jobs = asyncio.run(asyncio.wait_for(app.run([job.id]), LEAST_WAIT_S))  # a hang guard
    assert jobs[0].state is JobState.PROCESSING
    hold = app.hold_of(jobs[0])
    assert hold is not None and hold.need == NEEDS_CLAUDE_REACHABLE
    assert "Message Batches API" in hold.message.english
    fake_anthropic.clear_cuts()
    assert app.retry(job.id).state is JobState.PROCESSING  # lifted, left in its batch
    assert app.hold_of(app.store.get_job(job.id)) is None
    cycles(app, 3)
    assert state(app, job.id) is JobState.DONE
    assert len(batch_posts(fake_anthropic)) == 1


def test_process_wait_does_not_wait_on_batch_jobs_the_api_cannot_be_reached_for(
    tmp_path: Path, fake_anthropic: FakeAnthropic
) -> None:
    env = {
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": fake_anthropic.url,
        "ANTHROPIC_MAX_RETRIES": "0",
        "POLL_INTERVAL": "0.1",
    }
    fake_anthropic.cut_next(10_000)  # every request goes unanswered
    data = tmp_path / "data"
    result = cli(data, "process", "--wait", "--mode", "batch", str(INVOICE), env=env)
    assert result.returncode == ExitCode.WRONG_STATE, result.stdout + result.stderr
    assert "1 job held, not waited for" in result.stderr
    assert "Message Batches API cannot be reached at 127.0.0.1:" in result.stderr
    (row,) = json.loads(cli(data, "jobs", "--json", env=env).stdout)
    assert row["state"] == "submitted" and row["held_by"] == NEEDS_CLAUDE_REACHABLE
    assert row["held_actions"] == ["retry_now"]
    assert "ANTHROPIC_BASE_URL" in str(row["held_reason"])
    assert len(batch_posts(fake_anthropic)) == 1  # tried once, not again while held
