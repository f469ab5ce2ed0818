"""*Test connection* imports the Anthropic SDK (seconds, the first time) in a thread:
the Settings tab awaits the check on the GUI loop, and an import there froze the
window for the whole import. A fresh interpreter, so the SDK is not yet loaded; an
audit hook records which thread imports it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = r"""
import asyncio, socket, sys, threading
from docbatch_gui.diagnostics.live import live_check
from docbatch_gui.settings.loading import load_settings

assert "anthropic" not in sys.modules
threads = []

def hook(event, args):
    if event == "import" and args[0] == "anthropic" and "anthropic" not in sys.modules:
        threads.append(threading.current_thread() is threading.main_thread())

sys.addaudithook(hook)
with socket.socket() as server:  # accepts connections and never answers
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    settings = load_settings(
        data_dir=sys.argv[1], ANTHROPIC_API_KEY="sk-ant-thread",
        ANTHROPIC_BASE_URL=f"http://127.0.0.1:{port}", ANTHROPIC_TIMEOUT=1,
    )
    asyncio.run(live_check(settings, "sk-ant-thread", retries=0))
print("main" if any(threads) else "thread" if threads else "none")
"""


@pytest.mark.slow
def test_the_sdk_is_imported_off_the_callers_thread(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "data")],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-1] == "thread", done.stdout
