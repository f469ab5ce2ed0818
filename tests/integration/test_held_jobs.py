"""A job that needs what this installation lacks (an Anthropic key) is held, not left
waiting in silence: ``jobs --json`` names what it lacks, the forecast leaves it out,
``process --wait`` stops at once with the reason (exit 4), and *Process offline*
lifts the hold.

The held job is made as an operator makes it: queued in sync mode while a key was
set, the key gone since.
"""

from __future__ import annotations

import json
import logging
import shutil
import socket
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.cli import main
from docbatch_gui.domain.errors import ExitCode
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.loading import load_settings
from tests.conftest import SAMPLES
from tests.fakes.anthropic_server import FakeAnthropic
from tests.helpers import cli

INVOICE = SAMPLES / "en_invoice_INV-2024-0042.pdf"


@pytest.fixture
def held_data(tmp_path: Path) -> Path:
    """A data folder with one sync-mode job queued under a key that is gone now."""
    data = tmp_path / "data"
    with_key = DocBatchApp(load_settings(data_dir=data, ANTHROPIC_API_KEY="gone-since"))
    try:
        (job,) = with_key.add([INVOICE], mode="sync").jobs
        assert job.mode.value == "sync" and job.state is JobState.QUEUED
    finally:
        with_key.close()
    return data


