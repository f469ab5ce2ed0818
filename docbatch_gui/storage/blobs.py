"""Content-addressed blob storage: source files and page images, keyed by sha256.

Content addressing makes writes idempotent (the same bytes land at the same key),
which is what lets a crashed intake or render simply run again.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, Protocol, runtime_checkable

CHUNK = 1024 * 1024


@runtime_checkable
class BlobStore(Protocol):
    def put_file(self, path: Path, *, move: bool = False) -> tuple[str, int]:
        """Store a file; returns (sha256, size). ``move`` may consume the source."""
        ...

    def put_bytes(self, data: bytes) -> str:
        """Store bytes; returns their sha256. Storing the same bytes again is a no-op."""
        ...

    def open(self, sha256: str) -> BinaryIO: ...
    def read(self, sha256: str) -> bytes: ...
    def exists(self, sha256: str) -> bool: ...
    def size(self, sha256: str) -> int: ...
    def delete(self, sha256: str) -> None: ...
    def local_path(self, sha256: str) -> Path | None:
        """A path on this machine, when the backend has one (lets children read directly)."""
        ...

    def iter_keys(self) -> Iterator[str]: ...


def sha256_file(path: Path) -> tuple[str, int]:
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return digest.hexdigest(), size


def check_key(sha256: str) -> str:
    if len(sha256) != 64 or any(c not in "0123456789abcdef" for c in sha256):
        raise ValueError(f"not a sha256 key: {sha256!r}")
    return sha256


class LocalBlobStore:
    """Blobs as files under ``root/ab/cd/<sha256>``; writes are atomic renames."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self._tmp = self.root / ".incoming"
        self._tmp.mkdir(exist_ok=True)
        self._made: set[Path] = set()
        self._counter = itertools.count()

    def _path(self, sha256: str) -> Path:
        key = check_key(sha256)
        return self.root / key[:2] / key[2:4] / key

    def _commit(self, tmp: Path, sha256: str) -> None:
        target = self._path(sha256)
        if target.exists():
            tmp.unlink(missing_ok=True)
            return
        if target.parent not in self._made:  # a page batch writes thousands of blobs
            target.parent.mkdir(parents=True, exist_ok=True)
            self._made.add(target.parent)
        try:
            os.replace(tmp, target)
        except FileNotFoundError:  # the folder was removed behind our back
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(tmp, target)

    def put_file(self, path: Path, *, move: bool = False) -> tuple[str, int]:
        path = Path(path)
        if move and path.stat().st_dev == self._tmp.stat().st_dev:
            sha256, size = sha256_file(path)
            tmp = self._tmp / f"{sha256}.{os.getpid()}.move"
            os.replace(path, tmp)
            self._commit(tmp, sha256)
            return sha256, size
        # Hash while copying: one read of a possibly large source file.
        digest = hashlib.sha256()
        size = 0
        fd, name = tempfile.mkstemp(dir=self._tmp)
        tmp = Path(name)
        try:
            with open(path, "rb") as source, os.fdopen(fd, "wb") as target:
                while chunk := source.read(CHUNK):
                    digest.update(chunk)
                    target.write(chunk)
                    size += len(chunk)
            sha256 = digest.hexdigest()
            self._commit(tmp, sha256)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        if move:
            path.unlink(missing_ok=True)
        return sha256, size

    def put_bytes(self, data: bytes) -> str:
        sha256 = hashlib.sha256(data).hexdigest()
        if self.exists(sha256):
            return sha256
        fd, name = tempfile.mkstemp(dir=self._tmp)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        self._commit(Path(name), sha256)
        return sha256

    def open(self, sha256: str) -> BinaryIO:
        return open(self._path(sha256), "rb")

    def read(self, sha256: str) -> bytes:
        return self._path(sha256).read_bytes()

    def exists(self, sha256: str) -> bool:
        return self._path(sha256).is_file()

    def size(self, sha256: str) -> int:
        return self._path(sha256).stat().st_size

    def delete(self, sha256: str) -> None:
        self._path(sha256).unlink(missing_ok=True)

    def local_path(self, sha256: str) -> Path | None:
        path = self._path(sha256)
        return path if path.is_file() else None

    def iter_keys(self) -> Iterator[str]:
        for path in self.root.glob("??/??/*"):
            if path.is_file():
                yield path.name

    def clean_incoming(self) -> None:
        """Drop half-written temporaries left by a crash."""
        shutil.rmtree(self._tmp, ignore_errors=True)
        self._tmp.mkdir(exist_ok=True)
