from __future__ import annotations

from pathlib import Path

import pytest

from docbatch_gui.domain import JobState, NewJob
from docbatch_gui.storage.sqlite import MIGRATIONS, SQLiteStore
from tests.contract.blob_contract import BlobContract
from tests.contract.counterparty_contract import CounterpartyContract
from tests.contract.registry_contract import RegistryContract
from tests.contract.store_contract import StoreContract


class TestStore(StoreContract):
    """Runs on every backend of the ``store`` fixture (tests/contract/conftest.py)."""


class TestBlobStore(BlobContract):
    """Runs on every backend of the ``blobs`` fixture."""


class TestRegistry(RegistryContract):
    """Runs on every backend of the ``store`` fixture."""


class TestCounterparties(CounterpartyContract):
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