def jobs_json(data: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    capsys.readouterr()
    assert main(["--data-dir", str(data), "jobs", "--json"]) == ExitCode.OK
    return json.loads(capsys.readouterr().out)


def test_jobs_json_names_what_a_held_job_lacks_and_what_lifts_it(
    held_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (row,) = jobs_json(held_data, capsys)
    assert row["state"] == "queued"
    assert row["held_by"] == "anthropic_key"
    assert row["held_actions"] == ["add_key", "process_offline"]
    reason = str(row["held_reason"])
    assert "no Anthropic API key is set" in reason and "process it offline" in reason
    capsys.readouterr()
    assert main(["--data-dir", str(held_data), "jobs"]) == ExitCode.OK
    table = capsys.readouterr().out
    assert "Queued (held)" in table


def test_the_forecast_does_not_price_a_held_job(held_data: Path) -> None:
    app = DocBatchApp(load_settings(data_dir=held_data))
    try:
        assert app.forecast().jobs == 0
        (job,) = app.jobs()
        assert app.hold_of(job) is not None
        # with the key back, the same job is priced and no longer held
        keyed = DocBatchApp(
            load_settings(data_dir=held_data, ANTHROPIC_API_KEY="sk-ant-test-key-held")
        )
        try:
            assert keyed.hold_of(job) is None
            assert keyed.forecast().jobs == 1
        finally:
            keyed.close()
    finally:
        app.close()


@pytest.mark.slow
def test_process_wait_does_not_wait_on_a_held_job(held_data: Path) -> None:
    """The same file again is a duplicate of the held job: waiting for its original
    used to last for ever. Now the command ends at once with the reason, exit 4."""
    result = cli(held_data, "process", "--wait", str(INVOICE), timeout=90)
    assert result.returncode == ExitCode.WRONG_STATE, result.stderr
    assert "1 job held, not waited for" in result.stderr
    assert "no Anthropic API key is set" in result.stderr
    russian = cli(held_data, "--lang", "ru", "process", "--wait", str(INVOICE), timeout=90)
    assert russian.returncode == ExitCode.WRONG_STATE
    assert "ключ API Anthropic не задан" in russian.stderr


def test_process_offline_lifts_the_hold_and_logs_it(
    held_data: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    app = DocBatchApp(load_settings(data_dir=held_data))
    try:
        (job,) = app.jobs()
        (moved,) = app.process_offline([job.id])
        assert moved.mode.value == "offline" and moved.state is JobState.QUEUED
        assert app.hold_of(moved) is None
        assert app.process_offline([job.id]) == []  # nothing left to move
    finally:
        app.close()
    assert any(
        f"job {job.id} ({INVOICE.name}) set to be processed offline" in r.getMessage()
        for r in caplog.records
    )
    (row,) = jobs_json(held_data, capsys)
    assert row["held_by"] is None and row["mode"] == "offline"


@pytest.mark.slow
def test_process_wait_stopped_by_a_refused_key_exits_8(
    tmp_path: Path, fake_anthropic: FakeAnthropic
) -> None:
    """A refused key stops the queue with jobs still queued: the account, exit 8."""
    files = [shutil.copy(INVOICE, tmp_path / f"{n}.pdf") for n in range(3)]
    env = {"ANTHROPIC_API_KEY": "bad-key", "ANTHROPIC_BASE_URL": fake_anthropic.url}
    result = cli(tmp_path / "data", "process", "--wait", "--mode", "sync", *files, env=env)
    assert result.returncode == ExitCode.CRITICAL, result.stderr
    assert "Stopped:" in result.stderr and "bad-key" not in result.stderr


@pytest.fixture
def no_google_credentials(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """No application-default credentials anywhere this machine would look."""
    empty = tmp_path / "gcloud"
    empty.mkdir()
    env = {"CLOUDSDK_CONFIG": str(empty), "HOME": str(tmp_path), "APPDATA": str(empty)}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("GOOGLE_APPLICATION_CREDENTIALS", raising=False)
    monkeypatch.delenv("GOOGLE_VISION_ENDPOINT", raising=False)
    return {**env, "OCR_ENGINE": "google_vision"}


def test_vision_without_credentials_holds_the_jobs_that_may_need_ocr(
    tmp_path: Path,
    no_google_credentials: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """OCR_ENGINE=google_vision and no credentials: `jobs --json` names what is missing
    and what lifts it; with a credentials file (or Tesseract) the hold is gone."""
    data = tmp_path / "data"
    app = DocBatchApp(load_settings(data_dir=data, OCR_ENGINE="google_vision"))
    try:
        (job,) = app.add([INVOICE], mode="offline").jobs
        hold = app.hold_of(job)
        assert hold is not None and hold.need == "vision_credentials"
        assert "no Google credentials are found" in hold.words()
        assert "Google credentials" not in hold.words("ru")
    finally:
        app.close()
    capsys.readouterr()
    monkeypatch.setenv("OCR_ENGINE", "google_vision")  # what the CLI reads it from
    assert main(["--data-dir", str(data), "jobs", "--json"]) == ExitCode.OK
    (row,) = json.loads(capsys.readouterr().out)
    assert row["held_by"] == "vision_credentials"
    assert row["held_actions"] == ["set_up_vision", "use_tesseract"]
    credentials = tmp_path / "service-account.json"
    credentials.write_text("{}", encoding="utf-8")
    for lifted in (
        load_settings(
            data_dir=data,
            OCR_ENGINE="google_vision",
            GOOGLE_APPLICATION_CREDENTIALS=str(credentials),
        ),
        load_settings(data_dir=data, OCR_ENGINE="tesseract"),
    ):
        other = DocBatchApp(lifted)
        try:
            assert other.hold_of(other.jobs()[0]) is None
        finally:
            other.close()


@pytest.mark.slow
def test_process_wait_does_not_wait_on_a_job_vision_cannot_read(
    tmp_path: Path, no_google_credentials: dict[str, str]
) -> None:
    """The command ends at once with the reason, exit 4, and leaves the job queued."""
    result = cli(tmp_path / "data", "process", "--wait", "--mode", "offline", str(INVOICE),
                 env=no_google_credentials, timeout=90)  # fmt: skip
    assert result.returncode == ExitCode.WRONG_STATE, result.stderr
    assert "1 job held, not waited for" in result.stderr
    assert "no Google credentials are found" in result.stderr


def closed_port() -> int:
    """A local port nothing listens on: a connection to it is refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.slow
def test_claude_unreachable_holds_the_job_until_retry_now(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """ANTHROPIC_BASE_URL refuses connections: the job is not failed with a network
    error after its retries, it waits held with the host in words; `process --wait`
    ends with that reason (exit 4); *Retry now* lifts the hold and queues it."""
    port = closed_port()
    env = {
        "ANTHROPIC_API_KEY": "sk-ant-test-key-unreachable",
        "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}",
        # the job's own attempts are what is tested, not the SDK's: its 4 default
        # retries of each refused call, with backoff, made each command take ~45 s
        "ANTHROPIC_MAX_RETRIES": "0",
    }
    data = tmp_path / "data"
    result = cli(data, "process", "--wait", "--mode", "sync", str(INVOICE), env=env)
    assert result.returncode == ExitCode.WRONG_STATE, result.stderr
    assert "1 job held, not waited for" in result.stderr
    assert f"Claude cannot be reached at 127.0.0.1:{port}" in result.stderr
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    (row,) = jobs_json(data, capsys)
    assert row["state"] == "queued" and row["held_by"] == "claude_unreachable"
    assert row["held_actions"] == ["retry_now", "process_offline"]
    assert "ANTHROPIC_BASE_URL" in str(row["held_reason"])
    app = DocBatchApp(load_settings(data_dir=data, **env))
    try:
        (job,) = app.jobs()
        assert job.state is JobState.QUEUED and not job.error
        assert app.retry_now([job.id]) == [job.id]
        assert app.hold_of(app.jobs()[0]) is None
        assert app.retry_now([job.id]) == []  # nothing left to lift
    finally:
        app.close()
    # held again, `docbatch retry ID` lifts it too (what a script reads retry_now as)
    again = cli(data, "process", "--wait", "--mode", "sync", str(INVOICE), "--force", env=env)
    assert again.returncode == ExitCode.WRONG_STATE, again.stderr
    newest = max(jobs_json(data, capsys), key=lambda r: int(str(r["id"])))
    assert newest["held_by"] == "claude_unreachable"
    assert main(["--data-dir", str(data), "retry", str(newest["id"])]) == ExitCode.OK
    rows = {r["id"]: r for r in jobs_json(data, capsys)}
    assert rows[newest["id"]]["held_by"] is None and rows[newest["id"]]["state"] == "queued"


def test_retry_of_a_job_held_for_its_key_logs_that_reason(
    held_data: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The job was held as Claude was unreachable, then for the key it lost: `docbatch
    retry` used to log "(Claude could not be reached before)", a reason it no longer
    had; the line names the hold the job has."""
    from docbatch_gui.engine.holds import UNREACHABLE_SETTING

    caplog.set_level(logging.INFO)
    app = DocBatchApp(load_settings(data_dir=held_data))
    try:
        (job,) = app.jobs()
        app.store.set_setting(UNREACHABLE_SETTING, {"host": "127.0.0.1:9", "jobs": [job.id]})
    finally:
        app.close()
    assert main(["--data-dir", str(held_data), "retry", str(job.id)]) == ExitCode.OK
    (line,) = [r.getMessage() for r in caplog.records if "by the operator" in r.getMessage()]
    assert "Claude could not be reached" not in line
    assert "no Anthropic API key is set" in line and "still held" in line


def test_a_held_reason_names_the_file_once(held_data: Path) -> None:
    """The queue's line under the name and the detail pane ("Held: …") already name
    the file and say it is held: the reason there used to repeat both ("Held: x.pdf:
    held: …"), in English and Russian."""
    app = DocBatchApp(load_settings(data_dir=held_data))
    try:
        (job,) = app.jobs()
        hold = app.hold_of(job)
    finally:
        app.close()
    assert hold is not None and hold.words().startswith(f"{INVOICE.name}: held: ")
    assert hold.reason().startswith("It is to be read by Claude (sync mode)")
    russian = hold.reason("ru")
    assert INVOICE.name not in russian and "задержано" not in russian
    assert russian.startswith("Его должен прочитать Claude")
