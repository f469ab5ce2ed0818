"""Routing by difficulty in batch mode: escalated requests join the next batch the
engine submits, the job waits in its batch state meanwhile, and a restart between
the two batches loses nothing and pays nothing twice."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.models import Document
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine import checking
from docbatch_gui.engine import documents as documents_module
from docbatch_gui.llm.answers import RawDocument, stitch
from docbatch_gui.settings.model import Settings
from tests import builders
from tests.batch_cycles import cycles, poll_once
from tests.fakes.anthropic_server import FakeAnthropic
from tests.helpers import cli
from tests.routing_helpers import ESCALATION, FIRST, routed_profile

pytestmark = pytest.mark.slow  # whole batch-mode runs


@pytest.fixture
def routed(claude_settings: Settings, tmp_path: Path) -> Settings:
    profile = routed_profile(tmp_path)
    return claude_settings.model_copy(
        update={"poll_interval": 0.05, "profile_path": profile.source}
    )


@pytest.fixture
def app(routed: Settings) -> Iterator[DocBatchApp]:
    application = DocBatchApp(routed)
    yield application
    application.close()


def batch_posts(fake: FakeAnthropic) -> list[list[tuple[str, str]]]:
    """Each batch the fake received: (custom_id, model) of its requests."""
    return [
        [(e["custom_id"], e["params"]["model"]) for e in r.json["requests"]]
        for r in fake.requests
        if r.method == "POST" and r.path == "/v1/messages/batches"
    ]


def test_an_unsure_batch_answer_joins_the_next_batch_once(
    app: DocBatchApp, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    fake_anthropic.answer_as(FIRST, confidence=0.4)
    fake_anthropic.answer_as(ESCALATION, confidence=0.95)
    (job,) = app.add([builders.invoice_pdf(tmp_path / "unsure.pdf")], mode="batch").jobs
    cycles(app)  # first batch: submitted
    poll_once(app)  # it ended, the answer judged
    waiting = app.store.get_job(job.id)
    assert waiting.state is JobState.SUBMITTED  # waits in its batch state
    assert waiting.escalated and waiting.escalation_model == ESCALATION
    assert waiting.cost_first_usd and waiting.cost_first_usd > 0
    assert batch_posts(fake_anthropic) == [[(f"job_{job.id}_batch_1", FIRST)]]
    cycles(app, 3)
    assert batch_posts(fake_anthropic) == [
        [(f"job_{job.id}_batch_1", FIRST)],
        [(f"job_{job.id}_batch_1_esc", ESCALATION)],
    ]  # once: the escalated answer is never escalated again
    done = app.store.get_job(job.id)
    assert done.state is JobState.DONE, done.error
    assert done.answered_by == ESCALATION and done.escalation_reasons == ["unsure"]
    records = {r.custom_id: r for r in app.store.list_requests(job.id)}
    escalated = records[f"job_{job.id}_batch_1_esc"]
    assert escalated.mode == "batch" and escalated.batch_cost_usd
    assert done.cost_escalation_usd == pytest.approx(escalated.cost_usd)
    assert done.cost_actual_usd == pytest.approx(done.cost_first_usd + done.cost_escalation_usd)
    assert [b.model for b in app.store.list_batches()] == [FIRST, ESCALATION]


def test_an_unsure_escalation_goes_to_review(
    app: DocBatchApp, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    fake_anthropic.answer_as(FIRST, missing=("amount",))
    fake_anthropic.answer_as(ESCALATION, missing=("amount",))
    (job,) = app.add([builders.invoice_pdf(tmp_path / "hard.pdf")], mode="batch").jobs
    cycles(app, 4)
    assert len(batch_posts(fake_anthropic)) == 2
    done = app.store.get_job(job.id)
    assert done.state is JobState.NEEDS_REVIEW
    assert done.escalated and done.answered_by == FIRST  # a tie keeps the first answer
    assert done.escalation_reasons == ["missing_field"]


def test_a_confident_batch_answer_is_not_escalated(
    app: DocBatchApp, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    fake_anthropic.answer_as(FIRST, confidence=0.95)
    (job,) = app.add([builders.invoice_pdf(tmp_path / "easy.pdf")], mode="batch").jobs
    cycles(app, 3)
    assert batch_posts(fake_anthropic) == [[(f"job_{job.id}_batch_1", FIRST)]]
    done = app.store.get_job(job.id)
    assert done.state is JobState.DONE and not done.escalated


def test_a_batch_job_nothing_escalates_is_checked_once_with_the_same_verdict(
    app: DocBatchApp,
    fake_anthropic: FakeAnthropic,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The escalation's decision checked the first answers as they are saved; the
    build takes that result, and it is what checking them afresh gives."""
    fake_anthropic.answer_as(FIRST, confidence=0.95)
    calls: list[int] = []

    def counted(ctx: Any, job_id: int, documents: Any, *pages: Any) -> list[Document]:
        calls.append(job_id)
        return checking.checked(ctx, job_id, documents, *pages)

    monkeypatch.setattr(documents_module, "checked", counted)
    (job,) = app.add([builders.invoice_pdf(tmp_path / "easy.pdf")], mode="batch").jobs
    cycles(app, 3)
    assert app.store.get_job(job.id).state is JobState.DONE
    assert calls == [job.id]  # the decision's check; the build did not check again
    saved = app.store.list_documents(job.id)
    records = app.store.list_requests(job.id)
    first = {r.group: [RawDocument.from_body(d) for d in r.answer or []] for r in records}
    stitched = stitch(job.id, [first[n] for n in sorted(first)], app.profile)
    fresh = documents_module.checked_documents(app.context, job.id, stitched)
    assert [(d.fields, d.review_codes, d.locations) for d in saved] == [
        (d.fields, d.review_codes, d.locations) for d in fresh
    ]


