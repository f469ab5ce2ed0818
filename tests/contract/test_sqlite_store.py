from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from docbatch_gui.domain import JobState, NewJob
from docbatch_gui.storage.sqlite import MIGRATIONS, SQLiteStore
from tests.contract.blob_contract import BlobContract
from tests.contract.counterparty_contract import CounterpartyContract
from tests.contract.intent_contract import IntentContract
from tests.contract.lines_contract import LinesContract
from tests.contract.mail_contract import MailContract
from tests.contract.page_notes_contract import PageNotesContract
from tests.contract.registry_contract import RegistryContract
from tests.contract.reservation_contract import ReservationContract
from tests.contract.store_contract import StoreContract


class TestStore(StoreContract):
    """Runs on every backend of the ``store`` fixture (tests/contract/conftest.py)."""


class TestBlobStore(BlobContract):
    """Runs on every backend of the ``blobs`` fixture."""


class TestRegistry(RegistryContract):
    """Runs on every backend of the ``store`` fixture."""


class TestCounterparties(CounterpartyContract):
    """Runs on every backend of the ``store`` fixture."""


class TestPageNotes(PageNotesContract):
    """Runs on every backend of the ``store`` fixture."""


class TestIntents(IntentContract):
    """Runs on every backend of the ``store`` fixture."""


class TestReservations(ReservationContract):
    """Runs on every backend of the ``store`` fixture."""


class TestLines(LinesContract):
    """Runs on every backend of the ``store`` fixture."""


class TestMailLedger(MailContract):
    """Runs on every backend of the ``store`` fixture."""


def test_sqlite_uses_wal_and_records_schema_version(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "db.sqlite3")
    assert store.schema_version == len(MIGRATIONS)
    mode = store._db.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    store.close()


def test_reopening_keeps_data_and_does_not_migrate_twice(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    first = SQLiteStore(path)
    job = first.create_job(NewJob("a.pdf", "/a.pdf", "a" * 64, 1))
    first.close()
    second = SQLiteStore(path)
    assert second.get_job(job.id).state is JobState.QUEUED
    second.close()


def test_newer_schema_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    SQLiteStore(path).close()
    import sqlite3

    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(RuntimeError, match="newer than this DocBatch"):
        SQLiteStore(path)


def test_two_connections_see_each_other(tmp_path: Path) -> None:
    """The GUI and a CLI process share one file; WAL lets both work."""
    path = tmp_path / "db.sqlite3"
    writer, reader = SQLiteStore(path), SQLiteStore(path)
    job = writer.create_job(NewJob("a.pdf", "/a.pdf", "a" * 64, 1))
    assert reader.claim(job.id, JobState.PREPARING) is not None
    assert writer.claim(job.id, JobState.PREPARING) is None
    writer.close()
    reader.close()


def test_the_spend_ledger_starts_with_what_requests_had_cost(tmp_path: Path) -> None:
    """Migration 16 carries over each request's recorded cost at its last update: a
    month's spend does not start from zero on the day of the upgrade."""
    import sqlite3

    path = tmp_path / "db.sqlite3"
    db = sqlite3.connect(path)
    for script in MIGRATIONS[:13]:  # the schema before the ledger (and its placeholders)
        for statement in filter(str.strip, script.split(";")):
            db.execute(statement)
    db.execute("PRAGMA user_version = 13")
    db.execute(
        "INSERT INTO jobs (file_name, source_path, sha256, size, mode, state, created_at,"
        " updated_at) VALUES ('a.pdf', '/a.pdf', ?, 1, 'sync', 'done', ?, ?)",
        ("a" * 64, "2026-11-03T10:00:00+00:00", "2026-11-03T10:00:00+00:00"),
    )
    for custom, cost, at in (
        ("job_1_batch_1", 0.25, "2026-11-03T10:00:00+00:00"),
        ("job_1_batch_2", None, "2026-11-03T10:00:00+00:00"),
        ("job_1_batch_3", 0.5, "2026-12-01T09:00:00+00:00"),
    ):
        body = json.dumps({"job_id": 1, "custom_id": custom, "cost_usd": cost})
        db.execute(
            "INSERT INTO requests (job_id, custom_id, group_no, body, updated_at)"
            " VALUES (1, ?, 1, ?, ?)",
            (custom, body, at),
        )
    db.commit()
    db.close()
    store = SQLiteStore(path)
    december = datetime(2026, 12, 1, tzinfo=UTC)
    assert store.spent_between(december) == pytest.approx(0.5)
    assert store.spent_between(december - timedelta(days=30), december) == pytest.approx(0.25)
    store.close()


def test_pages_written_before_their_codes_read_back_as_plain_text(tmp_path: Path) -> None:
    """Migration 17 adds the codes of a page's notes; a database at version 16 opens,
    and its pages and OCR cache read back with their stored English text."""
    import sqlite3

    from docbatch_gui.domain.messages import Worded, coded
    from docbatch_gui.domain.models import Page

    path = tmp_path / "db.sqlite3"
    db = sqlite3.connect(path)
    for script in MIGRATIONS[:16]:
        for statement in filter(str.strip, script.split(";")):
            db.execute(statement)
    db.execute("PRAGMA user_version = 16")
    db.execute(
        "INSERT INTO jobs (file_name, source_path, sha256, size, mode, state, created_at,"
        " updated_at) VALUES ('a.pdf', '/a.pdf', ?, 1, 'sync', 'done', ?, ?)",
        ("a" * 64, "2026-11-03T10:00:00+00:00", "2026-11-03T10:00:00+00:00"),
    )
    db.execute(
        "INSERT INTO pages (job_id, page_no, width, height, render_error, orientation_note)"
        " VALUES (1, 1, 10, 20, 'rendering took longer than 60 s (PAGE_TIMEOUT)',"
        " 'OSD at 300 dpi: 0° (score 12.00); upright')"
    )
    db.execute(
        "INSERT INTO ocr_cache (sha256, page_no, engine, text, rotation, rotation_confidence,"
        " orientation_note) VALUES (?, 1, 'tesseract', 'x', 0, 0,"
        " 'a small image: read enlarged, without OSD')",
        ("a" * 64,),
    )
    db.commit()
    db.close()
    store = SQLiteStore(path)
    assert store.schema_version == len(MIGRATIONS)  # 17 and later
    (page,) = store.list_pages(1)
    assert page.render_error == "rendering took longer than 60 s (PAGE_TIMEOUT)"
    assert page.orientation_note == "OSD at 300 dpi: 0° (score 12.00); upright"
    assert not isinstance(page.render_error, Worded)
    assert not isinstance(page.orientation_note, Worded)
    note = store.get_ocr("a" * 64, "tesseract")[1].orientation_note
    assert note == "a small image: read enlarged, without OSD" and not isinstance(note, Worded)
    skipped = coded("page_render_timeout", seconds=60.0)
    store.put_pages([Page(1, 1, 10, 20, render_error=skipped)])  # the new column is written
    (again,) = store.list_pages(1)
    assert isinstance(again.render_error, Worded) and again.render_error.message == skipped.message
    store.close()
