"""Backends for the contract suites: every store and blob store runs the same tests.

``store`` is SQLite, MongoDB on mongomock, and a real MongoDB when
``DOCBATCH_TEST_MONGODB_URI`` is set. ``blobs`` is the local folder and MinIO's
client against moto's S3 server over real HTTP.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.storage.blobs import BlobStore, LocalBlobStore
from docbatch_gui.storage.store import Store

MONGODB_URI = os.environ.get("DOCBATCH_TEST_MONGODB_URI")


def _mongo_store(kind: str) -> Iterator[Store]:
    from docbatch_gui.storage.mongo import MongoStore

    if kind == "mongomock":
        import mongomock_ng

        client: Any = mongomock_ng.MongoClient()
    else:
        from pymongo import MongoClient

        client = MongoClient(MONGODB_URI, serverSelectionTimeoutMS=5000)
    name = f"docbatch_test_{uuid.uuid4().hex[:12]}"
    store = MongoStore(client[name])
    try:
        yield store
    finally:
        client.drop_database(name)
        client.close()


#: a real MongoDB only when one is given: a skip per test would be noise
STORES = ["sqlite", "mongomock", *(["mongodb"] if MONGODB_URI else [])]


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty database with every migration applied, made once per worker: creating
    one runs the whole schema (about 0.2 s), opening a copy of it a millisecond. The
    migrations themselves are tested on their own paths (test_sqlite_store)."""
    from docbatch_gui.storage.sqlite import SQLiteStore

    path = tmp_path_factory.mktemp("migrated") / "db.sqlite3"
    SQLiteStore(path).close()  # closing checkpoints the WAL into the file
    return path


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        from docbatch_gui.storage.sqlite import SQLiteStore

        copy = tmp_path / "db.sqlite3"
        shutil.copyfile(request.getfixturevalue("migrated_sqlite"), copy)
        sqlite = SQLiteStore(copy)
        yield sqlite
        sqlite.close()
    else:
        yield from _mongo_store(request.param)


@pytest.fixture(params=["local", pytest.param("minio", marks=pytest.mark.slow)])  # moto: seconds
def blobs(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BlobStore]:
    if request.param == "local":
        yield LocalBlobStore(tmp_path / "blobs")
    else:
        s3 = request.getfixturevalue("moto_s3")
        from docbatch_gui.storage.minio_blobs import MinioBlobStore

        yield MinioBlobStore(
            s3.endpoint, "test-key", "test-secret", bucket=f"b{uuid.uuid4().hex[:12]}"
        )
