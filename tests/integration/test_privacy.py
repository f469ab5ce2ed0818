"""Secrets and privacy: an echoed key never reaches the store, the log or the
terminal; the data folder is private and ``doctor`` says when it is not."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from tests.fakes.anthropic_server import FakeAnthropic
from tests.helpers import cli

INVOICE = SAMPLES / "en_invoice_INV-2024-0042.pdf"
#: a key of no recognisable shape: only the scrubber's memory of it can hide it
PLAIN_KEY = "plain-secret-value-4242"
SHAPED_KEY = "sk-ant-api03-" + "Z" * 40


def test_credential_shapes_are_scrubbed_whatever_their_value() -> None:
    from docbatch_gui.settings.secrets import scrub_secrets

    said = f"401 invalid x-api-key {SHAPED_KEY}; Authorization: Bearer abc.def-123456789"
    clean = scrub_secrets(said + " mongodb://app:hunter22@db:27017/x")
    assert SHAPED_KEY not in clean and "abc.def-123456789" not in clean
    assert "hunter22" not in clean and "mongodb://app:***@db" in clean


@pytest.mark.slow
def test_an_echoed_key_is_scrubbed_everywhere(
    tmp_path: Path, fake_anthropic: FakeAnthropic
) -> None:
    for key in (PLAIN_KEY,):  # no recognisable shape: only its remembered value hides it
        data = tmp_path / key[:5]
        fake_anthropic.echo_key_next(20)
        env = {
            "ANTHROPIC_API_KEY": key,
            "ANTHROPIC_BASE_URL": fake_anthropic.url,
            "ANTHROPIC_MAX_RETRIES": "0",
        }
        result = cli(data, "-v", "process", str(INVOICE), "--mode", "sync", "--wait", env=env)
        assert result.returncode == 8  # a refused key stops the run: a critical error
        jobs = json.loads(cli(data, "jobs", "--json", env=env).stdout)
        assert jobs[0]["state"] == "failed" and "***" in jobs[0]["error"], jobs
        log = (data / "logs" / "docbatch.log").read_text(encoding="utf-8")
        for text in (result.stdout, result.stderr, json.dumps(jobs), log):
            assert key not in text
        assert "invalid x-api-key ***" in jobs[0]["error"]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes (Windows: test_system.py)")
def test_the_data_folder_is_private_and_doctor_checks_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert cli(data, "process", str(INVOICE), "--mode", "offline", "--wait").returncode == 0
    assert mode(data) == 0o700
    for name in ("docbatch.sqlite3", "logs/docbatch.log"):
        assert mode(data / name) == 0o600, name
    assert mode(data / "logs") == 0o700
    blobs = [p for p in (data / "blobs").rglob("*") if p.is_file()]
    assert blobs and all(mode(p) == 0o600 for p in blobs)
    from docbatch_gui.diagnostics.doctor import _privacy
    from docbatch_gui.settings.loading import load_settings

    assert _privacy(load_settings(data_dir=data)).status == "ok"
    os.chmod(data, 0o755)
    os.chmod(data / "docbatch.sqlite3", 0o644)
    checks = {c["name"]: c for c in json.loads(cli(data, "doctor", "--json").stdout)}
    assert checks["data permissions"]["status"] == "warn"
    assert str(data / "docbatch.sqlite3") + " (644)" in checks["data permissions"]["detail"]
    assert f"chmod -R go-rwx {data}" in checks["data permissions"]["detail"]
    cli(data, "jobs")  # opening the folder makes it private again
    assert mode(data) == 0o700 and mode(data / "docbatch.sqlite3") == 0o600


@pytest.mark.slow
def test_doctor_reports_leftover_temporaries(tmp_path: Path) -> None:
    data = tmp_path / "data"
    incoming = data / "blobs" / ".incoming"
    incoming.mkdir(parents=True)
    (incoming / ".999999-half").write_bytes(b"x" * 2048)  # pid 999999: long gone
    checks = {c["name"]: c for c in json.loads(cli(data, "doctor", "--json").stdout)}
    assert checks["leftover temporaries"]["status"] == "warn"
    assert "1 half-written file" in checks["leftover temporaries"]["detail"]


def test_webhook_watch_and_layout_files_are_private_like_the_rest(tmp_path: Path) -> None:
    """Issue 27: ``webhooks/``, ``watch/`` and ``export_layouts/`` were 0755, their
    files 0644, though they hold results, scanned paths and the operator's layouts."""
    from docbatch_gui.config.profile import load_profile
    from docbatch_gui.domain.models import Job
    from docbatch_gui.domain.states import JobState, ProcessingMode
    from docbatch_gui.outbound.layouts import Column, Layout, save_layout
    from docbatch_gui.outbound.webhook import Outbox
    from docbatch_gui.sources.watch import Ledger
    from docbatch_gui.storage.health import permission_problems

    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    old = os.umask(0o022)  # an ordinary user's: new files 0644, folders 0755
    try:
        outbox = Outbox(data / "webhooks")
        job = Job(1, "a.pdf", "/in/a.pdf", "a" * 64, 1, ProcessingMode.OFFLINE, JobState.DONE,
                  None)  # fmt: skip
        message = outbox.add(job, [])
        outbox.give_up(outbox.add(job, []), 3, "refused")
        ledger = Ledger(data / "watch" / "taken.sqlite3")
        ledger.record(tmp_path / "in" / "a.pdf", 1, 1, tmp_path / "in", 1, "queued")
        ledger.close()
        layout = save_layout(Layout("mine", (Column("file"),)), data / "export_layouts",
                             load_profile())  # fmt: skip
    finally:
        os.umask(old)
    files = [
        data / "webhooks" / "pending" / f"{message.id}.json",
        next((data / "webhooks" / "failed").glob("*.json")),
        data / "watch" / "taken.sqlite3",
        layout,
    ]
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    for folder in ("webhooks", "webhooks/pending", "webhooks/failed", "watch", "export_layouts"):
        assert stat.S_IMODE((data / folder).stat().st_mode) == 0o700, folder
    assert permission_problems(data) == []
    os.chmod(files[0], 0o644)  # drifted: doctor's check sees it
    assert permission_problems(data) == [f"{files[0]} (644)"]
