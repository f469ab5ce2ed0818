"""The blob-store contract; a backend's module subclasses ``BlobContract``."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from docbatch_gui.storage.blob_batch import BlobBatch
from docbatch_gui.storage.blobs import BlobStore


class BlobContract:
    def test_put_bytes_is_content_addressed_and_idempotent(self, blobs: BlobStore) -> None:
        key = blobs.put_bytes(b"hello")
        assert key == hashlib.sha256(b"hello").hexdigest()
        assert blobs.put_bytes(b"hello") == key
        assert blobs.exists(key)
        assert blobs.read(key) == b"hello"
        assert blobs.size(key) == 5
        with blobs.open(key) as handle:
            assert handle.read() == b"hello"

    def test_put_file_streams_large_files(self, blobs: BlobStore, tmp_path: Path) -> None:
        source = tmp_path / "big.bin"
        data = bytes(range(256)) * 20_000  # 5 MB, several chunks
        source.write_bytes(data)
        key, size = blobs.put_file(source)
        assert (key, size) == (hashlib.sha256(data).hexdigest(), len(data))
        assert source.exists()
        assert blobs.read(key) == data

    def test_put_file_move_consumes_the_source(self, blobs: BlobStore, tmp_path: Path) -> None:
        source = tmp_path / "page.jpg"
        source.write_bytes(b"jpeg")
        key, _ = blobs.put_file(source, move=True)
        assert not source.exists()
        assert blobs.read(key) == b"jpeg"

    def test_missing_and_delete(self, blobs: BlobStore) -> None:
        missing = "0" * 64
        assert not blobs.exists(missing)
        key = blobs.put_bytes(b"x")
        blobs.delete(key)
        assert not blobs.exists(key)
        blobs.delete(key)  # idempotent

    def test_rejects_keys_that_are_not_sha256(self, blobs: BlobStore) -> None:
        with pytest.raises(ValueError):
            blobs.exists("../../etc/passwd")

    def test_iter_keys_lists_what_was_stored(self, blobs: BlobStore) -> None:
        keys = {blobs.put_bytes(bytes([i])) for i in range(3)}
        assert keys <= set(blobs.iter_keys())

    def test_a_batch_stores_its_blobs_when_it_commits(self, blobs: BlobStore) -> None:
        batch = BlobBatch(blobs)
        keys = [batch.put(data).key for data in (b"page", b"thumb", b"page")]
        assert keys[0] == keys[2] == hashlib.sha256(b"page").hexdigest()
        batch.commit()
        assert blobs.read(keys[0]) == b"page" and blobs.read(keys[1]) == b"thumb"
        batch.commit()  # nothing new: a no-op
        assert blobs.put_bytes(b"thumb") == keys[1]
