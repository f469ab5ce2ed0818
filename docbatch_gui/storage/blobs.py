"""Content-addressed blob storage: source files and page images, keyed by sha256.

Content addressing makes writes idempotent (the same bytes land at the same key),
which is what lets a crashed intake or render simply run again.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, Protocol, runtime_checkable

from docbatch_gui.system import processes

CHUNK = 1024 * 1024
log = logging.getLogger(__name__)


@runtime_checkable
class BlobStore(Protocol):
    def put_file(self, path: Path, *, move: bool = False) -> tuple[str, int]:
        """Store a file; returns (sha256, size). ``move`` may consume the source."""

    def put_bytes(self, data: bytes) -> str:
        """Store bytes; returns their sha256. Storing the same bytes again is a no-op."""

    def open(self, sha256: str) -> BinaryIO: ...
    def read(self, sha256: str) -> bytes: ...
    def exists(self, sha256: str) -> bool: ...
    def size(self, sha256: str) -> int: ...
    def delete(self, sha256: str) -> None: ...
    def local_path(self, sha256: str) -> Path | None:
        """A path on this machine, when the backend has one (lets children read directly)."""

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


def blob_intact(path: Path, sha256: str, size: int | None = None) -> bool:
    """The file at ``path`` holds exactly the bytes ``sha256`` names (and ``size``)."""
    try:
        if size is not None and path.stat().st_size != size:
            return False
        return sha256_file(path)[0] == sha256
    except OSError:
        return False


def holds_bytes(path: str | Path, data: bytes) -> bool:
    """The file at ``path`` holds exactly ``data``. For bytes whose sha256 names the
    file, this is the check ``blob_intact`` makes, without hashing the stored copy
    again: a comparison costs a fifth of a hash (page images are stored again on
    every reprocess, and a repeated page is the same image)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(data) + 1) == data
    except OSError:
        return False


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (a crash right after keeps the new name)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems refuse fsync on a folder; the rename still happened
    finally:
        os.close(fd)


def temp_owner_alive(name: str) -> bool:
    """Whether the process that started a ``.incoming`` temporary (``.<pid>-…``) lives."""
    pid = name.lstrip(".").split("-", 1)[0]
    return pid.isdigit() and processes.process_alive(int(pid))


class Staged:
    """A blob's temporary, written and closed but not yet fsynced: ``sync`` makes its
    bytes durable (before the rename that publishes it), ``discard`` removes it. It
    holds no open file: a batch of pages stages dozens of blobs per job."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def sync(self) -> None:
        # the data of the file, whichever handle wrote it (rb+: Windows flushes only
        # through a handle that may write)
        with open(self.path, "rb+") as handle:
            os.fsync(handle.fileno())

    def discard(self) -> None:
        self.path.unlink(missing_ok=True)


class LocalBlobStore:
    """Blobs as files under ``root/ab/cd/<sha256>``.

    A write goes to a temporary in ``.incoming``, is fsynced, renamed into place, and
    the folder fsynced: a crash leaves the old state or the new, never half a blob. A
    blob already present is kept only when its size and sha256 still match its key;
    a damaged one is replaced by the good copy being stored.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._root = str(self.root)
        self.root.mkdir(parents=True, exist_ok=True)
        self._tmp = self.root / ".incoming"
        self._tmp.mkdir(exist_ok=True)
        self._made: set[Path] = set()
        self.repaired: list[str] = []  # keys whose damaged copy a write replaced

    def _path(self, sha256: str) -> Path:
        key = check_key(sha256)
        return self.root / key[:2] / key[2:4] / key

    def _temp(self) -> tuple[int, Path]:
        fd, name = tempfile.mkstemp(dir=self._tmp, prefix=f".{os.getpid()}-")
        return fd, Path(name)

    def publish(self, tmp: Path, sha256: str, size: int, *, sync_folder: bool = True) -> Path:
        """Rename the fsynced ``tmp`` into place and fsync its folder (unless the caller
        does, once for many: ``blob_batch``); returns that folder."""
        target = self._path(sha256)
        if target.exists():
            if blob_intact(target, sha256, size):
                tmp.unlink(missing_ok=True)
                return target.parent
            log.warning("blob %s was damaged; replaced with a good copy", sha256)
            self.repaired.append(sha256)
        if target.parent not in self._made:  # a page batch writes thousands of blobs
            target.parent.mkdir(parents=True, exist_ok=True)
            self._made.add(target.parent)
        try:
            os.replace(tmp, target)
        except FileNotFoundError:  # the folder was removed behind our back
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(tmp, target)
        if sync_folder:
            fsync_dir(target.parent)
        return target.parent

    def put_file(self, path: Path, *, move: bool = False) -> tuple[str, int]:
        path = Path(path)
        if move and path.stat().st_dev == self._tmp.stat().st_dev:
            sha256, size = sha256_file(path)
            tmp = self._tmp / f".{os.getpid()}-{sha256}.move"
            os.replace(path, tmp)
            with open(tmp, "rb+") as handle:
                os.fsync(handle.fileno())
            self.publish(tmp, sha256, size)
            return sha256, size
        # Hash while copying: one read of a possibly large source file.
        digest = hashlib.sha256()
        size = 0
        fd, tmp = self._temp()
        try:
            with open(path, "rb") as source, os.fdopen(fd, "wb") as target:
                while chunk := source.read(CHUNK):
                    digest.update(chunk)
                    target.write(chunk)
                    size += len(chunk)
                target.flush()
                os.fsync(target.fileno())
            sha256 = digest.hexdigest()
            self.publish(tmp, sha256, size)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        if move:
            path.unlink(missing_ok=True)
        return sha256, size

    def put_bytes(self, data: bytes) -> str:
        sha256, staged = self.stage_bytes(data)
        if staged is not None:
            try:
                staged.sync()
                self.publish(staged.path, sha256, len(data))
            except BaseException:
                staged.discard()
                raise
        return sha256

    def stage_bytes(self, data: bytes, sha256: str | None = None) -> tuple[str, Staged | None]:
        """``data``'s key, and its temporary, written but not yet fsynced (None when the
        store already holds these bytes): ``put_bytes`` and ``blob_batch`` commit it.
        ``sha256``: the key, when the caller hashed ``data`` already (``blob_batch``)."""
        sha256 = sha256 or hashlib.sha256(data).hexdigest()
        # a string path: our own key needs no check, and pathlib costs more than the
        # lookup itself on the page path
        target = os.path.join(self._root, sha256[:2], sha256[2:4], sha256)
        if holds_bytes(target, data):
            return sha256, None
        fd, tmp = self._temp()
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return sha256, Staged(tmp)

    def verify(self, sha256: str) -> bool:
        """The stored blob still holds the bytes its key names."""
        return blob_intact(self._path(sha256), sha256)

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

    def leftover_temporaries(self) -> list[Path]:
        """Half-written temporaries whose writer is gone (a crash, a kill)."""
        if not self._tmp.is_dir():
            return []
        return [p for p in self._tmp.iterdir() if not temp_owner_alive(p.name)]

    def sweep_incoming(self) -> int:
        """Remove what crashed writers left in ``.incoming``; a live process's
        temporaries (another window on the same folder) are left alone."""
        swept = 0
        for path in self.leftover_temporaries():
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
            swept += 1
        return swept
