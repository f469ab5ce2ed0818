"""Routing by difficulty in sync mode: the real SDK against the fake, whose per-model
answers (``FakeAnthropic.answer_as``) decide when the first answer is not good enough."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.model import Settings
from tests import builders
from tests.fakes.anthropic_server import FakeAnthropic
from tests.routing_helpers import ESCALATION, FIRST, routed_profile

pytestmark = pytest.mark.slow  # whole sync-mode runs


@pytest.fixture
def app(claude_settings: Settings, tmp_path: Path) -> Iterator[DocBatchApp]:
    application = DocBatchApp(claude_settings)
    application.profile = routed_profile(tmp_path)  # type: ignore[misc]
    yield application
    application.close()


def run(app: DocBatchApp, path: Path) -> Job:
    (job,) = asyncio.run(app.run([j.id for j in app.add([path], mode="sync").jobs]))
    return job


def models_asked(fake: FakeAnthropic) -> list[str]:
    return [
        r.json["model"] for r in fake.requests if r.method == "POST" and r.path == "/v1/messages"
    ]


def test_an_unsure_answer_escalates_once_and_both_costs_are_kept(
    app: DocBatchApp,
    fake_anthropic: FakeAnthropic,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake_anthropic.answer_as(FIRST, confidence=0.4)
    fake_anthropic.answer_as(ESCALATION, confidence=0.95)
    with caplog.at_level(logging.INFO, logger="docbatch_gui.engine.escalation"):
        job = run(app, builders.invoice_pdf(tmp_path / "unsure.pdf"))
    assert models_asked(fake_anthropic) == [FIRST, ESCALATION]
    assert job.state is JobState.DONE, job.error
    assert job.escalated and job.escalation_reasons == ["unsure"]
    # each model's prefix is marked as that model caches it: Haiku's 4,096-token minimum
    # is above the prompt (no mark), Sonnet's 1,024 is not (the sync five-minute mark)
    first_asked, escalated_asked = (
        r.json for r in fake_anthropic.requests if r.path == "/v1/messages"
    )
    assert not any("cache_control" in b for b in first_asked["system"])
    assert escalated_asked["system"][-1]["cache_control"] == {"type": "ephemeral"}
    assert (job.first_model, job.escalation_model, job.answered_by) == (
        FIRST,
        ESCALATION,
        ESCALATION,
    )
    records = {r.custom_id: r for r in app.store.list_requests(job.id)}
    first, second = records[f"job_{job.id}_batch_1"], records[f"job_{job.id}_batch_1_esc"]
    assert (first.model, first.tier, second.model, second.tier) == (
        FIRST,
        "first",
        ESCALATION,
        "escalation",
    )
    assert first.answer is not None and second.answer is not None  # both answers kept
    assert job.cost_first_usd == pytest.approx(first.cost_usd)
    assert job.cost_escalation_usd == pytest.approx(second.cost_usd)
    assert 0 < job.cost_first_usd < job.cost_escalation_usd  # Haiku is the cheaper one
    assert job.cost_actual_usd == pytest.approx(job.cost_first_usd + job.cost_escalation_usd)
    (document,) = app.documents(job.id)
    assert set(document.confidence.values()) == {0.95}  # the escalated answer replaced it
    lines = [r.getMessage() for r in caplog.records]
    assert any(f"job {job.id} (unsure.pdf)" in m and ESCALATION in m for m in lines), lines
    shown = job.as_dict()
    assert shown["escalated"] is True and shown["cost_escalation_usd"] > 0


def test_an_escalation_that_is_unsure_too_goes_to_review_without_a_third_request(
    app: DocBatchApp, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    fake_anthropic.answer_as(FIRST, confidence=0.4)
    fake_anthropic.answer_as(ESCALATION, confidence=0.5)
    job = run(app, builders.invoice_pdf(tmp_path / "hard.pdf"))
    assert models_asked(fake_anthropic) == [FIRST, ESCALATION]
    assert job.state is JobState.NEEDS_REVIEW
    assert job.escalated and job.answered_by == ESCALATION  # 0.5 beats 0.4
    # processed again: both answers are reused, nothing is asked or escalated again
    app.reprocess(job.id)
    asyncio.run(app.run([job.id]))
    assert models_asked(fake_anthropic) == [FIRST, ESCALATION]
    assert len(app.store.list_requests(job.id)) == 2


@pytest.mark.parametrize(
    ("script", "reason"),
    [
        ({"missing": ("amount",)}, "missing_field"),
        ({"confidence": 0.3}, "unsure"),
        ({"values": {"buyer_tax_id": "7707083893"}}, "check_failed"),  # same_party, on page
        ({"values": {"number": "987654"}}, "contradiction"),  # not_on_page
    ],
)
def test_each_trigger_escalates(
    app: DocBatchApp,
    fake_anthropic: FakeAnthropic,
    tmp_path: Path,
    script: dict[str, object],
    reason: str,
) -> None:
    fake_anthropic.answer_as(FIRST, **script)  # type: ignore[arg-type]
    job = run(app, builders.invoice_pdf(tmp_path / "doc.pdf"))
    assert models_asked(fake_anthropic) == [FIRST, ESCALATION]
    assert job.escalation_reasons == [reason]
    assert job.state is JobState.DONE  # the escalation model read it right
    assert job.answered_by == ESCALATION


def test_a_confident_answer_is_not_escalated(
    app: DocBatchApp, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    fake_anthropic.answer_as(FIRST, confidence=0.95)
    job = run(app, builders.invoice_pdf(tmp_path / "easy.pdf"))
    assert models_asked(fake_anthropic) == [FIRST]
    assert job.state is JobState.DONE
    assert not job.escalated and job.escalation_model is None
    assert job.answered_by == FIRST and job.cost_escalation_usd is None
    assert job.cost_first_usd == pytest.approx(job.cost_actual_usd)


def test_without_an_escalation_model_nothing_escalates(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    fake_anthropic.answer_as(claude_settings.anthropic_model, confidence=0.3)
    app = DocBatchApp(claude_settings)
    try:
        job = run(app, builders.invoice_pdf(tmp_path / "single.pdf"))
    finally:
        app.close()
    assert models_asked(fake_anthropic) == [claude_settings.anthropic_model]
    assert job.state is JobState.NEEDS_REVIEW  # as before routing
    assert not job.escalated
    assert (job.first_model, job.answered_by) == (claude_settings.anthropic_model,) * 2
    jobs = json.loads(json.dumps([job.as_dict()]))
    assert jobs[0]["first_model"] == claude_settings.anthropic_model


def test_a_failed_escalation_leaves_the_first_answer_standing(
    app: DocBatchApp, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    fake_anthropic.answer_as(FIRST, confidence=0.4)
    fake_anthropic.fail_custom_ids({"job_1_batch_1_esc"}, 500)  # the first job of a fresh store
    job = run(app, builders.invoice_pdf(tmp_path / "busy.pdf"))
    assert models_asked(fake_anthropic).count(ESCALATION) == 3  # the SDK's 2 retries
    assert job.state is JobState.NEEDS_REVIEW  # as without routing, not failed
    assert job.escalated and job.answered_by == FIRST
    assert not job.cost_escalation_usd  # a failed request is not billed
