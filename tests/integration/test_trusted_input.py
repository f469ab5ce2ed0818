"""Only what was asked, only what is valid, stored; blobs that are whole.

- a symbolic link to /proc/self/environ (or out of the added folder) stores nothing;
- a link loop and a named pipe are passed over with a note, not a traceback;
- a refused file is never stored;
- a truncated blob is repaired by adding the file again with --force;
- half-written temporaries of a dead writer are swept at start, a live one's kept;
- the MinIO download cache is bounded and never serves a damaged copy.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.states import JobState
from docbatch_gui.storage.blobs import LocalBlobStore, sha256_file
from tests.conftest import SAMPLES
from tests.helpers import cli

INVOICE = SAMPLES / "en_invoice_INV-2024-0042.pdf"


def stored_keys(app: DocBatchApp) -> set[str]:
    return set(app.blobs.iter_keys())


def test_links_out_of_the_folder_into_proc_loops_and_pipes_store_nothing(
    app: DocBatchApp, tmp_path: Path
) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    shutil.copy(INVOICE, inbox / "good.pdf")
    (inbox / "environ.pdf").symlink_to("/proc/self/environ")
    outside = tmp_path / "private.pdf"
    shutil.copy(INVOICE, outside)
    outside.write_bytes(outside.read_bytes() + b"%private")
    (inbox / "elsewhere.pdf").symlink_to(outside)
    (inbox / "loop.pdf").symlink_to(inbox / "loop.pdf")
    os.mkfifo(inbox / "pipe.pdf")
    (inbox / "inside.pdf").symlink_to(inbox / "good.pdf")  # the same file: seen once
    report = app.add([inbox])
    assert [j.file_name for j in report.jobs] == ["good.pdf"]
    notes = {path.name: why.english for path, why in report.passed_over}
    assert set(notes) == {"environ.pdf", "elsewhere.pdf", "loop.pdf", "pipe.pdf"}
    assert notes["environ.pdf"].startswith("it leads to a system file (/proc/")
    assert "FOLLOW_SYMLINKS_OUT" in notes["elsewhere.pdf"]
    assert notes["loop.pdf"] == "a symbolic link loop"
    assert notes["pipe.pdf"].startswith("not a regular file")
    assert stored_keys(app) == {sha256_file(inbox / "good.pdf")[0]}


def test_a_link_named_explicitly_into_proc_fails_alone_and_stores_nothing(
    app: DocBatchApp, tmp_path: Path
) -> None:
    link = tmp_path / "secrets.pdf"
    link.symlink_to("/proc/self/environ")
    (job,) = app.add([link]).jobs
    assert job.state is JobState.FAILED and job.error_kind is ErrorKind.UNSUPPORTED
    assert (job.error or "").startswith("secrets.pdf: not read: it leads to a system file")
    assert stored_keys(app) == set()


def test_following_links_out_is_a_setting(app: DocBatchApp, tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "shared.pdf").symlink_to(INVOICE)
    assert app.add([inbox]).jobs == []
    app.settings.follow_symlinks_out = True
    (job,) = app.add([inbox]).jobs
    assert job.file_name == "shared.pdf" and job.state is JobState.QUEUED


def test_a_refused_file_is_never_stored(app: DocBatchApp, tmp_path: Path) -> None:
    letter = tmp_path / "letter.pdf"
    letter.write_bytes(b"Dear Sir, this is plain text, not a PDF.\n" * 50)
    (job,) = app.add([letter]).jobs
    assert job.state is JobState.FAILED
    assert job.sha256 == sha256_file(letter)[0]  # recorded, for duplicates and retries
    assert stored_keys(app) == set()


@pytest.mark.slow
def test_a_truncated_blob_is_repaired_by_force(tmp_path: Path) -> None:
    data = tmp_path / "data"
    source = tmp_path / "invoice.pdf"
    shutil.copy(INVOICE, source)
    assert cli(data, "process", str(source), "--mode", "offline").returncode == 0  # stored
    sha, size = sha256_file(source)
    blob = data / "blobs" / sha[:2] / sha[2:4] / sha
    blob.write_bytes(blob.read_bytes()[: size // 2])  # a disk or a copy cut it short
    again = cli(data, "process", str(source), "--mode", "offline", "--force")
    assert again.returncode == 0, again.stderr
    assert sha256_file(blob) == (sha, size)
    assert "damaged; replaced with a good copy" in (data / "logs" / "docbatch.log").read_text()


@pytest.mark.slow
def test_a_damaged_blob_is_taken_again_from_the_source_on_retry(
    app: DocBatchApp, tmp_path: Path
) -> None:
    source = tmp_path / "invoice.pdf"
    shutil.copy(INVOICE, source)
    (job,) = app.add([source]).jobs
    blob = app.blobs.local_path(job.sha256)
    assert blob is not None
    blob.write_bytes(b"%PDF-1.7 cut")
    (done,) = asyncio.run(app.run([job.id]))
    assert done.state is JobState.DONE, done.error
    assert sha256_file(blob)[0] == job.sha256
    blob.write_bytes(b"%PDF-1.7 cut")
    source.write_bytes(b"%PDF-1.7 another file now")
    app.retry(done.id, force=True)
    app.store.delete_pages(done.id)
    app.store.set_pages_deliverable(done.id, False)
    (failed,) = asyncio.run(app.run([job.id]))
    assert failed.state is JobState.FAILED
    assert "the stored copy is damaged" in (failed.error or "")
    assert "Add the file again" in (failed.error or "")


@pytest.mark.slow  # starts a Python process
def test_incoming_leftovers_of_a_dead_writer_are_swept(tmp_path: Path) -> None:
    blobs = LocalBlobStore(tmp_path / "blobs")
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)  # fmt: skip
    dead = tmp_path / "blobs" / ".incoming" / f".{finished.stdout.strip()}-abc"
    dead.write_bytes(b"half a page")
    legacy = tmp_path / "blobs" / ".incoming" / "tmpq1w2e3"
    legacy.write_bytes(b"from an older version")
    live = tmp_path / "blobs" / ".incoming" / f".{os.getpid()}-def"
    live.write_bytes(b"being written now")
    assert sorted(p.name for p in blobs.leftover_temporaries()) == sorted([dead.name, legacy.name])
    assert blobs.sweep_incoming() == 2
    assert not dead.exists() and not legacy.exists() and live.exists()


@pytest.mark.slow
@pytest.mark.usefixtures("moto_s3")
def test_the_minio_cache_is_bounded_and_never_serves_a_damaged_copy(
    moto_s3: object, tmp_path: Path
) -> None:
    from docbatch_gui.storage.minio_blobs import MinioBlobStore

    cache = tmp_path / "cache"
    store = MinioBlobStore(
        moto_s3.endpoint,  # type: ignore[attr-defined]
        "test-key",
        "test-secret",
        bucket="cachetest",
        cache_dir=cache,
        cache_max_bytes=250_000,
    )
    keys = [store.put_bytes(bytes([n]) * 100_000) for n in range(4)]
    for key in keys:
        assert store.local_path(key) is not None
    cached = {p.name for p in cache.iterdir() if not p.name.startswith(".")}
    assert len(cached) == 2 and keys[-1] in cached  # the least recently used went
    path = store.local_path(keys[-1])
    assert path is not None
    path.write_bytes(b"\0" * 100_000)  # damaged on disk, same size
    fresh = MinioBlobStore(
        moto_s3.endpoint,  # type: ignore[attr-defined]
        "test-key", "test-secret", bucket="cachetest", cache_dir=cache,
    )  # fmt: skip
    served = fresh.local_path(keys[-1])
    assert served is not None and sha256_file(served)[0] == keys[-1]
