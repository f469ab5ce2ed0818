"""Watched folders: complete files taken once, restarts, lost folders, moves."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.app.host import EngineHost
from docbatch_gui.app.watching import WatchService
from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.sources.watch import LISTED_MARKER, FolderWatcher, Ledger, is_temporary
from tests.helpers import REPO, cli_json, wait_for

SAMPLES = REPO / "docbatch_gui" / "resources" / "samples"
FAST = {"WATCH_SETTLE_SECONDS": "0.6", "WATCH_POLL_SECONDS": "0.2", "PROCESSING_MODE": "offline",
        "POLL_INTERVAL": "0.5"}  # fmt: skip


def _copy_slowly(source: Path, target: Path, pieces: int = 5, pause: float = 0.25) -> None:
    """As a scanner writing over the network under a temporary name, renamed at the
    end: however long a pause lasts on a busy machine, nothing half-written is taken
    (a file that grows under its own name: the clock-driven test above)."""
    data = source.read_bytes()
    step = len(data) // pieces + 1
    partial = target.with_name(target.name + ".part")
    with partial.open("wb") as stream:
        for start in range(0, len(data), step):
            stream.write(data[start : start + step])
            stream.flush()
            time.sleep(pause)  # the copy takes a while: what is tested
    partial.rename(target)


def test_temporary_names_are_waited_out() -> None:
    for name in ("scan.pdf.part", "~$book.xlsx", ".scan.pdf", "x.TMP", "a.crdownload"):
        assert is_temporary(name), name
    assert not is_temporary("scan_001.pdf")


def test_a_growing_file_is_taken_once_and_only_once_complete(tmp_path: Path) -> None:
    """The watcher's clock is the test's: the file grows between listings less than
    the settle time apart, however slow the machine, and is taken once it stops."""
    folder = tmp_path / "scans"
    folder.mkdir()
    ledger = Ledger(tmp_path / "taken.sqlite3")
    taken: list[tuple[Path, int]] = []
    now = [0.0]
    watcher = FolderWatcher([folder], ledger, lambda path, where: taken.append(
        (path, path.stat().st_size)), settle=0.6, poll=0.1, clock=lambda: now[0])  # fmt: skip
    data = (SAMPLES / "ru_three_documents.pdf").read_bytes()
    with (folder / "scan.pdf").open("wb") as stream:
        for start in range(0, len(data), len(data) // 5 + 1):
            stream.write(data[start : start + len(data) // 5 + 1])
            stream.flush()
            watcher.scan()
            now[0] += 0.5  # less than the settle time between two growths
            watcher.scan()
            assert taken == []  # still growing: never taken
    (folder / "copying.pdf.part").write_bytes(b"%PDF-1.4 half")
    now[0] += 0.7
    watcher.scan()
    assert taken == [(folder / "scan.pdf", len(data))]  # once, whole; never the .part
    for _ in range(3):
        now[0] += 1.0
        watcher.scan()
    assert len(taken) == 1  # more listings: not taken again
    again = FolderWatcher([folder], ledger, lambda p, f: taken.append((p, 0)), settle=0.3,
                          poll=0.1, clock=lambda: now[0])  # fmt: skip
    again.scan()
    now[0] += 1.0
    again.scan()
    assert len(taken) == 1  # a restart takes nothing twice
    ledger.close()


def test_a_lost_folder_is_reported_and_its_files_are_known_when_it_is_back(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "scans"
    folder.mkdir()
    (folder / "scan.pdf").write_bytes((SAMPLES / "ru_three_documents.pdf").read_bytes())
    taken: list[Path] = []
    problems: list[Message | None] = []
    ledger = Ledger(tmp_path / "taken.sqlite3")
    watcher = FolderWatcher(
        [folder],
        ledger,
        lambda path, where: taken.append(path),
        settle=0.3,
        poll=0.1,
        on_problem=lambda f, m: problems.append(m),
    )
    watcher.start()
    try:
        wait_for(lambda: taken, 20, "the file to be taken")
        os.rename(folder, tmp_path / "unmounted")
        wait_for(lambda: problems and problems[-1], 20, "the lost folder to be reported")
        said = problems[-1]
        assert said is not None and "missing" in said.english
        os.rename(tmp_path / "unmounted", folder)
        wait_for(lambda: problems[-1] is None, 20, "the folder to be back")
        assert taken == [folder / "scan.pdf"]  # the same file, back again, is known
    finally:
        watcher.stop()
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
    listed = tmp_path / "listed"
    second = _watch(data, kept, env={**keep, LISTED_MARKER: str(listed)})
    # a listing comes at least min(poll, settle) = 0.2 s after the last, and a complete
    # file is taken in the listing that finds it settled for 0.6 s: ten listings
    wait_for(lambda: listed.exists() and len(listed.read_text().split()) >= 10,
             what="ten listings of the restarted watcher")  # fmt: skip
    err = _stop(second)
    assert "queued as job" not in err
    assert len(cli_json(data, "jobs", env=keep)) == 3
    assert (kept / "a.pdf").exists() and not (kept / "processed").exists()
    assert json.dumps(jobs)  # the first run's jobs are still listed


@pytest.mark.slow  # starts a render child
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


# -- the watched folder as careful as a folder added by hand (issue 27) ---------------

INVOICE = SAMPLES / "en_invoice_INV-2024-0042.pdf"


class Watched:
    """A ``WatchService`` listed by hand (no thread): ``listen`` lists the folder
    until a condition holds, so a test waits for what it needs, never for a time."""

    def __init__(self, data: Path, folder: Path, **env: str) -> None:
        settings = load_settings(data_dir=data, OCR_ENGINE="none", PROCESSING_MODE="offline",
                                 WATCH_SETTLE_SECONDS="0.1", **env)  # fmt: skip
        self.app = DocBatchApp(settings)
        self.lines: list[str] = []  # what the operator is told, in English
        self.service = WatchService(
            self.app, [folder], notify=lambda line: self.lines.append(line.english)
        )

    def listen(self, until: Callable[[], object], what: str) -> None:
        def listed() -> object:
            self.service.watcher.scan()
            return until()

        wait_for(listed, 30, what)

    def files(self) -> list[str]:
        return sorted(j.file_name for j in self.app.jobs())

    def close(self) -> None:
        self.service.stop()
        self.app.close()


@pytest.fixture
def inbox(tmp_path: Path) -> Path:
    folder = tmp_path / "inbox"
    folder.mkdir()
    return folder


def test_a_link_out_of_the_watched_folder_is_never_taken(tmp_path: Path, inbox: Path) -> None:
    """The watched folder took ``ln -s ~/payroll.pdf inbox/x.pdf``: stored, read,
    exported and posted. It follows the folder's rule now (FOLLOW_SYMLINKS_OUT)."""
    payroll = tmp_path / "home" / "payroll.pdf"
    payroll.parent.mkdir()
    payroll.write_bytes(INVOICE.read_bytes())
    (inbox / "x.pdf").symlink_to(payroll)
    (inbox / "scan.pdf").write_bytes(INVOICE.read_bytes() + b"\n% another file")
    watched = Watched(tmp_path / "data", inbox)
    try:
        watched.listen(lambda: any("x.pdf not taken" in line for line in watched.lines),
                       "the link to be passed over")  # fmt: skip
        watched.listen(lambda: watched.files(), "scan.pdf to be queued")
        assert watched.files() == ["scan.pdf"]
        (said,) = [line for line in watched.lines if "x.pdf" in line]
        assert "symbolic link out of the folder" in said and str(payroll) in said
        assert not list((tmp_path / "data" / "blobs").rglob(_sha256(payroll)))  # never stored
    finally:
        watched.close()
    allowed = Watched(tmp_path / "data2", inbox, FOLLOW_SYMLINKS_OUT="true")
    try:
        allowed.listen(lambda: "x.pdf" in allowed.files(), "the allowed link to be taken")
    finally:
        allowed.close()


