from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from docbatch_gui.domain.models import Document, NewJob
from docbatch_gui.domain.states import JobState
from docbatch_gui.storage.sqlite import MIGRATIONS, SQLiteStore
from tests.contract.blob_contract import BlobContract
from tests.contract.counterparty_contract import CounterpartyContract
from tests.contract.duplicate_contract import DuplicateContract
from tests.contract.intent_contract import IntentContract
from tests.contract.lines_contract import LinesContract
from tests.contract.mail_contract import MailContract
from tests.contract.page_notes_contract import PageNotesContract
from tests.contract.registry_contract import RegistryContract
from tests.contract.reservation_contract import ReservationContract
from tests.contract.revision_contract import RevisionContract
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


class TestDuplicateLookup(DuplicateContract):
    """Runs on every backend of the ``store`` fixture."""


class TestLines(LinesContract):
    """Runs on every backend of the ``store`` fixture."""


class TestMailLedger(MailContract):
    """Runs on every backend of the ``store`` fixture."""


class TestJobRevisions(RevisionContract):
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


def _database_at(path: Path, version: int) -> sqlite3.Connection:
    """A database made by the schema of an older version (its first ``version``
    migrations), as an operator upgrading from it has."""
    db = sqlite3.connect(path)
    for script in MIGRATIONS[:version]:
        for statement in filter(str.strip, script.split(";")):
            db.execute(statement)
    db.execute(f"PRAGMA user_version = {version}")
    db.execute(
        "INSERT INTO jobs (file_name, source_path, sha256, size, mode, state, created_at,"
        " updated_at) VALUES ('a.pdf', '/a.pdf', ?, 1, 'sync', 'done', ?, ?)",
        ("a" * 64, "2026-11-03T10:00:00+00:00", "2026-11-03T10:00:00+00:00"),
    )
    return db


def test_pages_written_before_their_codes_read_back_as_plain_text(tmp_path: Path) -> None:
    """A database at version 16 (before any code was kept beside a note) opens, and its
    pages and OCR cache read back with their stored English text and no code."""
    from docbatch_gui.domain.messages import Message, coded
    from docbatch_gui.domain.models import Page

    path = tmp_path / "db.sqlite3"
    db = _database_at(path, 16)
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
    assert page.render_error == Message.plain("rendering took longer than 60 s (PAGE_TIMEOUT)")
    assert page.orientation_note == Message.plain("OSD at 300 dpi: 0° (score 12.00); upright")
    note = store.get_ocr("a" * 64, "tesseract")[1].orientation_note
    assert note == Message.plain("a small image: read enlarged, without OSD")
    skipped = coded("page_render_timeout", seconds=60.0)
    store.put_pages([Page(1, 1, 10, 20, render_error=skipped)])  # the new columns are written
    (again,) = store.list_pages(1)
    assert again.render_error == skipped
    store.close()


def test_the_said_columns_of_migration_17_move_to_code_and_params(tmp_path: Path) -> None:
    """Migration 22: a database of the version that kept a note's code in ``said``
    (JSON) opens with those codes in ``<note>_code``/``<note>_params``, and ``said``
    gone; a damaged ``said`` leaves the English text alone."""
    from docbatch_gui.domain.messages import Message, coded

    path = tmp_path / "db.sqlite3"
    db = _database_at(path, 21)
    timeout = coded("page_render_timeout", seconds=60.0)
    small = coded("orient_small_image")
    said = {"render_error": timeout.as_dict(), "orientation_note": small.as_dict()}
    db.execute(
        "INSERT INTO pages (job_id, page_no, width, height, render_error, orientation_note,"
        " said) VALUES (1, 1, 10, 20, ?, ?, ?), (1, 2, 10, 20, 'old text', '', '{broken')",
        (timeout.english, small.english, json.dumps(said)),
    )
    db.execute(
        "INSERT INTO ocr_cache (sha256, page_no, engine, text, rotation, rotation_confidence,"
        " orientation_note, said) VALUES (?, 1, 'tesseract', 'x', 0, 0, ?, ?)",
        ("a" * 64, small.english, json.dumps({"orientation_note": small.as_dict()})),
    )
    db.commit()
    db.close()
    store = SQLiteStore(path)
    first, second = store.list_pages(1)
    assert (first.render_error, first.orientation_note) == (timeout, small)
    assert second.render_error == Message.plain("old text") and second.orientation_note is None
    assert store.get_ocr("a" * 64, "tesseract")[1].orientation_note == small
    store.close()
    columns = _columns(path)
    assert "said" not in columns["pages"] and "said" not in columns["ocr_cache"]


