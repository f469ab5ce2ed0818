"""Batch mode against the fake Batches API: split, pause, expiry, errors, cancel,
recovery and cost. Cycles are driven one at a time, so each test sees every phase."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.config.page_plan import PagePlan
from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.model import Settings
from tests.batch_cycles import cycles, poll_once
from tests.conftest import SAMPLES
from tests.fakes.anthropic_server import FakeAnthropic
from tests.helpers import cli

pytestmark = pytest.mark.slow  # whole batch-mode runs through the CLI

INVOICE = SAMPLES / "en_invoice_INV-2024-0042.pdf"
RUSSIAN = SAMPLES / "ru_three_documents.pdf"


@pytest.fixture
def app(claude_settings: Settings) -> DocBatchApp:
    application = DocBatchApp(claude_settings.model_copy(update={"poll_interval": 0.05}))
    yield application
    application.close()


def state(app: DocBatchApp, job_id: int) -> JobState:
    return app.store.get_job(job_id).state


def batch_posts(fake: FakeAnthropic) -> list[list[str]]:
    return [
        [e["custom_id"] for e in r.json["requests"]]
        for r in fake.requests
        if r.method == "POST" and r.path == "/v1/messages/batches"
    ]


def test_cli_batch_mode_processes_the_samples(
    tmp_path: Path, fake_anthropic: FakeAnthropic
) -> None:
    env = {
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": fake_anthropic.url,
        "POLL_INTERVAL": "0.1",
    }
    data = tmp_path / "data"
    result = cli(data, "process", str(SAMPLES), "--mode", "batch", "--wait", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    documents = json.loads(cli(data, "documents", "--json", env=env).stdout)
    assert [
        (d["doc_type"], d["page_from"], d["page_to"])
        for d in documents
        if d["file"] == RUSSIAN.name
    ] == [
        ("invoice", 1, 1),
        ("act", 2, 2),
        ("contract", 3, 4),
    ]
    (batch,) = json.loads(cli(data, "batches", "--json", env=env).stdout)
    assert batch["status"] == "ended" and batch["request_counts"]["succeeded"] == 4
    assert sorted(batch["jobs"]) == [1, 2, 3, 4]
    assert batch["created_at"] and batch["ended_at"]
    jobs = json.loads(cli(data, "jobs", "--json", env=env).stdout)
    assert batch["cost_actual_usd"] == pytest.approx(
        sum(j["cost_actual_usd"] for j in jobs), abs=1e-5
    )
    assert all(j["cost_estimate_usd"] > 0 for j in jobs)
    assert (batch["model"], batch["effort"]) == ("claude-haiku-5-5", "effort low, thinking off")
    assert batch["thinking_tokens"] == 0
    assert all(
        j["tokens"]["input_tokens"] > 0 and j["tokens"]["thinking_tokens"] == 0 for j in jobs
    )


def test_batch_costs_half_of_sync(
    app: DocBatchApp, fake_anthropic: FakeAnthropic, claude_settings: Settings
) -> None:
    # Opus 5 caches a prefix from 512 tokens; the default Haiku 5.5 only from 4,096,
    # more than DocBatch's system prompt and schema, so it would show no cache here
    app.settings.anthropic_model = "claude-opus-5"
    (job,) = asyncio.run(app.run([j.id for j in app.add([RUSSIAN], mode="batch").jobs]))
    sync_app = DocBatchApp(
        claude_settings.model_copy(
            update={
                "data_dir": claude_settings.data_dir / "sync",
                "anthropic_model": "claude-opus-5",
            }
        )
    )
    (sync_job,) = asyncio.run(
        sync_app.run([j.id for j in sync_app.add([RUSSIAN], mode="sync").jobs])
    )
    sync_app.close()
    assert job.state is sync_job.state is JobState.DONE
    records = app.store.list_requests(job.id)
    assert (
        records[0].mode == "batch"
        and records[0].cache_read_tokens + records[0].cache_write_tokens > 0
    )
    assert job.cost_actual_usd == pytest.approx(sync_job.cost_actual_usd / 2, rel=0.35)


def test_requests_are_split_at_the_configured_limits(
    app: DocBatchApp, fake_anthropic: FakeAnthropic
) -> None:
    app.profile = app.profile.model_copy(update={"page_plan": PagePlan()})  # full page images
    app.settings.batch_max_requests = 2
    app.settings.group_size = 1  # 1 + 4 pages = 5 requests
    jobs = app.add([INVOICE, RUSSIAN], mode="batch").jobs
    asyncio.run(app.run([j.id for j in jobs]))
    assert [len(ids) for ids in batch_posts(fake_anthropic)] == [2, 2, 1]
    assert all(state(app, j.id) is JobState.DONE for j in jobs)
    fake_anthropic.reset()
    app.settings.batch_max_requests = 10_000
    app.settings.batch_max_mb = 0.15  # about one page image per batch
    jobs = app.add([INVOICE, RUSSIAN], mode="batch", force=True).jobs
    asyncio.run(app.run([j.id for j in jobs]))
    assert len(batch_posts(fake_anthropic)) == 5


def test_pause_skips_both_phases_until_resumed(
    app: DocBatchApp, fake_anthropic: FakeAnthropic
) -> None:
    fake_anthropic.batch_polls_needed = 3
    (job,) = app.add([INVOICE], mode="batch").jobs
    cycles(app)  # submitted, polled once
    assert state(app, job.id) is JobState.PROCESSING
    app.set_paused(True)
    polls = fake_anthropic.count("GET", "/v1/messages/batches/")
    (second,) = app.add([RUSSIAN], mode="batch").jobs
    cycles(app, 3)
    assert fake_anthropic.count("GET", "/v1/messages/batches/") == polls  # no poll
    assert state(app, second.id) is JobState.QUEUED  # no submit
    app.set_paused(False)
    cycles(app, 4)
    assert state(app, job.id) is JobState.DONE and state(app, second.id) is JobState.DONE


def test_expired_requests_go_into_a_later_batch(
    app: DocBatchApp, fake_anthropic: FakeAnthropic
) -> None:
    (job,) = app.add([INVOICE], mode="batch").jobs
    fake_anthropic.batch_expired({f"job_{job.id}_batch_1"})
    cycles(app)  # submitted
    poll_once(app)  # its batch ended with the request expired
    assert state(app, job.id) is JobState.SUBMITTED  # waiting for the next batch
    (waiting,) = app.store.list_requests(job.id)
    assert waiting.error == Message("batch_request_expired")
    fake_anthropic.reset()  # the API works again
    cycles(app, 2)  # sent again, then answered
    assert state(app, job.id) is JobState.DONE
    (record,) = app.store.list_requests(job.id)
    assert record.attempts == 2 and record.state == "succeeded"
    assert len(app.batches()) == 2


def test_retryable_errors_are_bounded(app: DocBatchApp, fake_anthropic: FakeAnthropic) -> None:
    (job,) = app.add([INVOICE], mode="batch").jobs
    fake_anthropic.batch_errored({f"job_{job.id}_batch_1"}, "overloaded_error")
    cycles(app, 6)
    job = app.store.get_job(job.id)
    assert job.state is JobState.FAILED and job.error_kind is ErrorKind.RETRYABLE
    assert "failed 3 times" in (job.error or "") and "Claude was overloaded" in (job.error or "")
    assert job.error_code == "batch_requests_failed"
    assert job.error_params["last"]["code"] == "batch_request_overloaded"
    russian = job.error_words("ru") or ""
    assert "3 раза; последняя ошибка: Claude был перегружен" in russian
    assert len(batch_posts(fake_anthropic)) == 3


def test_a_refused_request_stops_the_queue_and_never_blames_the_file(
    app: DocBatchApp, fake_anthropic: FakeAnthropic
) -> None:
    """A 400 on a request DocBatch built is our bug or configuration: the job fails
    as critical (not "unsupported input"), with the API's reason, and the queue stops."""
    bad, good = app.add([INVOICE, RUSSIAN], mode="batch").jobs
    fake_anthropic.batch_errored({f"job_{bad.id}_batch_1"}, "invalid_request_error")
    asyncio.run(app.run([bad.id, good.id]))
    bad = app.store.get_job(bad.id)
    assert bad.state is JobState.FAILED and bad.error_kind is ErrorKind.CRITICAL
    assert "invalid_request_error: scripted batch error" in (bad.error or "")
    assert "not a problem with the file" in (bad.error or "")
    assert app.halted is not None and "refused a request DocBatch built" in app.halted.text
    assert bad.error_code == "claude_request_refused"
    assert (bad.error_words("ru") or "").startswith("Claude отклонил запрос, собранный DocBatch")
    assert app.halted.words("ru").startswith("Claude отклонил запрос, собранный DocBatch")
    assert state(app, good.id) is JobState.DONE  # its answer was in the same results


