"""The worker lock: one holder per data directory, free again when its holder dies."""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from docbatch_gui.coordination.lock import WorkerLock

HOLD = (
    "import sys, time\n"
    "from docbatch_gui.coordination.lock import WorkerLock\n"
    "lock = WorkerLock(sys.argv[1])\n"
    "assert lock.acquire()\n"
    "print('held', flush=True)\n"
    "time.sleep(600)\n"
)


def test_a_second_worker_is_refused_and_told_why(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    first, second = WorkerLock(tmp_path / "data"), WorkerLock(tmp_path / "data")
    assert first.acquire() and first.held and first.acquire()
    with caplog.at_level(logging.INFO, logger="docbatch_gui.coordination.lock"):
        assert not second.acquire() and not second.acquire()
    assert not second.held
    assert caplog.text.count("held by another DocBatch process") == 1  # said once
    first.release()
    assert second.acquire()
    second.release()


@pytest.mark.slow  # starts a Python process
def test_the_lock_of_a_killed_holder_is_free(tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(tmp_path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert not WorkerLock(tmp_path).acquire()
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    with WorkerLock(tmp_path) as lock:
        assert lock.held


def test_another_thread_may_release_it(tmp_path: Path) -> None:
    lock = WorkerLock(tmp_path)
    taken = threading.Thread(target=lock.acquire)
    taken.start()
    taken.join()
    assert lock.held
    lock.release()
    assert not lock.held and WorkerLock(tmp_path).acquire()