def _columns(path: Path) -> dict[str, set[str]]:
    db = sqlite3.connect(path)
    try:
        return {
            table: {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            for table in ("jobs", "pages", "ocr_cache")
        }
    finally:
        db.close()


def test_a_fresh_database_has_no_said_column_and_keeps_codes_beside_texts(
    tmp_path: Path,
) -> None:
    path = tmp_path / "db.sqlite3"
    SQLiteStore(path).close()
    columns = _columns(path)
    assert not any("said" in names for names in columns.values()), columns
    assert {"error", "error_code", "error_params"} <= columns["jobs"]
    assert {"render_error_code", "render_error_params", "orientation_note_code"} <= columns["pages"]
    assert {"orientation_note_code", "orientation_note_params"} <= columns["ocr_cache"]


def _keyed_migration() -> int:
    """The number of migrations before the one that keys documents."""
    return next(i for i, script in enumerate(MIGRATIONS) if "match_key" in script)


def test_documents_stored_before_the_key_are_keyed_by_the_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    db = _database_at(path, _keyed_migration())
    body = {"fields": {"number": "№ 12", "amount": "99.5"}}
    db.execute(
        "INSERT INTO documents (job_id, doc_index, doc_type, page_from, page_to, body)"
        " VALUES (1, 0, 'invoice', 1, 1, ?)",
        (json.dumps(body),),
    )
    db.commit()
    db.close()
    store = SQLiteStore(path)
    (found,) = store.documents_matching("12|99.50")
    assert found.job_id == 1 and found.fields["number"] == "№ 12"
    store.close()


def test_the_duplicate_lookup_reads_only_the_rows_sharing_the_key(tmp_path: Path) -> None:
    """The query goes through the index (SQLite's own plan says so), and the rows it
    reads do not grow with the documents that share nothing with it."""
    store = SQLiteStore(tmp_path / "db.sqlite3")
    for n in range(3):
        job = store.create_job(NewJob(f"f{n}.pdf", f"/f{n}.pdf", f"{n}" * 64, 1, "offline"))
        store.replace_documents(
            job.id,
            [Document(job.id, i, "invoice", 1, 1, fields={"number": f"{n}-{i}", "amount": "5"})
             for i in range(40)] + [Document(job.id, 40, "invoice", 1, 1,
                                             fields={"number": "A-1", "amount": "5"})],
        )  # fmt: skip
    plan = " ".join(
        str(row[-1])
        for row in store._db.execute(
            "EXPLAIN QUERY PLAN SELECT * FROM documents WHERE match_key = ? ORDER BY id",
            ("A-1|5.00",),
        )
    )
    assert "USING INDEX documents_match_key" in plan, plan
    steps: list[str] = []
    store._db.set_trace_callback(steps.append)
    assert len(store.documents_matching("A-1|5.00")) == 3
    store._db.set_trace_callback(None)
    assert len(steps) == 1 and "WHERE match_key = 'A-1|5.00'" in steps[0]
    store.close()


def test_mongo_documents_stored_before_the_key_are_keyed_on_connect() -> None:
    import mongomock_ng

    from docbatch_gui.storage.mongo import MongoStore

    database = mongomock_ng.MongoClient()["docbatch_keys"]
    body = {"fields": {"number": "№ 12", "amount": "99.5"}}
    database.documents.insert_one(
        {"_id": 1, "id": 1, "job_id": 1, "doc_index": 0, "doc_type": "invoice",
         "page_from": 1, "page_to": 1, **body}
    )  # fmt: skip
    (found,) = MongoStore(database).documents_matching("12|99.50")
    assert found.id == 1 and found.fields["number"] == "№ 12"


def test_pages_stored_before_small_images_read_back_without_one(tmp_path: Path) -> None:
    """A database from before the small image's blob (its pages made at migration 23)
    opens, its pages read back with none (their requests shrink the full image), and a
    page written after keeps its own."""
    path = tmp_path / "db.sqlite3"
    version = next(i for i, s in enumerate(MIGRATIONS) if "small_image_sha" in s)
    db = _database_at(path, version)
    db.execute(
        "INSERT INTO pages (job_id, page_no, width, height, image_sha, text, text_layer)"
        " VALUES (1, 1, 900, 1275, ?, 'text', 'reliable')",
        ("c" * 64,),
    )
    db.commit()
    db.close()
    store = SQLiteStore(path)
    (old,) = store.list_pages(1)
    assert old.image_sha == "c" * 64 and old.small_image_sha is None
    store.put_pages([replace(old, page_no=2, small_image_sha="e" * 64)])
    assert [p.small_image_sha for p in store.list_pages(1)] == [None, "e" * 64]
    store.close()


def test_jobs_written_before_the_retry_base_read_back_in_their_first_round(
    tmp_path: Path,
) -> None:
    """Migration 26: a job of a database at version 25 reads back with ``retry_base``
    0 (its attempts count from its first), and the new column is written."""
    path = tmp_path / "db.sqlite3"
    db = _database_at(path, 25)
    db.execute("UPDATE jobs SET state = 'failed', attempts = 3 WHERE id = 1")
    db.commit()
    db.close()
    store = SQLiteStore(path)
    assert store.schema_version == len(MIGRATIONS)
    job = store.get_job(1)
    assert (job.attempts, job.retry_base) == (3, 0)
    queued = store.transition(1, JobState.QUEUED, attempt=3, retry_base=3)
    assert store.get_job(1) == queued and queued.retry_base == 3
    store.close()
