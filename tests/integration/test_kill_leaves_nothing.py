"""All child processes die with their parent (issue 18): a ``kill -9`` of
``docbatch process --wait`` in the middle of a page that never finishes (a test hook: the
child sleeps, reading and writing nothing), and of an OCR run, leaves no process behind.

SIGKILL runs no ``atexit`` and no ``finally``: only the children's own
``PR_SET_PDEATHSIG`` (``pipeline.child_bounds``) can end them, and Tesseract's, which
the child starts, asks for the same.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest

from docbatch_gui.pipeline.child_bounds import linux
from tests import builders
from tests.helpers import REPO, wait_for

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not linux(), reason="PR_SET_PDEATHSIG is Linux's"),
]


def _alive(process: psutil.Process) -> bool:
    try:
        return process.status() not in (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD)
    except psutil.NoSuchProcess:
        return False


def _running(command: str) -> bool:
    """A process of this command line runs (the fake Tesseract's ``sleep``)."""
    for process in psutil.process_iter(["cmdline"]):
        if " ".join(process.info["cmdline"] or ()) == command and _alive(process):
            return True
    return False


def _kill_mid_work(
    tmp_path: Path, file: Path, env: dict[str, str], working: Callable[[], bool]
) -> list[str]:
    """Start ``process FILE --wait``, wait until ``working()``, kill -9 the command;
    the command lines of its descendants still alive a while later."""
    command = [sys.executable, "-m", "docbatch_gui.cli", "--data-dir", str(tmp_path / "data")]
    cli = subprocess.Popen(
        [*command, "process", str(file), "--mode", "offline", "--wait"],
        cwd=REPO,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    tree: list[psutil.Process] = []
    try:
        wait_for(working, 120, "the command to be mid-work", interval=0.1)
        tree = psutil.Process(cli.pid).children(recursive=True)
        cli.send_signal(signal.SIGKILL)
        cli.wait()
        with contextlib.suppress(AssertionError):  # said below, naming the survivors
            wait_for(lambda: not any(map(_alive, tree)), 10, "the tree to die", interval=0.1)
        return [" ".join(p.cmdline()) for p in tree if _alive(p)]
    finally:
        if cli.poll() is None:
            cli.kill()
        for process in tree:  # what the test started, even when it failed
            with contextlib.suppress(psutil.Error):
                process.kill()


def test_kill_9_during_a_render_leaves_no_process(tmp_path: Path) -> None:
    # a page that never finishes: the child sleeps, reading nothing, writing nothing
    stuck = tmp_path / "stuck"
    pdf = builders.text_pdf(tmp_path / "file.pdf")
    env = {"DOCBATCH_CHILD_STUCK": str(stuck), "RENDER_WORKERS": "2", "OCR_ENGINE": "none",
           "PAGE_TIMEOUT": "600", "JOB_TIMEOUT": "900"}  # fmt: skip
    assert _kill_mid_work(tmp_path, pdf, env, stuck.exists) == []


FAKE_TESSERACT = """#!/bin/sh
case "$1" in
  --version) echo "tesseract 5.3.0"; exit 0;;
  --list-langs) printf 'List of available languages (3):\\neng\\nosd\\nrus\\n'; exit 0;;
esac
exec sleep 600
"""


def test_kill_9_during_ocr_leaves_no_tesseract(tmp_path: Path) -> None:
    # a Tesseract that takes ten minutes over a page (the child's own child)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "tesseract"
    fake.write_text(FAKE_TESSERACT)
    fake.chmod(0o755)
    scan = builders.multipage_tiff(tmp_path / "scan.tiff", pages=2)
    env = {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "OCR_ENGINE": "tesseract",
        "OCR_TIMEOUT": "600",
        "JOB_TIMEOUT": "900",
    }
    assert _kill_mid_work(tmp_path, scan, env, lambda: _running("sleep 600")) == []