def test_a_restart_between_the_batches_still_escalates_once(
    routed: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    fake_anthropic.answer_as(FIRST, confidence=0.4)
    fake_anthropic.answer_as(ESCALATION, confidence=0.95)
    first = DocBatchApp(routed)
    (job,) = first.add([builders.invoice_pdf(tmp_path / "restart.pdf")], mode="batch").jobs
    cycles(first)
    first.close()  # the window closes (or the machine stops) between the batches
    again = DocBatchApp(routed)
    try:
        cycles(again, 3)
        done = again.store.get_job(job.id)
    finally:
        again.close()
    assert [len(b) for b in batch_posts(fake_anthropic)] == [1, 1]
    assert done.state is JobState.DONE and done.answered_by == ESCALATION


def test_cli_shows_both_models_and_costs(
    routed: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    fake_anthropic.answer_as(FIRST, confidence=0.4)
    env = {
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": fake_anthropic.url,
        "POLL_INTERVAL": "0.1",
        "DOCBATCH_PROFILE": str(routed.profile_path),
    }
    data = tmp_path / "data"
    path = builders.invoice_pdf(tmp_path / "cli.pdf")
    result = cli(data, "process", str(path), "--mode", "batch", "--wait", env=env)
    assert result.returncode in (0, 3), result.stdout + result.stderr
    (shown,) = json.loads(cli(data, "jobs", "--json", env=env).stdout)
    assert shown["escalated"] is True
    assert (shown["first_model"], shown["escalation_model"]) == (FIRST, ESCALATION)
    assert shown["cost_first_usd"] > 0 and shown["cost_escalation_usd"] > 0
    assert shown["cost_actual_usd"] == pytest.approx(
        shown["cost_first_usd"] + shown["cost_escalation_usd"]
    )


def test_an_escalation_batch_whose_create_failed_is_created_from_its_intent(
    app: DocBatchApp, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    fake_anthropic.answer_as(FIRST, confidence=0.4)
    fake_anthropic.answer_as(ESCALATION, confidence=0.95)
    (job,) = app.add([builders.invoice_pdf(tmp_path / "intent.pdf")], mode="batch").jobs
    cycles(app)
    fake_anthropic.fail_next(3, 500, path="/v1/messages/batches")  # create and its 2 retries
    cycles(app)  # the escalation batch's intent is written, its create fails
    (intent,) = [b for b in app.store.list_batches() if b.status == "intent"]
    assert intent.request_ids == [f"job_{job.id}_batch_1_esc"]
    cycles(app, 3)  # the intent is resolved: never created, so created now, once
    assert batch_posts(fake_anthropic)[-1] == [(f"job_{job.id}_batch_1_esc", ESCALATION)]
    assert [b.status for b in app.store.list_batches()] == ["ended", "ended"]
    done = app.store.get_job(job.id)
    assert done.state is JobState.DONE and done.answered_by == ESCALATION


def test_an_escalation_that_keeps_expiring_leaves_the_first_answer(
    app: DocBatchApp, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    fake_anthropic.answer_as(FIRST, confidence=0.4)
    (job,) = app.add([builders.invoice_pdf(tmp_path / "late.pdf")], mode="batch").jobs
    fake_anthropic.batch_expired({f"job_{job.id}_batch_1_esc"})
    cycles(app, 8)
    tries = app.settings.request_retries + 1
    assert [len(b) for b in batch_posts(fake_anthropic)] == [1] * (1 + tries)
    done = app.store.get_job(job.id)
    assert done.state is JobState.NEEDS_REVIEW and done.answered_by == FIRST
    assert done.escalated and done.cost_escalation_usd is None
