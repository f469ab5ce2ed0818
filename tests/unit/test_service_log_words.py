"""The services' log lines read in Russian: a real path of each kind (a settings file
with a stray key, a damaged blob written again, a webhook nobody receives, a watched
folder that goes away) logs a record that carries its message, and the message's
Russian words hold no English word, only names, paths and numbers.
"""

from __future__ import annotations

import json
import logging
import re
import socket
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.domain import NewJob
from docbatch_gui.domain.messages import Message, placeholders
from docbatch_gui.domain.said import worded_line
from docbatch_gui.domain.states import JobState
from docbatch_gui.domain.texts_log_services import LOG_SERVICE_TEXTS
from docbatch_gui.outbound import webhook
from docbatch_gui.outbound.webhook import Outbox, deliver_pending
from docbatch_gui.settings.file import read_settings_file
from docbatch_gui.settings.model import Settings
from docbatch_gui.sources.watch import FolderWatcher, Ledger
from docbatch_gui.storage.blobs import LocalBlobStore
from docbatch_gui.storage.sqlite import SQLiteStore

#: proper names, signals, formats and commands a Russian line may keep as they are
NAMES = {
    "Claude", "Anthropic", "Tesseract", "OCR", "MinIO", "Redis", "Celery", "Excel",
    "calamine", "openpyxl", "DocBatch", "docbatch", "HTTP", "SIGKILL", "PDF", "TIFF",
}  # fmt: skip


def _values(params: Mapping[str, Any]) -> Iterator[str]:
    """Every text a message was given (paths, file names, nested messages' ones)."""
    for value in params.values():
        if isinstance(value, Mapping):
            yield from _values(value.get("params") or {})
        elif isinstance(value, str) and value:
            yield value


def english_words(text: str, params: Mapping[str, Any] | None = None) -> list[str]:
    """The Latin words of ``text`` that are not names: not a given path or file name,
    not a command in backticks, not an identifier (``MAX_PAGES``, ``max_tokens``)."""
    for value in sorted(_values(params or {}), key=len, reverse=True):
        text = text.replace(value, " ")
    text = re.sub(r"`[^`]*`", " ", text)
    words = re.findall(r"[A-Za-z][A-Za-z0-9_.-]*", text)
    return [w for w in words if w not in NAMES and "_" not in w and not w.isupper()]


def russian(record: logging.LogRecord) -> str:
    message = worded_line(record)
    assert isinstance(message, Message), record.getMessage()
    words = message.words("ru")
    assert words != message.english and not english_words(words, message.params), words
    return words


def test_the_check_finds_english_and_spares_names() -> None:
    assert english_words("веб-хук не доставлен: the receiver") == ["the", "receiver"]
    assert english_words("Book 1.xlsx: читается через openpyxl", {"x": "Book 1.xlsx"}) == []
    assert english_words("сохранён для `docbatch webhooks --resend`; max_tokens, MAX_PAGES") == []


@pytest.mark.parametrize("code", sorted(LOG_SERVICE_TEXTS))
def test_every_russian_template_holds_no_english_word(code: str) -> None:
    texts = LOG_SERVICE_TEXTS[code]
    blank = dict.fromkeys(placeholders(texts["ru"]), "")
    template = re.sub(r"\{[^}]*\}", " ", texts["ru"])
    assert not english_words(template, blank), (code, texts["ru"])


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
    assert russian(unknown) == f"неизвестная настройка NO_SUCH_SETTING в {path} пропущена"
    assert "ANTHROPIC_API_KEY in" in stray_secret.getMessage()
    assert "хранилище ключей" in russian(stray_secret)
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
    assert russian(record).startswith(f"файл хранилища {key} был повреждён")


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
        f"webhook for job {job.id} (Needs review) failed: the receiver cannot be reached; "
        "kept for `docbatch webhooks --resend`"
    )
    assert russian(record) == (
        f"веб-хук задания {job.id} (Требует проверки) не доставлен: получатель недоступен; "
        "сохранён для `docbatch webhooks --resend`"
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
    assert russian(missing) == (
        f"отслеживаемая папка {folder}: папки {folder} нет, или это не папка; повторная "
        "попытка каждые 5 с"
    )
    assert russian(back) == f"отслеживаемая папка {folder} снова доступна"
    # the window is told the same message, to word it in its own language
    told = problems[0]
    assert told is not None and told.code == "log_watch_unreadable" and problems[1:] == [None]
