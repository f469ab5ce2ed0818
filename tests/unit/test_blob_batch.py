"""A batch of blobs in the local folder: nothing is published before ``commit``, and
nothing half-written is left behind (the render step writes a page's row only after
its batch commits)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from docbatch_gui.storage.blob_batch import BlobBatch
from docbatch_gui.storage.blobs import LocalBlobStore


def _incoming(blobs: LocalBlobStore) -> list[Path]:
    return list((blobs.root / ".incoming").iterdir())


def test_a_staged_blob_is_published_only_by_commit(tmp_path: Path) -> None:
    blobs = LocalBlobStore(tmp_path)
    batch = BlobBatch(blobs)
    key = batch.put(b"image").key
    batch._written()  # the temporary's write, done in a thread, has ended
    assert not blobs.exists(key) and len(_incoming(blobs)) == 1  # written, not published
    batch.commit()
    assert blobs.read(key) == b"image" and blobs.verify(key)
    assert not _incoming(blobs)


def test_bytes_already_stored_are_not_written_again(tmp_path: Path) -> None:
    blobs = LocalBlobStore(tmp_path)
    key = blobs.put_bytes(b"image")
    batch = BlobBatch(blobs)
    assert batch.put(b"image").key == key
    batch._written()
    assert not _incoming(blobs)  # compared with the stored copy, nothing staged
    batch.commit()


def test_the_same_bytes_twice_in_a_batch_are_one_blob(tmp_path: Path) -> None:
    blobs = LocalBlobStore(tmp_path)
    batch = BlobBatch(blobs)
    keys = {batch.put(b"page").key, batch.put(b"page").key}
    batch.commit()
    assert keys == {hashlib.sha256(b"page").hexdigest()}
    assert list(blobs.iter_keys()) == list(keys) and not _incoming(blobs)


def test_a_damaged_copy_is_replaced_by_the_batch(tmp_path: Path) -> None:
    blobs = LocalBlobStore(tmp_path)
    key = blobs.put_bytes(b"image")
    path = blobs.local_path(key)
    assert path is not None
    path.write_bytes(b"imagf")  # same size, other bytes: a flipped bit
    batch = BlobBatch(blobs)
    batch.put(b"image")
    batch.commit()
    assert blobs.verify(key) and blobs.repaired == [key]


def test_discard_leaves_nothing(tmp_path: Path) -> None:
    blobs = LocalBlobStore(tmp_path)
    batch = BlobBatch(blobs)
    key = batch.put(b"image").key
    batch.discard()
    batch.commit()
    assert not blobs.exists(key) and not _incoming(blobs)


def test_a_failed_commit_fails_every_later_one(tmp_path: Path) -> None:
    """The blobs a failed commit did not publish are gone: a later commit (the flush
    after a stop) must not let a row be written for them."""
    blobs = LocalBlobStore(tmp_path)
    batch = BlobBatch(blobs)
    key = batch.put(b"image").key
    batch._written()
    for temporary in _incoming(blobs):
        temporary.unlink()  # taken from under the batch: the rename cannot happen
    with pytest.raises(FileNotFoundError):
        batch.commit()
    with pytest.raises(FileNotFoundError):
        batch.commit()
    assert not blobs.exists(key)


def test_a_failed_write_fails_the_commit(tmp_path: Path) -> None:
    """A temporary that could not be written (its folder gone, a full disk) fails the
    commit that would have published it, and every later one; no blob of the batch
    is published (the temporaries are written in a thread: the failure is the
    commit's)."""
    blobs = LocalBlobStore(tmp_path)
    batch = BlobBatch(blobs)
    incoming = blobs.root / ".incoming"
    for leftover in _incoming(blobs):
        leftover.unlink()
    incoming.rmdir()
    incoming.write_bytes(b"")  # no temporary can be made there
    keys = [hashlib.sha256(data).hexdigest() for data in (b"thumb", b"image")]
    puts = [batch.put(b"thumb"), batch.put(b"image")]
    with pytest.raises(OSError):  # nor is the key of a blob its thread could not stage
        assert puts[0].key
    with pytest.raises(OSError):
        batch.commit()
    with pytest.raises(OSError):
        batch.commit()
    assert not any(blobs.exists(k) for k in keys)
