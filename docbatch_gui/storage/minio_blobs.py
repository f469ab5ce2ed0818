"""The team blob store: one MinIO (or any S3) bucket, keys ``ab/<sha256>``.

Content addressing keeps writes idempotent across machines: two workers storing the
same page write the same key. Files stream in and out in parts, never whole in
memory. Children render from a path, so ``local_path`` keeps a download cache on
this machine, filled on first use by an atomic rename. The cache is bounded
(``cache_max_bytes``, least recently used files go first), and serves only what it
verified: a download is hashed on the way in, and a cached file is checked against
its key before its first use in this process.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path
from typing import Any, BinaryIO

import platformdirs
from minio import Minio
from minio.error import S3Error

from docbatch_gui.storage.blobs import CHUNK, blob_intact, check_key, sha256_file

PART_SIZE = 16 * 2**20  # multipart upload part: memory stays bounded for any file size
CACHE_MAX_BYTES = 2 * 2**30
log = logging.getLogger(__name__)
_MISSING = {"NoSuchKey", "NoSuchObject", "NotFound", "ResourceNotFound"}


def default_cache_dir() -> Path:
    """Where downloaded blobs are kept when no folder is given: the user's cache folder
    (platformdirs), never a temporary folder shared with other users."""
    return Path(platformdirs.user_cache_dir("DocBatch", appauthor=False)) / "blob-cache"


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
        cache_max_bytes: int = CACHE_MAX_BYTES,
    ) -> None:
        endpoint = endpoint.removeprefix("http://").removeprefix("https://").rstrip("/")
        self.bucket = bucket
        self.client = client or Minio(
            endpoint, access_key=access_key, secret_key=secret_key, secure=secure
        )
        self.cache_dir = Path(cache_dir or default_cache_dir())
        self.cache_max_bytes = cache_max_bytes
        self._verified: set[tuple[str, int, int]] = set()  # (key, size, mtime_ns)
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
        if not self._whole(sha256, size):
            with open(path, "rb") as handle:
                self.client.put_object(
                    self.bucket, self._key(sha256), handle, length=size, part_size=PART_SIZE
                )
        if move:
            path.unlink(missing_ok=True)
        return sha256, size

    def put_bytes(self, data: bytes) -> str:
        sha256 = hashlib.sha256(data).hexdigest()
        if not self._whole(sha256, len(data)):
            self.client.put_object(self.bucket, self._key(sha256), BytesIO(data), len(data))
        return sha256

    def open(self, sha256: str) -> BinaryIO:
        # _Stream implements what blob readers use (read, close, with); typing.BinaryIO's
        # other methods are abstract only to the type checker.
        return _Stream(self.client.get_object(self.bucket, self._key(sha256)))  # type: ignore[abstract]

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

    def _whole(self, sha256: str, size: int) -> bool:
        """Present at its full size: a short object (a cut-off upload) is written again."""
        stat = self._stat(sha256)
        return stat is not None and int(stat.size) == size

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
            if self._trusted(target, sha256):
                os.utime(target)  # recently used: evicted last
                return target
            log.warning("cached blob %s was damaged; downloading it again", sha256)
            target.unlink(missing_ok=True)
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        try:
            response = self.client.get_object(self.bucket, self._key(sha256))
        except S3Error as exc:
            if exc.code in _MISSING:
                return None
            raise
        fd, name = tempfile.mkstemp(dir=self.cache_dir, prefix=".part-")
        digest = hashlib.sha256()
        try:
            with os.fdopen(fd, "wb") as handle:
                for chunk in response.stream(CHUNK):
                    digest.update(chunk)
                    handle.write(chunk)
            if digest.hexdigest() != sha256:
                raise OSError(
                    f"the blob store's copy of {sha256} is damaged (its content does not "
                    "match its name); add the file again"
                )
            os.replace(name, target)
        except BaseException:
            Path(name).unlink(missing_ok=True)
            raise
        finally:
            response.close()
            response.release_conn()
        self._remember(target, sha256)
        self._evict(keep=target)
        return target

    def _trusted(self, path: Path, sha256: str) -> bool:
        """Checked against its key once per process (and again if it changes)."""
        stat = path.stat()
        if (sha256, stat.st_size, stat.st_mtime_ns) in self._verified:
            return True
        if not blob_intact(path, sha256):
            return False
        self._remember(path, sha256)
        return True

    def _remember(self, path: Path, sha256: str) -> None:
        stat = path.stat()
        self._verified.add((sha256, stat.st_size, stat.st_mtime_ns))

    def _evict(self, keep: Path) -> None:
        """Least recently used files out until the cache fits ``cache_max_bytes``."""
        files = []
        for path in self.cache_dir.iterdir():
            if path.name.startswith(".") or not path.is_file():
                continue
            stat = path.stat()
            files.append((stat.st_mtime_ns, stat.st_size, path))
        total = sum(size for _, size, _ in files)
        for _, size, path in sorted(files):
            if total <= self.cache_max_bytes:
                break
            if path != keep:
                path.unlink(missing_ok=True)
                total -= size

    def iter_keys(self) -> Iterator[str]:
        for obj in self.client.list_objects(self.bucket, recursive=True):
            name = str(obj.object_name).rsplit("/", 1)[-1]
            if len(name) == 64:
                yield name
