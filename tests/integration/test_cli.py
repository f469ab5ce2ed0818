"""The CLI contract: commands, options, JSON keys and exit codes, run as a user would."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests import builders
from tests.conftest import SAMPLES
from tests.fakes.anthropic_server import FakeAnthropic
from tests.helpers import cli, cli_json

pytestmark = pytest.mark.slow  # every test starts the CLI, some several times

JOB_KEYS = {"id", "file", "state", "phase", "error_kind", "error", "pages", "documents"}
DOC_KEYS = {"job_id", "doc_type", "page_from", "page_to", "fields", "confidence", "filename_fields"}


@pytest.fixture(scope="module")
def processed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One data directory in which the bundled samples were processed by the CLI."""
    data = tmp_path_factory.mktemp("data")
    result = cli(data, "process", str(SAMPLES), "--wait")
    assert result.returncode == 0, result.stdout + result.stderr
    return data


def test_process_wait_prints_the_documents_found(tmp_path: Path) -> None:
    result = cli(tmp_path / "data", "process", str(SAMPLES), "--wait")
    assert result.returncode == 0, result.stderr
    assert "Documents (6)" in result.stdout
    for expected in (
        "invoice",
        "act",
        "contract",
        "waybill",  # the scan, read by Tesseract
        "118000.00",
        "INV-2024-0042",
        "1234.56",
        "70000.00",
    ):
        assert expected in result.stdout


def test_jobs_json_has_the_contract_keys(processed: Path) -> None:
    jobs = cli_json(processed, "jobs")
    assert len(jobs) == 4
    for job in jobs:
        assert set(job) >= JOB_KEYS
    states = {j["file"]: j["state"] for j in jobs}
    assert states == {
        "en_invoice_INV-2024-0042.pdf": "done",
        # read at the photo's own resolution, OCR also reads the bank block, whose tax
        # id is found by its pattern alone (confidence 0.5): a person checks it
        "photo_invoice_sideways.jpg": "needs_review",
        "ru_three_documents.pdf": "done",
        # a scan's table of goods: offline reads no lines from it, and says so
        "scan_two_pages.tiff": "needs_review",
    }
    pages = {j["file"]: j["pages"] for j in jobs}
    assert pages["ru_three_documents.pdf"] == 4 and pages["scan_two_pages.tiff"] == 2


def test_documents_json_values_are_normalised(processed: Path) -> None:
    documents = cli_json(processed, "documents")
    assert len(documents) == 6
    for document in documents:
        assert set(document) >= DOC_KEYS
        assert isinstance(document["fields"], dict)
        assert isinstance(document["confidence"], dict)
        assert isinstance(document["filename_fields"], dict)
        assert 1 <= document["page_from"] <= document["page_to"]
        date, amount = document["fields"].get("date"), document["fields"].get("amount")
        assert date is None or re.fullmatch(r"\d{4}-\d{2}-\d{2}", date)
        assert amount is None or re.fullmatch(r"-?\d+\.\d{2}", amount)
    russian = [d for d in documents if d["file"] == "ru_three_documents.pdf"]
    assert [(d["doc_type"], d["page_from"], d["page_to"]) for d in russian] == [
        ("invoice", 1, 1),
        ("act", 2, 2),
        ("contract", 3, 4),
    ]
    assert russian[0]["fields"]["amount"] == "118000.00"
    assert russian[0]["fields"]["date"] == "2024-03-12"


def test_documents_filter_by_job(processed: Path) -> None:
    jobs = {j["file"]: j["id"] for j in cli_json(processed, "jobs")}
    documents = cli_json(processed, "documents", "--job", str(jobs["scan_two_pages.tiff"]))
    assert len(documents) == 1
    assert documents[0]["doc_type"] == "waybill"
    assert documents[0]["fields"]["number"] == "318"
    missing = cli(processed, "documents", "--job", "9999")
    assert missing.returncode == 3 and "No job 9999 in the data folder" in missing.stderr


def test_second_copy_is_a_duplicate_and_force_reprocesses(tmp_path: Path) -> None:
    data = tmp_path / "data"
    copy = tmp_path / "copy_of_invoice.pdf"
    shutil.copy(SAMPLES / "en_invoice_INV-2024-0042.pdf", copy)
    assert (
        cli(data, "process", str(SAMPLES / "en_invoice_INV-2024-0042.pdf"), "--wait").returncode
        == 0
    )
    again = cli(data, "process", str(copy), "--wait", "--json")
    assert again.returncode == 0, again.stderr
    (dup,) = json.loads(again.stdout)
    assert dup["state"] == "duplicate" and dup["duplicate_of"] == 1
    assert dup["documents"] == 0
    forced = cli(data, "process", str(copy), "--wait", "--force", "--json")
    (job,) = json.loads(forced.stdout)
    assert forced.returncode == 0
    assert job["state"] == "done" and job["duplicate_of"] is None and job["documents"] == 1


def test_exit_code_is_one_when_any_job_fails(tmp_path: Path) -> None:
    bad = builders.corrupt_pdf(tmp_path / "bad.pdf")
    result = cli(
        tmp_path / "data",
        "process",
        str(bad),
        str(SAMPLES / "en_invoice_INV-2024-0042.pdf"),
        "--wait",
    )
    assert result.returncode == 1
    assert "bad.pdf" in result.stdout