def test_canceling_the_only_job_cancels_its_batch(
    app: DocBatchApp, fake_anthropic: FakeAnthropic
) -> None:
    fake_anthropic.batch_polls_needed = 5
    (job,) = app.add([INVOICE], mode="batch").jobs
    cycles(app)
    app.cancel(job.id)
    cycles(app, 2)
    assert fake_anthropic.count("POST", "/v1/messages/batches/") == 1  # .../cancel
    assert state(app, job.id) is JobState.CANCELED
    assert app.documents(job.id) == []


def test_a_canceled_job_sharing_a_batch_has_its_results_discarded(
    app: DocBatchApp, fake_anthropic: FakeAnthropic
) -> None:
    fake_anthropic.batch_polls_needed = 2
    first, second = app.add([INVOICE, RUSSIAN], mode="batch").jobs
    cycles(app)
    app.cancel(first.id)
    cycles(app, 3)
    assert fake_anthropic.count("POST", "/v1/messages/batches/") == 0  # not canceled
    assert state(app, first.id) is JobState.CANCELED and app.documents(first.id) == []
    assert state(app, second.id) is JobState.DONE


def test_a_restart_reattaches_processing_jobs_to_their_batch(
    claude_settings: Settings, fake_anthropic: FakeAnthropic
) -> None:
    fake_anthropic.batch_polls_needed = 3
    settings = claude_settings.model_copy(update={"poll_interval": 0.05})
    first = DocBatchApp(settings)
    (job,) = first.add([RUSSIAN], mode="batch").jobs
    cycles(first)
    assert state(first, job.id) is JobState.PROCESSING
    first.close()  # the process ends; the batch runs on at the API
    second = DocBatchApp(settings)
    (job,) = asyncio.run(second.run([job.id]))
    assert job.state is JobState.DONE
    assert len(batch_posts(fake_anthropic)) == 1
    second.close()
