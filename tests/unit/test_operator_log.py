"""The operator's own work is in the log: one plain-English line per change, naming
what changed (job, document, field, old → new), never a secret's value."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from docbatch_gui.app.review import ReviewService
from docbatch_gui.domain.models import Document, NewJob, Page
from docbatch_gui.domain.states import JobState
from docbatch_gui.registry.config import load_config
from docbatch_gui.registry.service import RegistryService
from docbatch_gui.settings.saving import save_settings
from docbatch_gui.storage.sqlite import SQLiteStore
from tests.accountant_sheet import SHEET, accountant_xlsx
from tests.fakes.memory_keyring import MemoryKeyring, memory_keyring

API_KEY = "sk-ant-log-secret-777"


@pytest.fixture
def ring() -> Iterator[MemoryKeyring]:
    with memory_keyring() as backend:
        yield backend


@pytest.fixture
def settings_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "config" / "settings.json"
    monkeypatch.setenv("DOCBATCH_SETTINGS_FILE", str(path))
    monkeypatch.setenv("DOCBATCH_DATA_DIR", str(tmp_path / "data"))
    for name in ("BATCH_SIZE", "JOB_TIMEOUT", "PROCESSING_MODE", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    return path


def lines(caplog: pytest.LogCaptureFixture, start: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith(start)]


def test_settings_saved_names_what_changed_and_no_secret(
    settings_file: Path, ring: MemoryKeyring, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    save_settings({"BATCH_SIZE": 50})
    caplog.clear()
    save_settings({"BATCH_SIZE": 50, "JOB_TIMEOUT": 1234, "ANTHROPIC_API_KEY": API_KEY})
    (line,) = lines(caplog, "settings saved")
    assert "JOB_TIMEOUT, ANTHROPIC_API_KEY (secret) changed" in line
    assert "2 values differ from the defaults: BATCH_SIZE, JOB_TIMEOUT" in line
    assert API_KEY not in caplog.text
    caplog.clear()
    save_settings({"ANTHROPIC_API_KEY": API_KEY})  # the same key again: nothing changed
    assert "nothing changed" in lines(caplog, "settings saved")[0]
    caplog.clear()
    save_settings({"JOB_TIMEOUT": 900})  # back to its default: one left
    assert "; 1 value differs from the defaults: BATCH_SIZE" in lines(caplog, "settings saved")[0]


def waiting_document(store: SQLiteStore) -> tuple[int, Document]:
    job = store.create_job(NewJob("scan.pdf", "/in/scan.pdf", "e" * 64, 10))
    store.claim(job.id, JobState.PREPARING)
    store.put_pages([Page(job.id, 1, 600, 820, deliverable=True)])
    store.transition(job.id, JobState.BUILDING, pages=1)
    fields = {"number": "СЧ-1", "date": "2024-03-01", "amount": "100.00"}
    (doc,) = store.replace_documents(
        job.id, [Document(job.id, 0, "invoice", 1, 1, fields=fields, needs_review=True)]
    )
    store.transition(job.id, JobState.NEEDS_REVIEW)
    return job.id, doc


def test_review_edits_and_confirmations_are_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = SQLiteStore(tmp_path / "db.sqlite")
    job_id, doc = waiting_document(store)
    review = ReviewService(store)
    caplog.set_level(logging.INFO, logger="docbatch_gui")
    review.edit(job_id, 0, who="olga", fields={"amount": "120,00", "number": "СЧ-1"})
    review.edit(job_id, 0, who="olga", fields={"amount": "120,00"})  # no change: no line
    (edited,) = lines(caplog, f"job {job_id} document 0")
    assert edited == (
        f"job {job_id} document 0 (id {doc.id}) edited by olga: amount '100.00' → '120.00'"
    )
    review.confirm(job_id, 0, who="olga")
    assert lines(caplog, f"job {job_id} document 0")[1] == (
        f"job {job_id} document 0 (id {doc.id}) confirmed by olga"
    )
    assert lines(caplog, f"job {job_id} done")


def test_registry_import_search_and_export_are_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    service = RegistryService(SQLiteStore(tmp_path / "db.sqlite"))
    xlsx = accountant_xlsx(tmp_path / "март.xlsx")
    config = load_config(
        {"sheet": SHEET, "header_row": 5, "mapping": {"number": "C", "amount": "E"},
         "skip_rows_containing": ["Итого", "___"]}
    )  # fmt: skip
    caplog.set_level(logging.INFO, logger="docbatch_gui")
    summary = service.import_registry(xlsx, config, name="март")
    reg = summary.registry_id
    assert lines(caplog, f"registry {reg} imported from март.xlsx: 5 rows kept, 3 filtered")
    service.search(reg)
    assert lines(caplog, f"registry {reg} searched: 0 rows matched, 5 without a match")
    out = tmp_path / "out.xlsx"
    service.export(reg, out, language="en")
    assert lines(caplog, f"registry {reg} exported to {out}: 5 rows (en)")