def test_process_without_wait_only_queues(tmp_path: Path) -> None:
    data = tmp_path / "data"
    result = cli(data, "process", str(SAMPLES / "en_invoice_INV-2024-0042.pdf"), "--json")
    assert result.returncode == 0
    assert [j["state"] for j in json.loads(result.stdout)] == ["queued"]
    assert cli(data, "worker", "--once").returncode == 0
    assert [j["state"] for j in cli_json(data, "jobs")] == ["done"]


def test_unavailable_mode_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    result = cli(tmp_path / "data", "process", str(SAMPLES), "--mode", "sync")
    assert result.returncode == 5  # a configuration error
    assert "--mode offline" in result.stderr
    assert cli_json(tmp_path / "data", "jobs") == []


def test_invalid_setting_stops_the_start_naming_variable_value_and_range(tmp_path: Path) -> None:
    result = cli(tmp_path / "data", "jobs", env={"JOB_TIMEOUT": "-5"})
    assert result.returncode == 5
    assert "JOB_TIMEOUT='-5'" in result.stderr
    assert "0.1 to 86400" in result.stderr
    result = cli(tmp_path / "data", "jobs", env={"MAX_CONCURRENCY": "50"})
    assert "MAX_CONCURRENCY='50'" in result.stderr and "1 to 20" in result.stderr


def test_doctor_reports_each_check(tmp_path: Path) -> None:
    result = cli(tmp_path / "data", "doctor", "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    checks = {c["name"]: c for c in json.loads(result.stdout)}
    assert checks["data directory"]["status"] == "ok"
    assert checks["store"]["status"] == "ok"
    assert checks["renderer"]["status"] == "ok"
    assert "offline" in checks["Claude (Anthropic)"]["detail"]


def test_doctor_fails_on_an_unwritable_data_dir(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = cli(blocker / "data", "doctor")
    assert result.returncode == 1
    assert "DOCBATCH_DATA_DIR" in result.stdout


def test_doctor_checks_the_claude_key_without_printing_it(
    tmp_path: Path, fake_anthropic: FakeAnthropic
) -> None:
    secret = "sk-ant-test-DO-NOT-PRINT-1234567890"
    env = {"ANTHROPIC_API_KEY": secret, "ANTHROPIC_BASE_URL": fake_anthropic.url}
    good = cli(tmp_path / "data", "doctor", "--json", env=env)
    checks = {c["name"]: c for c in json.loads(good.stdout)}
    assert checks["Claude (Anthropic)"]["status"] == "ok", checks
    assert fake_anthropic.count("POST", "/v1/messages/count_tokens") == 1
    bad = cli(tmp_path / "data", "doctor", env={**env, "ANTHROPIC_API_KEY": "bad-key"})
    assert bad.returncode == 1
    assert "refused the API key" in bad.stdout
    unreachable = cli(
        tmp_path / "data", "doctor", env={**env, "ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}
    )
    assert unreachable.returncode == 1 and "cannot reach" in unreachable.stdout
    for result in (good, bad, unreachable):
        assert secret not in result.stdout + result.stderr


def test_doctor_live_sends_the_real_prompt_and_schema_and_says_what_it_cost(
    tmp_path: Path, fake_anthropic: FakeAnthropic
) -> None:
    secret = "sk-ant-test-LIVE-0987654321"
    env = {"ANTHROPIC_API_KEY": secret, "ANTHROPIC_BASE_URL": fake_anthropic.url}
    result = cli(tmp_path / "data", "doctor", "--live", "--batch", "--json", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    checks = {c["name"]: c for c in json.loads(result.stdout)}
    assert checks["Claude model"]["status"] == "ok"
    assert "effort low, thinking off" in checks["Claude model"]["detail"]
    counted, sent, batch = (checks[f"live: {n}"] for n in ("count_tokens", "sync request", "batch"))
    assert counted["status"] == "ok" and counted["cost_usd"] == 0.0
    assert "answer parsed: 1 document: invoice INV-2024-0042" in sent["detail"]
    assert sent["cost_usd"] > 0 and batch["status"] == "ok" and batch["cost_usd"] == 0.0
    (message,) = [r.json for r in fake_anthropic.requests if r.path == "/v1/messages"]
    assert message["output_config"]["format"]["type"] == "json_schema"  # the real schema
    assert message["thinking"] == {"type": "disabled"}
    assert fake_anthropic.count("POST", "/v1/messages/batches") == 1
    assert fake_anthropic.count("POST", "/v1/messages/batches/") == 1  # the cancel
    assert secret not in result.stdout + result.stderr


def test_doctor_live_reports_a_refused_model_setting_and_an_unknown_model(
    tmp_path: Path, fake_anthropic: FakeAnthropic
) -> None:
    env = {"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": fake_anthropic.url}
    fake_anthropic.fail_next(2, 400, path="/v1/messages/count_tokens")  # probe, then live
    refused = cli(tmp_path / "data", "doctor", "--live", env=env)
    assert refused.returncode == 1
    assert "FAIL  live: count_tokens: Claude refused a request DocBatch built" in refused.stdout
    unknown = cli(tmp_path / "data", "doctor", env={**env, "ANTHROPIC_MODEL": "claude-opus-9"})
    assert unknown.returncode != 0
    shown = unknown.stdout + unknown.stderr
    assert "ANTHROPIC_MODEL='claude-opus-9'" in shown and "claude-haiku-5-5" in shown
    assert "Traceback" not in shown
    offline = cli(tmp_path / "data", "doctor", "--live")
    assert offline.returncode == 1 and "no ANTHROPIC_API_KEY" in offline.stdout
