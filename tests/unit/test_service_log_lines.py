"""The services' log lines, in plain English with what support needs: a real path of
each kind (a settings file with a stray key, a damaged blob written again, a webhook
nobody receives, a watched folder that goes away) logs one line naming the setting,
the blob, the job or the folder, and never a secret.
"""

from __future__ import annotations

import json
import logging
import socket
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.domain.models import NewJob
from docbatch_gui.domain.states import JobState
from docbatch_gui.outbound import webhook
from docbatch_gui.outbound.webhook import Outbox, deliver_pending
from docbatch_gui.settings.file import read_settings_file
from docbatch_gui.settings.model import Settings
from docbatch_gui.sources.watch import FolderWatcher, Ledger
from docbatch_gui.storage.blobs import LocalBlobStore
from docbatch_gui.storage.sqlite import SQLiteStore


def test_a_stray_key_and_a_secret_in_the_settings_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "settings.json"
    secret = "sk-ant-never-logged-42"
    path.write_text(json.dumps({"NO_SUCH_SETTING": 1, "ANTHROPIC_API_KEY": secret}))
    with caplog.at_level(logging.WARNING, logger="docbatch_gui.settings.file"):
        assert read_settings_file(Settings, path) == {}
    unknown, stray_secret = caplog.records
    assert unknown.getMessage() == f"unknown setting NO_SUCH_SETTING in {path} is ignored"
    assert stray_secret.getMessage() == (
        f"ANTHROPIC_API_KEY in {path} is ignored: secrets live in the keyring"
    )
    assert secret not in caplog.text


def test_a_damaged_blob_is_replaced_and_said_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = LocalBlobStore(tmp_path / "blobs")
    key = store.put_bytes(b"page one")
    (stored,) = (p for p in (tmp_path / "blobs").rglob(key) if p.is_file())
    stored.write_bytes(b"page 0ne")  # same size, other bytes: a bit flipped on disk
    with caplog.at_level(logging.WARNING, logger="docbatch_gui.storage.blobs"):
        assert store.put_bytes(b"page one") == key
    (record,) = caplog.records
    assert store.repaired == [key] and stored.read_bytes() == b"page one"
    assert record.getMessage() == f"blob {key} was damaged; replaced with a good copy"


@pytest.fixture
def closed_port() -> int:
    """A local port nothing listens on: a connection to it is refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_webhook_nobody_receives_is_kept_and_said_so(
    tmp_path: Path, closed_port: int, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    monkeypatch.setattr(webhook, "WAIT_UNIT", 0.01)
    store = SQLiteStore(tmp_path / "db.sqlite3")
    job = store.create_job(NewJob("a.pdf", "/a.pdf", "a" * 64, 1))
    outbox = Outbox(tmp_path / "webhooks")
    outbox.add(replace(job, state=JobState.NEEDS_REVIEW), [])
    settings = Settings.model_validate(
        {
            "DOCBATCH_DATA_DIR": tmp_path,
            "WEBHOOK_URL": f"http://127.0.0.1:{closed_port}/hook",
            "WEBHOOK_ATTEMPTS": 2,
        }
    )
    with caplog.at_level(logging.WARNING, logger="docbatch_gui.outbound.webhook"):
        assert deliver_pending(settings, outbox) == (0, 1)
    (record,) = caplog.records
    assert record.getMessage() == (
        f"webhook for job {job.id} (needs_review) failed: the receiver cannot be reached; "
        "kept for `docbatch webhooks --resend`"
    )
    (failed,) = outbox.failed()
    assert failed.error == "the receiver cannot be reached"  # what `docbatch webhooks` lists


def test_a_watched_folder_that_goes_away_and_comes_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "inbox"
    ledger = Ledger(tmp_path / "ledger.sqlite3")
    problems: list[str | None] = []
    watcher = FolderWatcher([folder], ledger, lambda path, where: None, poll=5.0,
                            on_problem=lambda where, message: problems.append(message))  # fmt: skip
    try:
        with caplog.at_level(logging.INFO, logger="docbatch_gui.sources.watch"):
            watcher.scan()
            watcher.scan()  # said once while it stays away
            folder.mkdir()
            watcher.scan()
    finally:
        ledger.close()
    missing, back = caplog.records
    assert missing.levelno == logging.WARNING and back.levelno == logging.INFO
    assert missing.getMessage() == (
        f"watched folder {folder}: {folder} is missing or not a folder; tried again every 5 s"
    )
    assert back.getMessage() == f"watched folder {folder} is back"
    # the window is told the same message, to word it in its own language
    told = problems[0]
    assert told is not None and told.code == "log_watch_unreadable" and problems[1:] == [None]
