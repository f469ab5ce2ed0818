"""Which store, blob store and Redis this process uses, and the *Test connection* checks.

The embedded default (SQLite and a local folder) needs nothing; ``MONGODB_URI`` and
``MINIO_ENDPOINT`` switch a workstation or a worker to the team's servers. Every
process opens its own connections from the same settings, which is what lets a
Celery task run on any machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from docbatch_gui.config import Settings
from docbatch_gui.secrets import keyring_secret

if TYPE_CHECKING:
    from docbatch_gui.storage.blobs import BlobStore
    from docbatch_gui.storage.store import Store

CHECK_TIMEOUT_S = 3.0


@dataclass(frozen=True)
class ConnectionCheck:
    """What a *Test connection* button shows: ok or not, and one sentence why."""

    ok: bool
    message: str


def minio_secret(settings: Settings) -> str | None:
    """MINIO_SECRET_KEY from the environment, else the OS keyring; never a file."""
    if settings.minio_secret_key is not None:
        return settings.minio_secret_key.get_secret_value()
    return keyring_secret("MINIO_SECRET_KEY")


def open_store(settings: Settings) -> Store:
    if settings.mongodb_uri:
        from docbatch_gui.storage.mongo import MongoStore

        return MongoStore.connect(settings.mongodb_uri)
    from docbatch_gui.storage.sqlite import SQLiteStore

    return SQLiteStore(settings.db_path)


def open_blobs(settings: Settings) -> BlobStore:
    if settings.minio_endpoint:
        from docbatch_gui.storage.minio_blobs import MinioBlobStore

        return MinioBlobStore(
            settings.minio_endpoint,
            settings.minio_access_key,
            minio_secret(settings),
            bucket=settings.minio_bucket,
            secure=settings.minio_secure,
            cache_dir=settings.data_dir / "blob-cache",
        )
    from docbatch_gui.storage.blobs import LocalBlobStore

    return LocalBlobStore(settings.blob_dir)


def check_mongodb(uri: str) -> ConnectionCheck:
    """Ping the server and name the database DocBatch would use."""
    from pymongo import MongoClient
    from pymongo.errors import PyMongoError

    client: MongoClient = MongoClient(uri, serverSelectionTimeoutMS=int(CHECK_TIMEOUT_S * 1000))
    try:
        client.admin.command("ping")
        name = client.get_default_database(default="docbatch").name
        return ConnectionCheck(True, f"MongoDB answers; database {name!r}")
    except (PyMongoError, ValueError) as exc:
        return ConnectionCheck(False, f"MongoDB at {uri.split('@')[-1]}: {exc}")
    finally:
        client.close()


def check_minio(
    endpoint: str, access_key: str | None, secret_key: str | None, bucket: str, secure: bool
) -> ConnectionCheck:
    """List the bucket (or learn it is missing: it is created on first use)."""
    import urllib3
    from minio import Minio
    from minio.error import S3Error

    http = urllib3.PoolManager(
        timeout=urllib3.Timeout(connect=CHECK_TIMEOUT_S, read=CHECK_TIMEOUT_S),
        retries=urllib3.Retry(total=0),
    )
    host = endpoint.removeprefix("http://").removeprefix("https://").rstrip("/")
    client = Minio(
        host, access_key=access_key, secret_key=secret_key, secure=secure, http_client=http
    )
    try:
        if client.bucket_exists(bucket):
            return ConnectionCheck(True, f"MinIO answers; bucket {bucket!r} exists")
        return ConnectionCheck(True, f"MinIO answers; bucket {bucket!r} will be created")
    except S3Error as exc:
        return ConnectionCheck(False, f"MinIO at {host} refused: {exc.code} ({exc.message})")
    except Exception as exc:  # network errors come in many urllib3 types
        return ConnectionCheck(False, f"MinIO at {host} unreachable: {type(exc).__name__}")
    finally:
        http.clear()


def check_redis(url: str) -> ConnectionCheck:
    """PING with a short timeout; used for REDIS_URL and CELERY_BROKER_URL alike."""
    import redis

    client = redis.Redis.from_url(
        url, socket_connect_timeout=CHECK_TIMEOUT_S, socket_timeout=CHECK_TIMEOUT_S
    )
    try:
        client.ping()
        return ConnectionCheck(True, "Redis answers")
    except redis.RedisError as exc:
        return ConnectionCheck(False, f"Redis at {url.split('@')[-1]}: {exc}")
    finally:
        client.close()
