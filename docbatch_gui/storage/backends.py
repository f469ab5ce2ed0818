"""Which store and blob store this process uses (connection checks: ``connections``).

The embedded default (SQLite and a local folder) needs nothing; ``MONGODB_URI`` and
``MINIO_ENDPOINT`` switch a workstation or a worker to the team's servers. Every
process opens its own connections from the same settings, which is what lets a
Celery task run on any machine.
"""

from __future__ import annotations

import socket
from typing import TYPE_CHECKING

from docbatch_gui.extras import require
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.secrets import keyring_secret, split_uri_password
from docbatch_gui.storage.blobs import LocalBlobStore
from docbatch_gui.storage.health import make_private
from docbatch_gui.storage.sqlite import SQLiteStore

if TYPE_CHECKING:
    from docbatch_gui.storage.blobs import BlobStore
    from docbatch_gui.storage.store import Store


def minio_secret(settings: Settings) -> str | None:
    """MINIO_SECRET_KEY from the environment, else the OS keyring; never a file."""
    if settings.minio_secret_key is not None:
        return settings.minio_secret_key.get_secret_value()
    return keyring_secret("MINIO_SECRET_KEY")


def store_identity(settings: Settings) -> str:
    """Which queue this is: the MongoDB server and database every machine of a team
    shares, or this machine's own SQLite file (never a password)."""
    if settings.mongodb_uri:
        return "mongodb:" + split_uri_password(settings.mongodb_uri)[0]
    return f"sqlite:{socket.gethostname()}:{settings.db_path.resolve()}"


def open_store(settings: Settings) -> Store:
    if settings.mongodb_uri:
        require("team", "pymongo", "MONGODB_URI (a shared MongoDB store)")
        # deferred: pymongo (team extra), 0.27 s to import
        from docbatch_gui.storage.mongo import MongoStore

        return MongoStore.connect(settings.mongodb_uri)

    store = SQLiteStore(settings.db_path, busy_timeout=settings.db_busy_timeout)
    make_private(settings.data_dir)  # the database and its journal: owner only
    return store


def open_blobs(settings: Settings) -> BlobStore:
    if settings.minio_endpoint:
        require("team", "minio", "MINIO_ENDPOINT (shared MinIO blobs)")
        # deferred: minio (team extra), 0.34 s to import
        from docbatch_gui.storage.minio_blobs import MinioBlobStore

        return MinioBlobStore(
            settings.minio_endpoint,
            settings.minio_access_key,
            minio_secret(settings),
            bucket=settings.minio_bucket,
            secure=settings.minio_secure,
            cache_dir=settings.data_dir / "blob-cache",
            cache_max_bytes=settings.blob_cache_mb * 2**20,
        )

    local = LocalBlobStore(settings.blob_dir)
    local.sweep_incoming()  # what a crashed writer left; live writers' files stay
    make_private(settings.data_dir)
    return local
