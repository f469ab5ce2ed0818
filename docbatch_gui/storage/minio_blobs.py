"""The team blob store: one MinIO (or any S3) bucket, keys ``ab/<sha256>``.

Content addressing keeps writes idempotent across machines: two workers storing the
same page write the same key. Files stream in and out in parts, never whole in
memory. Children render from a path, so ``local_path`` keeps a download cache on
this machine, filled on first use by an atomic rename.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path
from typing import Any, BinaryIO

from minio import Minio
from minio.error import S3Error

from docbatch_gui.storage.blobs import CHUNK, check_key, sha256_file

PART_SIZE = 16 * 2**20  # multipart upload part: memory stays bounded for any file size
_MISSING = {"NoSuchKey", "NoSuchObject", "NotFound", "ResourceNotFound"}


def default_cache_dir() -> Path:
    return Path(tempfile.gettempdir()) / "docbatch-blob-cache"


class _Stream(BinaryIO):
    """A GET response as a file; closing it gives the connection back to the pool."""

    def __init__(self, response: Any) -> None:
        self._response = response

    def read(self, size: int = -1) -> bytes:
        return bytes(self._response.read(None if size is None or size < 0 else size))

    def close(self) -> None:
        self._response.close()
        self._response.release_conn()

    def __enter__(self) -> _Stream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class MinioBlobStore:
    """Blobs in one bucket, created when missing."""

    def __init__(
        self,
        endpoint: str,
        access_key: str | None,
        secret_key: str | None,
        *,
        bucket: str = "docbatch",
        secure: bool = False,
        cache_dir: Path | None = None,
        client: Minio | None = None,
    ) -> None:
        endpoint = endpoint.removeprefix("http://").removeprefix("https://").rstrip("/")
        self.bucket = bucket
        self.client = client or Minio(
            endpoint, access_key=access_key, secret_key=secret_key, secure=secure
        )
        self.cache_dir = Path(cache_dir or default_cache_dir())
        if not self.client.bucket_exists(bucket):
            try:
                self.client.make_bucket(bucket)
            except S3Error as exc:  # another worker made it first
                if exc.code not in {"BucketAlreadyOwnedByYou", "BucketAlreadyExists"}:
                    raise

    @staticmethod
    def _key(sha256: str) -> str:
        key = check_key(sha256)
        return f"{key[:2]}/{key}"

    def put_file(self, path: Path, *, move: bool = False) -> tuple[str, int]:
        """Hash first (the key is the hash), then stream the file up in parts."""
        path = Path(path)
        sha256, size = sha256_file(path)
        if not self.exists(sha256):
            with open(path, "rb") as handle:
                self.client.put_object(
                    self.bucket, self._key(sha256), handle, length=size, part_size=PART_SIZE
                )
        if move:
            path.unlink(missing_ok=True)
        return sha256, size

    def put_bytes(self, data: bytes) -> str:
        sha256 = hashlib.sha256(data).hexdigest()
        if not self.exists(sha256):
            self.client.put_object(self.bucket, self._key(sha256), BytesIO(data), len(data))
        return sha256

    def open(self, sha256: str) -> BinaryIO:
        return _Stream(self.client.get_object(self.bucket, self._key(sha256)))

    def read(self, sha256: str) -> bytes:
        with self.open(sha256) as handle:
            return handle.read()

    def _stat(self, sha256: str) -> Any | None:
        try:
            return self.client.stat_object(self.bucket, self._key(sha256))
        except S3Error as exc:
            if exc.code in _MISSING:
                return None
            raise

    def exists(self, sha256: str) -> bool:
        return self._stat(sha256) is not None

    def size(self, sha256: str) -> int:
        stat = self._stat(sha256)
        if stat is None:
            raise FileNotFoundError(f"no blob {sha256}")
        return int(stat.size)

    def delete(self, sha256: str) -> None:
        self.client.remove_object(self.bucket, self._key(sha256))
        (self.cache_dir / check_key(sha256)).unlink(missing_ok=True)

    def local_path(self, sha256: str) -> Path | None:
        """A cached download: children render from a path, not from a stream."""
        target = self.cache_dir / check_key(sha256)
        if target.is_file():
            return target
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        try:
            response = self.client.get_object(self.bucket, self._key(sha256))
        except S3Error as exc:
            if exc.code in _MISSING:
                return None
            raise
        fd, name = tempfile.mkstemp(dir=self.cache_dir, prefix=".part-")
        try:
            with os.fdopen(fd, "wb") as handle:
                for chunk in response.stream(CHUNK):
                    handle.write(chunk)
            os.replace(name, target)
        except BaseException:
            Path(name).unlink(missing_ok=True)
            raise
        finally:
            response.close()
            response.release_conn()
        return target

    def iter_keys(self) -> Iterator[str]:
        for obj in self.client.list_objects(self.bucket, recursive=True):
            name = str(obj.object_name).rsplit("/", 1)[-1]
            if len(name) == 64:
                yield name