def _sha256(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_watched_folder_ignores_and_takes_the_names_a_folder_added_by_hand_does(
    tmp_path: Path, inbox: Path
) -> None:
    """``~invoice 2024.pdf`` was never taken nor mentioned; ``Thumbs.db`` and
    ``notes.txt`` became failed jobs."""
    for name in ("Thumbs.db", "desktop.ini", ".DS_Store", "~$invoice.docx"):
        (inbox / name).write_bytes(b"system junk")
    (inbox / "notes.txt").write_text("call the supplier", encoding="utf-8")
    (inbox / "~invoice 2024.pdf").write_bytes(INVOICE.read_bytes())
    watched = Watched(tmp_path / "data", inbox)
    try:
        watched.listen(lambda: watched.files(), "~invoice 2024.pdf to be queued")
        watched.listen(lambda: any("notes.txt" in line for line in watched.lines),
                       "notes.txt to be named")  # fmt: skip
        assert watched.files() == ["~invoice 2024.pdf"]  # no failed job for the rest
        (said,) = [line for line in watched.lines if "notes.txt" in line]
        assert "not taken" in said and "not supported" in said
        for name in ("Thumbs.db", "desktop.ini", ".DS_Store", "~$invoice.docx"):
            assert not any(name in line for line in watched.lines), name
    finally:
        watched.close()
    assert is_temporary("~$invoice.docx") and not is_temporary("~invoice 2024.pdf")


def test_a_name_that_is_not_utf8_is_passed_over_once_and_the_rest_is_taken(
    tmp_path: Path, inbox: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One such name raised on every poll (``knows``): nothing after it was taken;
    ``process FOLDER`` queued nothing ("failed unexpectedly")."""
    odd = os.fsencode(inbox) + b"/\xff\xfe scan.pdf"
    with open(odd, "wb") as stream:
        stream.write(INVOICE.read_bytes())
    (inbox / "b.pdf").write_bytes(INVOICE.read_bytes() + b"\n% b")
    watched = Watched(tmp_path / "data", inbox)
    try:
        watched.listen(lambda: watched.files() == ["b.pdf"], "b.pdf to be queued")
        watched.listen(lambda: any("scan.pdf" in line for line in watched.lines),
                       "the odd name to be named")  # fmt: skip
        for _ in range(3):
            watched.service.watcher.scan()  # more listings: no second notice
        (said,) = [line for line in watched.lines if "scan.pdf" in line]
        assert "\\xff\\xfe scan.pdf" in said and "not valid UTF-8" in said
    finally:
        watched.close()
    from docbatch_gui.cli import main

    code = main(["--data-dir", str(tmp_path / "cli"), "process", str(inbox), "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert [j["file"] for j in json.loads(captured.out)] == ["b.pdf"]
    assert "\\xff\\xfe scan.pdf" in captured.err and "failed unexpectedly" not in captured.err


def test_two_watchers_on_one_data_folder_never_take_one_file(tmp_path: Path, inbox: Path) -> None:
    """The window and ``docbatch worker`` both watching WATCH_FOLDERS made 66 jobs
    of 40 files. The moment between "not known" and "recorded" is made to happen:
    the second watcher lists the folder while the first is queueing the file."""
    (inbox / "a.pdf").write_bytes(INVOICE.read_bytes())
    first, second = Watched(tmp_path / "data", inbox), Watched(tmp_path / "data", inbox)
    adding = first.app.add

    def add_while_the_other_looks(*args: object, **kwargs: object) -> object:
        second.service.watcher.scan()  # the file is settled for it too
        return adding(*args, **kwargs)  # type: ignore[arg-type]

    first.app.add = add_while_the_other_looks  # type: ignore[method-assign]
    try:
        second.service.watcher.scan()  # both have seen the file...
        first.listen(lambda: first.files(), "a.pdf to be queued")  # ...one takes it
        for _ in range(3):
            second.service.watcher.scan()
        assert first.files() == ["a.pdf"]  # one job (both see the same store)
        assert not any("queued" in line for line in second.lines), second.lines
    finally:
        first.close()
        second.close()


@pytest.mark.slow  # two whole jobs
def test_a_file_that_changes_after_a_truncated_failure_is_taken_again_not_moved(
    tmp_path: Path, inbox: Path
) -> None:
    """A copy that stalled past WATCH_SETTLE_SECONDS failed as truncated and went to
    failed/, where the copier finished it, never read."""
    whole = INVOICE.read_bytes()
    target = inbox / "scan.pdf"
    copier = target.open("wb")  # the copier keeps its file open, as a real one does
    copier.write(whole[: len(whole) // 2])
    copier.flush()
    watched = Watched(tmp_path / "data", inbox, WATCH_AFTER="move")
    try:
        watched.listen(lambda: watched.app.jobs(), "the half file to be queued")
        (half,) = watched.app.jobs()
        (failed,) = asyncio.run(watched.app.run([half.id]))
        assert failed.state is JobState.FAILED and failed.error_code == "pdf_truncated"
        watched.service._move_finished()
        assert target.exists()  # failed as truncated: not moved at once
        copier.write(whole[len(whole) // 2 :])  # the copier goes on, and finishes
        copier.close()
        watched.service._move_finished()
        assert target.exists() and any("changed after it was taken" in x for x in watched.lines)
        watched.listen(lambda: len(watched.app.jobs()) == 2, "the whole file to be taken again")
        again = max(j.id for j in watched.app.jobs())
        (done,) = asyncio.run(watched.app.run([again]))
        assert done.state in (JobState.DONE, JobState.NEEDS_REVIEW), done.error
        wait_for(lambda: (watched.service._move_finished(),
                          (inbox / "processed" / "scan.pdf").exists())[1],
                 30, "the whole file to be moved to processed/")  # fmt: skip
        assert not (inbox / "failed").exists()
    finally:
        watched.close()
