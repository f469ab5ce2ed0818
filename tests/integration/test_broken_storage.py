"""A broken disk or database is one sentence, and restarts are not the file's fault.

Each attack is reproduced first: a damaged, an empty and a locked database, a full
disk (a small tmpfs where the test may mount one, else an injected ENOSPC), a UTF-16
settings file, a worker killed ten times in a row while preparing, and a file whose
own render child dies every time.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from docbatch_gui.pipeline.child import STALL_MARKER_VARIABLE, STALL_VARIABLE
from tests import builders
from tests.conftest import SAMPLES
from tests.helpers import REPO, cli, wait_for

INVOICE = SAMPLES / "en_invoice_INV-2024-0042.pdf"


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


@pytest.mark.slow
def test_a_damaged_database_is_one_sentence_and_is_kept(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    db = data / "docbatch.sqlite3"
    db.write_bytes(b"this is no database, it was overwritten " * 200)
    before = db.read_bytes()
    result = cli(data, "jobs")
    assert result.returncode == 6  # storage
    line = one_line(result.stderr)
    assert str(db) in line and "is damaged" in line and "restore it from a backup" in line
    assert db.read_bytes() == before  # never replaced
    doctor = cli(data, "doctor")
    assert "is damaged (quick_check" in doctor.stdout or "is damaged" in doctor.stdout


@pytest.mark.slow
def test_an_empty_database_is_reported_not_replaced(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    db = data / "docbatch.sqlite3"
    db.touch()
    result = cli(data, "process", str(INVOICE), "--mode", "offline")
    assert result.returncode == 6
    line = one_line(result.stderr)
    assert f"{db} is empty (0 bytes)" in line and "Restore it from a backup" in line
    assert db.stat().st_size == 0


@pytest.mark.slow
def test_a_locked_database_waits_then_leaves_the_job_queued(tmp_path: Path) -> None:
    data = tmp_path / "data"
    source = tmp_path / "invoice.pdf"
    shutil.copy(INVOICE, source)
    assert cli(data, "process", str(source), "--mode", "offline").returncode == 0  # queued
    holder = sqlite3.connect(data / "docbatch.sqlite3", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the database
    try:
        started = time.monotonic()
        result = cli(data, "worker", "--once", env={"DB_BUSY_TIMEOUT": "1"})
        waited = time.monotonic() - started
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.returncode == 6
    line = one_line(result.stderr)
    assert "is locked by another program (waited 1 s)" in line
    assert waited >= 1
    listed = cli(data, "jobs", "--json")
    assert '"state": "queued"' in listed.stdout  # not failed
    assert cli(data, "worker", "--once").returncode == 0
    assert '"state": "done"' in cli(data, "jobs", "--json").stdout


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path | None]:
    """A 3 MB tmpfs where the test may mount one (root in CI), else None."""
    mount = tmp_path / "small"
    mount.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)], capture_output=True
    )
    if made.returncode != 0:
        yield None
        return
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


@pytest.mark.slow
def test_a_full_disk_is_one_sentence_and_loses_nothing(
    tmp_path: Path,
    small_disk: Path | None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    scan = tmp_path / "noise.png"
    Image.frombytes("RGB", (1500, 1500), os.urandom(1500 * 1500 * 3)).save(scan)  # ~6.8 MB
    before = scan.read_bytes()
    if small_disk is not None:
        data = small_disk / "data"
        result = cli(data, "process", str(scan), "--mode", "offline")
        assert result.returncode == 6
        line = one_line(result.stderr)
        leftovers = list((data / "blobs" / ".incoming").iterdir())
    else:  # no mount allowed: the same write fails with an injected ENOSPC
        from docbatch_gui import cli as cli_module
        from docbatch_gui.storage.blobs import LocalBlobStore

        def full(self: object, path: Path, *, move: bool = False) -> tuple[str, int]:
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(LocalBlobStore, "put_file", full)
        data = tmp_path / "data"
        code = cli_module.main(["--data-dir", str(data), "process", str(scan), "--mode", "offline"])
        assert code == 6
        line = one_line(capsys.readouterr().err)
        leftovers = []
    assert f"The disk holding {data} is full: free some space" in line
    assert scan.read_bytes() == before  # the operator's file is untouched
    assert leftovers == []  # no half-written blob


@pytest.mark.slow
def test_a_utf16_settings_file_is_one_sentence(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text('{"JPEG_QUALITY": 70}', encoding="utf-16")
    result = cli(tmp_path / "data", "jobs", env={"DOCBATCH_SETTINGS_FILE": str(settings)})
    assert result.returncode == 5
    line = one_line(result.stderr)
    assert f"The settings file {settings} is not UTF-8 text (it looks like UTF-16" in line
    assert "save it again as UTF-8" in line


@pytest.mark.slow
def test_a_worker_killed_ten_times_while_preparing_fails_no_good_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    big = builders.text_pdf(tmp_path / "long.pdf", pages=6)
    assert cli(data, "process", str(big), "--mode", "offline").returncode == 0
    db = data / "docbatch.sqlite3"
    command = [
        sys.executable,
        "-m",
        "docbatch_gui.cli",
        "--data-dir",
        str(data),
        "worker",
        "--once",
    ]
    for kill in range(1, 11):
        # at different moments of the rendering: the child stalls on page 1, 2 or 3
        # (a seam), so the worker is killed mid-render however fast the machine is
        marker = tmp_path / f"stalled-{kill}.txt"
        stall = {STALL_VARIABLE: f"long.pdf:{kill % 3 + 1}", STALL_MARKER_VARIABLE: str(marker)}
        worker = subprocess.Popen(
            command,
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, **stall},
        )

        def rendering(attempt: int = kill, worker: subprocess.Popen[bytes] = worker) -> bool:
            assert worker.poll() is None, "the worker finished before it could be killed"
            with sqlite3.connect(db) as conn:
                row = conn.execute("SELECT attempts, state FROM jobs").fetchone()
            return tuple(row) == (attempt, "preparing")  # this attempt is rendering

        wait_for(rendering, 60, f"attempt {kill} to render", interval=0.02)
        wait_for(marker.exists, 60, f"attempt {kill} to stall on page {kill % 3 + 1}")
        assert worker.poll() is None, "the worker finished before it could be killed"
        worker.send_signal(signal.SIGKILL)
        worker.wait()
    assert cli(data, "worker", "--once").returncode == 0
    jobs = cli(data, "jobs", "--json").stdout
    assert '"state": "done"' in jobs or '"state": "needs_review"' in jobs, jobs
    with sqlite3.connect(db) as conn:
        attempts, crashes = conn.execute("SELECT attempts, crashes FROM jobs").fetchone()
    assert attempts == 11 and crashes == 0  # interruptions are not the file's fault


@pytest.mark.slow
def test_a_file_that_kills_its_render_child_fails_after_three_crashes(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {"DOCBATCH_CRASH_AT": "child_render"}
    result = cli(data, "process", str(INVOICE), "--mode", "offline", "--wait", env=env)
    assert result.returncode == 1
    with sqlite3.connect(data / "docbatch.sqlite3") as conn:
        state, crashes, error = conn.execute("SELECT state, crashes, error FROM jobs").fetchone()
    assert (state, crashes) == ("failed", 3)
    assert "the renderer stopped unexpectedly" in error and "It happened 3 times" in error
    assert "killed by the system (SIGKILL), most likely for lack of memory" in error
