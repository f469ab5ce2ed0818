"""DocBatch's requests held to the API's documented contract, end to end.

The real SDK against the strict fake: answers cut at ``max_tokens`` are paid once
each and retried once with a larger budget, thinking tokens reach the costs, and a
request the API refuses as invalid stops the queue without blaming the file.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.states import JobState
from docbatch_gui.llm.catalogue import Usage, load_catalogue
from docbatch_gui.settings.model import Settings
from tests.conftest import SAMPLES
from tests.fakes.anthropic_server import FakeAnthropic

pytestmark = pytest.mark.slow  # whole runs against the strict fake

INVOICE = SAMPLES / "en_invoice_INV-2024-0042.pdf"


def _sent(fake: FakeAnthropic) -> list[dict]:
    return [r.json for r in fake.requests if r.path == "/v1/messages" and r.method == "POST"]


def test_a_cut_off_answer_is_sent_once_more_with_a_larger_budget_and_paid_once(
    claude_settings: Settings, fake_anthropic: FakeAnthropic
) -> None:
    app = DocBatchApp(claude_settings)
    (job,) = app.add([INVOICE], mode="sync").jobs
    fake_anthropic.cut_off_next(1)
    (job,) = asyncio.run(app.run([job.id]))
    assert job.state in (JobState.DONE, JobState.NEEDS_REVIEW), job.error
    sent = _sent(fake_anthropic)
    budget = claude_settings.max_output_tokens
    assert [s["max_tokens"] for s in sent] == [budget, 2 * budget]  # not three times the same
    (record,) = app.store.list_requests(job.id)
    assert record.output_tokens > budget  # the cut answer (billed in full) plus the good one
    assert record.note is not None and "cut off at max_tokens" in record.note.english
    assert record.max_tokens == 2 * budget
    model = claude_settings.anthropic_model
    assert record.cost_usd == load_catalogue().cost(model, Usage.of(record))
    assert job.cost_actual_usd == pytest.approx(record.cost_usd)
    app.close()


def test_a_second_cut_off_fails_the_job_with_what_to_change(
    claude_settings: Settings, fake_anthropic: FakeAnthropic
) -> None:
    app = DocBatchApp(claude_settings)
    (job,) = app.add([INVOICE], mode="sync").jobs
    fake_anthropic.cut_off_next(2)
    (job,) = asyncio.run(app.run([job.id]))
    assert job.state is JobState.FAILED and job.error_kind is ErrorKind.UNSUPPORTED
    assert "GROUP_SIZE" in (job.error or "") and "CLAUDE_EFFORT" in (job.error or "")
    assert len(_sent(fake_anthropic)) == 2  # never the same budget twice
    app.close()


def test_thinking_runs_out_of_a_small_budget_naturally_and_costs_are_counted(
    claude_settings: Settings, fake_anthropic: FakeAnthropic
) -> None:
    """Opus 5.5 always thinks: with a small MAX_OUTPUT_TOKENS the thinking alone uses
    it up; the one larger budget then fits, and the thinking tokens are on record."""
    settings = claude_settings.model_copy(
        update={"anthropic_model": "claude-opus-5-5", "max_output_tokens": 256}
    )
    app = DocBatchApp(settings)
    (job,) = app.add([INVOICE], mode="sync").jobs
    (job,) = asyncio.run(app.run([job.id]))
    assert job.state in (JobState.DONE, JobState.NEEDS_REVIEW), job.error
    first, second = _sent(fake_anthropic)
    assert "thinking" not in first and first["output_config"]["effort"] == "low"
    assert (first["max_tokens"], second["max_tokens"]) == (256, 256 + 4096)
    (record,) = app.store.list_requests(job.id)
    assert record.thinking_tokens == 2 * 300  # both answers thought (effort low)
    jobs = app.jobs([job.id])
    assert jobs[0].cost_actual_usd == pytest.approx(
        load_catalogue().cost("claude-opus-5-5", Usage.of(record))
    )
    app.close()


def test_a_refused_request_is_critical_and_never_the_files_fault(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    app = DocBatchApp(claude_settings)
    report = app.add([INVOICE, SAMPLES / "ru_three_documents.pdf"], mode="sync")
    fake_anthropic.fail_next(1, 400, error_type="invalid_request_error")
    jobs = asyncio.run(app.run([j.id for j in report.jobs]))
    failed = [j for j in jobs if j.state is JobState.FAILED]
    assert failed and all(j.error_kind is ErrorKind.CRITICAL for j in failed)
    assert all("not a problem with the file" in (j.error or "") for j in failed)
    assert app.halted is not None
    assert "invalid_request_error: scripted failure 400" in app.halted.text
    app.close()


def test_sync_requests_carry_the_catalogue_choice_and_pass_the_strict_fake(
    claude_settings: Settings, fake_anthropic: FakeAnthropic
) -> None:
    app = DocBatchApp(claude_settings)
    jobs = asyncio.run(app.run([j.id for j in app.add([INVOICE], mode="sync").jobs]))
    assert jobs[0].state in (JobState.DONE, JobState.NEEDS_REVIEW), jobs[0].error
    (body,) = _sent(fake_anthropic)
    assert body["model"] == "claude-haiku-5-5"
    assert body["thinking"] == {"type": "disabled"}
    assert body["output_config"]["effort"] == "low"
    assert body["output_config"]["format"]["type"] == "json_schema"
    counted = [r for r in fake_anthropic.requests if r.path == "/v1/messages/count_tokens"]
    assert len(counted) == 2  # the estimate's prefix and one page, once
    again = asyncio.run(app.run([j.id for j in app.add([INVOICE], mode="sync", force=True).jobs]))
    assert again[0].state in (JobState.DONE, JobState.NEEDS_REVIEW)
    counted = [r for r in fake_anthropic.requests if r.path == "/v1/messages/count_tokens"]
    assert len(counted) == 2  # cached per profile and model
    app.close()


def test_a_failing_count_is_asked_once_and_the_request_still_goes(
    claude_settings: Settings, fake_anthropic: FakeAnthropic
) -> None:
    """The estimate's counter is not retried (ANTHROPIC_MAX_RETRIES is 2 here): with
    Claude unreachable its retries, some 7 s of backoff, came before every attempt of
    the request itself. The formula stands in; the job is read."""
    fake_anthropic.fail_next(
        1, 529, error_type="overloaded_error", path="/v1/messages/count_tokens"
    )
    app = DocBatchApp(claude_settings)
    try:
        jobs = asyncio.run(app.run([j.id for j in app.add([INVOICE], mode="sync").jobs]))
        assert jobs[0].state in (JobState.DONE, JobState.NEEDS_REVIEW), jobs[0].error
        counted = [r for r in fake_anthropic.requests if r.path == "/v1/messages/count_tokens"]
        assert len(counted) == 1  # the failed count, not retried, and no second count
        assert len(_sent(fake_anthropic)) == 1  # the request itself, once
    finally:
        app.close()


def test_batch_mode_resubmits_a_cut_off_group_once_with_a_larger_budget(
    claude_settings: Settings, fake_anthropic: FakeAnthropic
) -> None:
    app = DocBatchApp(claude_settings.model_copy(update={"poll_interval": 0.05}))
    (job,) = app.add([INVOICE], mode="batch").jobs
    fake_anthropic.cut_off_next(1)
    (job,) = asyncio.run(app.run([job.id]))
    assert job.state in (JobState.DONE, JobState.NEEDS_REVIEW), job.error
    creates = [r.json for r in fake_anthropic.requests if r.path == "/v1/messages/batches"]
    budgets = [c["requests"][0]["params"]["max_tokens"] for c in creates if c]
    budget = claude_settings.max_output_tokens
    assert budgets == [budget, 2 * budget]
    (record,) = app.store.list_requests(job.id)
    assert record.attempts == 1  # a larger budget is not a failed try
    # each answer's cost is rounded to a millionth of a dollar before they are added
    assert record.cost_usd == pytest.approx(
        load_catalogue().cost(claude_settings.anthropic_model, Usage.of(record), batch=True),
        abs=2e-6,
    )
    (batch, second) = app.store.list_batches()
    assert (batch.model, batch.effort) == ("claude-haiku-5-5", "effort low, thinking off")
    assert batch.cost_actual_usd and second.cost_actual_usd
    assert job.cost_actual_usd == pytest.approx(batch.cost_actual_usd + second.cost_actual_usd)
    app.close()
