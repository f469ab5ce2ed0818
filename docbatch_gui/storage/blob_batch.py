"""Blobs stored together and made durable together: the render step's pages.

Storing a blob alone costs two fsyncs (its file, then its folder after the rename),
each a commit of the filesystem's journal: some milliseconds a blob, up to four blobs
a page. A batch hands each blob to a thread, not awaited, which hashes it (its key
names it in the page row, read once ``commit`` returned), writes and fsyncs it: creating
a file waits for the journal (0.3 ms alone on this disk, over a millisecond while
anything else fsyncs), time the event loop spent while the render child had the next
page ready; and the fsyncs of a page's blobs, which wait together, are one journal
commit while the child renders the next page, not all of the job's at its end.
``commit`` (in a thread) waits for those, renames each temporary into place, then
fsyncs each folder: the first of those commits the journal for every rename, and the
rest find nothing left to do. One awaited thread hand-off a flush, not one a page:
those cost the event loop more than the writes. (A 3-page job's blobs, put 20 ms
apart: its end waited 11-18 ms for them when they were all fsynced there, 6-9 ms now.)

The guarantees of a single ``put_bytes`` hold for every blob: its bytes are durable
before the rename that publishes it, and the rename before ``commit`` returns. A page
row naming these blobs is written only after ``commit``. A crash before it leaves
temporaries, which the start sweeps (``sweep_incoming``), and no row that names them.

A store with no local folder (MinIO) uploads each blob in a thread of a small pool
as it is put; ``commit`` waits for the uploads.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from functools import partial
from pathlib import Path

from docbatch_gui.storage.blobs import BlobStore, LocalBlobStore, Staged, fsync_dir

#: threads of each pool: uploading the blobs of batches to a store with no local
#: folder; fsyncing a commit's folders, as the file system commits fsyncs that wait
#: together at once (a job's 12 blobs: 0.7 ms a blob together, 10.5 ms in turn); and
#: writing and fsyncing the temporaries as they are put (a page's blobs at once)
UPLOAD_THREADS = 4
SYNC_THREADS = 8
STAGE_THREADS = 4
_pools: dict[str, ThreadPoolExecutor] = {}
_pools_made = threading.Lock()


def _pool(name: str, threads: int) -> ThreadPoolExecutor:
    """The process's pool ``name``, made on first use (most processes need none)."""
    with _pools_made:
        if name not in _pools:
            _pools[name] = ThreadPoolExecutor(threads, thread_name_prefix=f"blob-{name}")
        return _pools[name]


def _together(calls: list[Callable[[], object]]) -> None:
    """Run ``calls`` at once and wait for every one, then raise the first failure: a
    failure never leaves another call running behind the caller's clean-up."""
    if len(calls) < 2:
        for call in calls:
            call()
        return
    futures = [_pool("sync", SYNC_THREADS).submit(call) for call in calls]
    wait(futures)
    for future in futures:
        future.result()


class PutBlob:
    """A blob put in a ``BlobBatch``: its key, once the thread that hashes it is done."""

    def __init__(self, future: Future[str] | Future[tuple[str, int, Staged | None]]) -> None:
        self._future = future

    @property
    def key(self) -> str:
        """The blob's sha256 (waits for its thread: read it after ``commit``)."""
        done = self._future.result()
        return done if isinstance(done, str) else done[0]


class BlobBatch:
    """Blobs staged by ``put`` (hashed and written in threads) and published by
    ``commit`` (blocking: run it in a thread)."""

    def __init__(self, store: BlobStore) -> None:
        self.store = store
        self._local = store if isinstance(store, LocalBlobStore) else None
        self._staged: list[tuple[str, int, Staged]] = []
        #: temporaries being written (local store), then ``_staged`` once written
        self._staging: list[Future[tuple[str, int, Staged | None]]] = []
        self._uploading: list[Future[str]] = []
        # one commit at a time: a second (after a cancelled wait for the first) returns
        # only once the first has published its blobs, so no row is written before them
        self._committing = threading.Lock()
        #: why a commit failed: the blobs it had not published are gone, so every later
        #: commit fails too (a row must not be written for them)
        self._failed: BaseException | None = None

    def put(self, data: bytes) -> PutBlob:
        """``data``, hashed and written in a thread; stored once ``commit`` returns.
        Its key is known by then (``PutBlob.key``): a page's four blobs hashed on the
        event loop cost it 0.4 ms a page, time the next page of the child waited for."""
        if self._local is None:
            upload = _pool("upload", UPLOAD_THREADS).submit(self.store.put_bytes, data)
            self._uploading.append(upload)
            return PutBlob(upload)
        staging = _pool("stage", STAGE_THREADS).submit(self._stage, data)
        self._staging.append(staging)
        return PutBlob(staging)

    def _stage(self, data: bytes) -> tuple[str, int, Staged | None]:
        """``data``'s key and temporary, written and fsynced (in a thread of the stage
        pool); no temporary when the store holds these bytes already."""
        assert self._local is not None
        key = hashlib.sha256(data).hexdigest()
        staged = self._local.stage_bytes(data, key)[1]
        if staged is not None:
            try:
                staged.sync()
            except BaseException:
                staged.discard()
                raise
        return key, len(data), staged

    def _written(self) -> None:
        """Every temporary put so far, once written (its first failure raised when every
        write has ended: none is left running behind the caller's clean-up)."""
        staging, self._staging = self._staging, []
        wait(staging)
        failure: BaseException | None = None
        for future in staging:
            try:
                key, size, staged = future.result()
            except BaseException as exc:  # raised below, once every write has ended
                failure = failure or exc
                continue
            if staged is not None:
                self._staged.append((key, size, staged))
        if failure is not None:
            raise failure

    def commit(self) -> None:
        """Make every blob staged so far durable and in place."""
        with self._committing:
            if self._failed is not None:
                raise self._failed
            uploading, self._uploading = self._uploading, []
            staged: list[tuple[str, int, Staged]] = []
            try:
                try:
                    self._written()
                finally:
                    staged, self._staged = self._staged, []
                for upload in uploading:
                    upload.result()
            except BaseException as exc:
                for _, _, blob in staged:  # never published: nothing names them
                    blob.discard()
                self._failed = exc
                raise
            try:
                if staged:
                    self._publish(staged)
            except BaseException as exc:
                self._failed = exc
                raise

    def _publish(self, staged: list[tuple[str, int, Staged]]) -> None:
        assert self._local is not None
        try:  # each temporary was fsynced as it was written (``_stage``)
            folders: set[Path] = set()
            while staged:
                key, size, blob = staged[0]
                folders.add(self._local.publish(blob.path, key, size, sync_folder=False))
                staged.pop(0)
            _together([partial(fsync_dir, folder) for folder in folders])
        finally:
            for _, _, blob in staged:  # not renamed: a failure midway
                blob.discard()

    def discard(self) -> None:
        """Drop what was staged and not committed (nothing names it yet)."""
        with contextlib.suppress(Exception):  # a temporary not written has nothing to drop
            self._written()
        staged, self._staged = self._staged, []
        for _, _, blob in staged:
            blob.discard()
