"""The desktop process stops cleanly on SIGTERM/SIGINT (a logout, Ctrl+C): exit 0,
no traceback, no process left, and the queue intact for the next start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from tests.conftest import REPO
from tests.helpers import wait_for

pytestmark = pytest.mark.slow  # a real window process per signal


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_window_like_a_close(tmp_path: Path, signum: int) -> None:
    data = tmp_path / "data"
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "DOCBATCH_SETTINGS_FILE": str(tmp_path / "settings.json"),
        "PROCESSING_MODE": "offline",
        "OCR_ENGINE": "none",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "docbatch_gui", "--data-dir", str(data)],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        lock = data / "worker.lock"

        def engine_started() -> bool:  # it holds the worker lock: the store is open too
            assert process.poll() is None, process.communicate()[0]
            held = {f.path for f in psutil.Process(process.pid).open_files()}
            return str(lock) in held

        wait_for(engine_started, 60, "the window to start its engine")
        children = psutil.Process(process.pid).children(recursive=True)
        process.send_signal(signum)
        output, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, output
    assert "Traceback" not in output
    assert not [c for c in children if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]
