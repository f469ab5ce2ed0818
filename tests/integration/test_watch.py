"""Watched folders: complete files taken once, restarts, lost folders, moves."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from docbatch_gui.app.host import EngineHost
from docbatch_gui.settings.model import load_settings
from docbatch_gui.sources.watch import FolderWatcher, Ledger, is_temporary
from tests.helpers import REPO, cli_json, wait_for

SAMPLES = REPO / "docbatch_gui" / "resources" / "samples"
FAST = {"WATCH_SETTLE_SECONDS": "0.6", "WATCH_POLL_SECONDS": "0.2", "PROCESSING_MODE": "offline",
        "POLL_INTERVAL": "0.5"}  # fmt: skip


def _copy_slowly(source: Path, target: Path, pieces: int = 5, pause: float = 0.25) -> None:
    """As a scanner writing over the network: the file grows for about a second."""
    data = source.read_bytes()
    step = len(data) // pieces + 1
    with target.open("wb") as stream:
        for start in range(0, len(data), step):
            stream.write(data[start : start + step])
            stream.flush()
            time.sleep(pause)


def test_temporary_names_are_waited_out() -> None:
    for name in ("scan.pdf.part", "~$book.xlsx", ".scan.pdf", "x.TMP", "a.crdownload"):
        assert is_temporary(name), name
    assert not is_temporary("scan_001.pdf")


@pytest.mark.slow  # waits out real settle times (about 4 s)
def test_a_growing_file_is_taken_once_complete_and_a_lost_folder_is_reported(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "scans"
    folder.mkdir()
    taken: list[tuple[Path, int]] = []
    problems: list[str | None] = []
    ledger = Ledger(tmp_path / "taken.sqlite3")

    def take(path: Path, where: Path) -> None:
        info = path.stat()
        taken.append((path, info.st_size))
        ledger.record(path, info.st_size, info.st_mtime_ns, where, 1, "queued")

    watcher = FolderWatcher([folder], ledger, take, settle=0.6, poll=0.1,
                            on_problem=lambda f, m: problems.append(m))  # fmt: skip
    watcher.start()
    try:
        source = SAMPLES / "ru_three_documents.pdf"
        _copy_slowly(source, folder / "scan.pdf")
        wait_for(lambda: taken, 20, "the file to be taken")
        time.sleep(1.0)  # more listings happen: it is not taken again
        assert taken == [(folder / "scan.pdf", source.stat().st_size)]  # once, whole
        (folder / "copying.pdf.part").write_bytes(b"%PDF-1.4 half")
        time.sleep(1.0)
        assert len(taken) == 1  # a temporary name is never taken

        os.rename(folder, tmp_path / "unmounted")
        wait_for(lambda: problems and problems[-1], 20, "the lost folder to be reported")
        assert "missing" in (problems[-1] or "")
        os.rename(tmp_path / "unmounted", folder)
        wait_for(lambda: problems[-1] is None, 20, "the folder to be back")
        assert len(taken) == 1  # the same file, back again, is known
    finally:
        watcher.stop()
    restarted: list[Path] = []
    again = FolderWatcher([folder], ledger, lambda p, f: restarted.append(p), settle=0.3,
                          poll=0.1)  # fmt: skip
    again.scan()
    time.sleep(0.4)
    again.scan()
    assert restarted == []  # a restart takes nothing twice
    ledger.close()


def _watch(data: Path, *folders: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "docbatch_gui.cli", "--data-dir", str(data), "watch",
         *map(str, folders)],
        cwd=REPO, env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip


def _stop(process: subprocess.Popen[str]) -> str:
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    return err


@pytest.mark.slow  # five CLI processes and whole jobs; the engine host's watch stays fast
def test_watch_processes_moves_originals_and_a_restart_takes_nothing_twice(
    tmp_path: Path,
) -> None:
    data, folder = tmp_path / "data", tmp_path / "scanner"
    folder.mkdir()
    env = {**FAST, "WATCH_AFTER": "move"}
    process = _watch(data, folder, env=env)
    try:
        writer = threading.Thread(
            target=_copy_slowly,
            args=(SAMPLES / "en_invoice_INV-2024-0042.pdf", folder / "invoice.pdf"),
        )
        writer.start()
        (folder / "broken.pdf").write_bytes(b"%PDF-1.4\nnot really a pdf")
        writer.join()
        wait_for(lambda: (folder / "processed" / "invoice.pdf").exists(), 120,
                 lambda: f"invoice moved to processed/: {list(folder.rglob('*'))}")  # fmt: skip
        wait_for(lambda: (folder / "failed" / "broken.pdf").exists(), 120,
                 lambda: f"broken file moved to failed/: {list(folder.rglob('*'))}")  # fmt: skip
    finally:
        err = _stop(process)
    assert process.returncode == 0, err
    assert "invoice.pdf queued as job" in err and "moved to processed/" in err
    jobs = cli_json(data, "jobs", env=env)
    assert sorted(j["file"] for j in jobs) == ["broken.pdf", "invoice.pdf"]
    assert {j["file"]: j["state"] for j in jobs}["invoice.pdf"] in ("done", "needs_review")

    # kept originals: a restart finds them again and takes nothing twice
    keep = {**FAST, "WATCH_AFTER": "keep"}
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "a.pdf").write_bytes((SAMPLES / "en_invoice_INV-2024-0042.pdf").read_bytes())
    first = _watch(data, kept, env=keep)
    try:
        wait_for(lambda: len(cli_json(data, "jobs", env=keep)) == 3, 120, "a.pdf queued")
    finally:
        _stop(first)
    second = _watch(data, kept, env=keep)
    time.sleep(3)  # several settle times and listings
    err = _stop(second)
    assert "queued as job" not in err
    assert len(cli_json(data, "jobs", env=keep)) == 3
    assert (kept / "a.pdf").exists() and not (kept / "processed").exists()
    assert json.dumps(jobs)  # the first run's jobs are still listed


def test_the_engine_host_watches_the_settings_folders_while_it_runs(tmp_path: Path) -> None:
    folder = tmp_path / "inbox"
    folder.mkdir()
    settings = load_settings(data_dir=tmp_path / "data", OCR_ENGINE="none",
                             **{**FAST, "WATCH_FOLDERS": str(folder)})  # fmt: skip
    host = EngineHost.for_settings(settings)
    try:
        host.start()
        assert host.watching is not None and host.watching.folders == [folder]
        (folder / "a.pdf").write_bytes((SAMPLES / "en_invoice_INV-2024-0042.pdf").read_bytes())
        wait_for(lambda: [j for j in host.app.jobs() if j.state.value in ("done", "needs_review")],
                 120, "the dropped file to be processed")  # fmt: skip
        host.stop()
        assert host.watching is None
    finally:
        host.close()
