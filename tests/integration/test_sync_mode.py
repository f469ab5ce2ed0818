"""Sync mode end to end: the real SDK against the wire-level fake Anthropic server."""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
from pathlib import Path

import pymupdf
import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.model import Settings
from tests import builders
from tests.conftest import SAMPLES
from tests.fakes.anthropic_answers import expected_documents, wire_fields
from tests.fakes.anthropic_server import FakeAnthropic
from tests.helpers import cli

pytestmark = pytest.mark.slow  # whole sync-mode runs


def page_texts(path: Path) -> list[tuple[int, str]]:
    with pymupdf.open(path) as document:
        return [(page.number + 1, page.get_text().strip()) for page in document]


def run(app: DocBatchApp, paths: list[Path], mode: str = "sync") -> list:
    return asyncio.run(app.run([j.id for j in app.add(paths, mode=mode).jobs]))


def test_cli_sync_mode_turns_the_samples_into_the_documents_the_model_derived(
    tmp_path: Path, fake_anthropic: FakeAnthropic
) -> None:
    env = {"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": fake_anthropic.url}
    data = tmp_path / "data"
    result = cli(data, "process", str(SAMPLES), "--mode", "sync", "--wait", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    documents = json.loads(cli(data, "documents", "--json", env=env).stdout)
    russian = [d for d in documents if d["file"] == "ru_three_documents.pdf"]
    expected = expected_documents(
        "ru_three_documents.pdf", page_texts(SAMPLES / "ru_three_documents.pdf")
    )
    assert [(d["doc_type"], d["page_from"], d["page_to"]) for d in russian] == [
        (e["doc_type"], e["page_from"], e["page_to"]) for e in expected["documents"]
    ]
    for got, want in zip(russian, expected["documents"], strict=True):
        assert got["fields"] == wire_fields(want)
    assert russian[0]["fields"]["amount"] == "118000.00"
    jobs = json.loads(cli(data, "jobs", "--json", env=env).stdout)
    assert {j["mode"] for j in jobs} == {"sync"}
    for job in jobs:
        assert job["cost_estimate_usd"] > 0
        assert job["cost_actual_usd"] > 0
    assert fake_anthropic.count("POST", "/v1/messages") == 4  # one group per file


def test_long_file_is_split_into_groups_and_stitched(
    claude_settings: Settings, tmp_path: Path
) -> None:
    app = DocBatchApp(claude_settings)
    source = pymupdf.open(SAMPLES / "ru_three_documents.pdf")
    long_pdf = pymupdf.open()
    for _ in range(5):  # 20 pages: groups 1-8, 9-16, 17-20; contracts cross 8|9 and 16|17
        long_pdf.insert_pdf(source)
    long_pdf.save(tmp_path / "long.pdf")
    (job,) = run(app, [tmp_path / "long.pdf"])
    assert job.state in (JobState.DONE, JobState.NEEDS_REVIEW), job.error
    documents = app.documents(job.id)
    assert [(d.doc_type, d.page_from, d.page_to) for d in documents] == [
        (kind, 4 * n + a, 4 * n + b)
        for n in range(5)
        for kind, a, b in (("invoice", 1, 1), ("act", 2, 2), ("contract", 3, 4))
    ]
    records = app.store.list_requests(job.id)
    assert [r.custom_id for r in records] == [f"job_{job.id}_batch_{n}" for n in (1, 2, 3)]
    assert all(r.state == "succeeded" and r.input_tokens > 0 for r in records)
    assert job.cost_actual_usd == pytest.approx(sum(r.cost_usd or 0 for r in records))
    app.close()


def test_rate_limit_and_overload_storms_are_retried_and_bounded(
    claude_settings: Settings, fake_anthropic: FakeAnthropic
) -> None:
    fake_anthropic.fail_next(2, 429, retry_after=0.05)
    fake_anthropic.fail_next(2, 529)
    app = DocBatchApp(claude_settings)
    jobs = run(app, [SAMPLES / "en_invoice_INV-2024-0042.pdf", SAMPLES / "ru_three_documents.pdf"])
    assert all(j.state is JobState.DONE for j in jobs), [j.error for j in jobs]
    calls = fake_anthropic.count("POST", "/v1/messages")
    assert calls == 2 + 4  # two requests, four refused attempts retried
    app.close()


def test_a_500_on_one_request_leaves_the_others_alone(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    app = DocBatchApp(claude_settings)
    good = [SAMPLES / "en_invoice_INV-2024-0042.pdf", SAMPLES / "ru_three_documents.pdf"]
    bad = shutil.copy(SAMPLES / "en_invoice_INV-2024-0042.pdf", tmp_path / "other.pdf")
    builders  # noqa: B018 - keep the import for symmetry with other modules
    report = app.add([*good, Path(bad)], mode="sync", force=True)
    failing = next(j for j in report.jobs if j.file_name == "other.pdf")
    fake_anthropic.fail_custom_ids({f"job_{failing.id}_batch_1"}, 500)
    jobs = {j.file_name: j for j in asyncio.run(app.run([j.id for j in report.jobs]))}
    assert jobs["ru_three_documents.pdf"].state is JobState.DONE
    assert jobs["en_invoice_INV-2024-0042.pdf"].state is JobState.DONE
    assert jobs["other.pdf"].state is JobState.FAILED
    assert jobs["other.pdf"].error_kind is ErrorKind.RETRYABLE
    assert "1 of 1 request to Claude failed" in (jobs["other.pdf"].error or "")
    app.close()


def test_the_log_says_a_failed_attempt_is_tried_again_and_advises_a_retry_only_at_the_end(
    claude_settings: Settings,
    fake_anthropic: FakeAnthropic,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = DocBatchApp(claude_settings)
    bad = shutil.copy(SAMPLES / "en_invoice_INV-2024-0042.pdf", tmp_path / "other.pdf")
    (job,) = app.add([Path(bad)], mode="sync", force=True).jobs
    fake_anthropic.fail_custom_ids({f"job_{job.id}_batch_1"}, 500)
    with caplog.at_level(logging.WARNING, logger="docbatch_gui.engine.worker"):
        (job,) = asyncio.run(app.run([job.id]))
    assert job.state is JobState.FAILED and job.attempts == 3
    lines = [r.getMessage() for r in caplog.records if f"job {job.id} " in r.getMessage()]
    again = [line for line in lines if "trying again automatically" in line]
    assert [line.split(";")[0] for line in again] == [
        f"job {job.id} (other.pdf) attempt 1 of 3 failed",
        f"job {job.id} (other.pdf) attempt 2 of 3 failed",
    ]
    assert not any("Retry the job" in line for line in again)
    final = [line for line in lines if "Retry the job" in line]
    assert len(final) == 1 and "failed [retryable]" in final[0]
    app.close()


def test_a_retried_job_gets_a_new_round_of_automatic_attempts(
    claude_settings: Settings,
    fake_anthropic: FakeAnthropic,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Failed at attempt 3 of 3, then retried by the operator: a temporary failure
    after the Retry is attempt 1 of a new round, tried again by the worker, not the
    job's final failure."""
    app = DocBatchApp(claude_settings)
    (job,) = app.add([SAMPLES / "en_invoice_INV-2024-0042.pdf"], mode="sync").jobs
    sends = 1 + claude_settings.request_retries  # what one attempt sends, all refused
    fake_anthropic.invalid_output_next(sends * 3)
    (job,) = asyncio.run(app.run([job.id]))
    assert job.state is JobState.FAILED and job.attempts == 3
    app.retry(job.id)
    caplog.clear()  # the lines of the new round only
    fake_anthropic.invalid_output_next(sends)  # the new round's first attempt fails
    with caplog.at_level(logging.WARNING, logger="docbatch_gui.engine.worker"):
        (job,) = asyncio.run(app.run([job.id]))
    assert job.state in (JobState.DONE, JobState.NEEDS_REVIEW), job.error
    assert (job.attempts, job.retry_base) == (5, 3)  # attempts still grow: the fence
    again = [r.getMessage() for r in caplog.records if "trying again" in r.getMessage()]
    assert [line.split(";")[0] for line in again] == [
        f"job {job.id} (en_invoice_INV-2024-0042.pdf) attempt 1 of 3 failed"
    ]
    app.close()


def test_401_is_critical_and_stops_the_queue(claude_settings: Settings, tmp_path: Path) -> None:
    settings = claude_settings.model_copy(update={"anthropic_api_key": None})
    app = DocBatchApp(settings)
    app.__dict__["anthropic_key"] = "bad-key"
    files = [
        shutil.copy(SAMPLES / "en_invoice_INV-2024-0042.pdf", tmp_path / f"{n}.pdf")
        for n in range(4)
    ]
    report = app.add([Path(f) for f in files], mode="sync", force=True)
    jobs = asyncio.run(app.run([j.id for j in report.jobs]))
    states = [j.state for j in jobs]
    failed = [j for j in jobs if j.state is JobState.FAILED]
    assert failed and all(j.error_kind is ErrorKind.CRITICAL for j in failed)
    assert JobState.QUEUED in states  # the queue stopped: the rest wait, not failed
    assert app.halted is not None and "ANTHROPIC_API_KEY" in app.halted.text
    assert "bad-key" not in app.halted.text
    app.close()


def test_invalid_json_is_retried_then_fails_with_a_clear_reason(
    claude_settings: Settings, fake_anthropic: FakeAnthropic
) -> None:
    app = DocBatchApp(claude_settings)
    (job,) = app.add([SAMPLES / "en_invoice_INV-2024-0042.pdf"], mode="sync").jobs
    fake_anthropic.invalid_output_for({f"job_{job.id}_batch_1"})
    (job,) = asyncio.run(app.run([job.id]))
    assert job.state is JobState.FAILED
    assert "not JSON" in (job.error or "")
    sent = fake_anthropic.count("POST", "/v1/messages")
    # each job attempt sends 1 + REQUEST_RETRIES times; the job is retried up to 3 times
    assert sent == (1 + claude_settings.request_retries) * 3
    app.close()


def test_an_answer_naming_missing_pages_is_rejected_and_asked_again(
    claude_settings: Settings, fake_anthropic: FakeAnthropic
) -> None:
    fake_anthropic.bad_pages_next(1)
    app = DocBatchApp(claude_settings)
    (job,) = run(app, [SAMPLES / "ru_three_documents.pdf"])
    assert job.state is JobState.DONE
    assert fake_anthropic.count("POST", "/v1/messages") == 2
    assert max(d.page_to for d in app.documents(job.id)) == 4
    app.close()


def test_network_cut_leaves_jobs_retryable_and_loses_nothing(
    claude_settings: Settings, tmp_path: Path
) -> None:
    with FakeAnthropic() as server:
        # the job's attempts are tested, not the SDK's retries (their backoff took ~10 s)
        settings = claude_settings.model_copy(
            update={"anthropic_base_url": server.url, "anthropic_max_retries": 0}
        )
        app = DocBatchApp(settings)
        (job,) = app.add([SAMPLES / "ru_three_documents.pdf"], mode="sync").jobs
    # the server is gone now
    (job,) = asyncio.run(app.run([job.id]))
    # its attempts spent, the job waits held with the address, not failed
    assert job.state is JobState.QUEUED and not job.error
    hold = app.hold_of(job)
    assert hold is not None and hold.need == "claude_unreachable"
    assert "Claude cannot be reached at 127.0.0.1:" in hold.words()
    assert len(app.pages(job.id)) == 4 and all(p.deliverable for p in app.pages(job.id))
    with FakeAnthropic() as back:
        app.settings.anthropic_base_url = back.url
        app.retry(job.id)
        (job,) = asyncio.run(app.run([job.id]))
    assert job.state is JobState.DONE
    assert len(app.documents(job.id)) == 3
    app.close()
