"""Shared test helpers: running the real CLI, and finding leftover processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import psutil

REPO = Path(__file__).resolve().parents[1]


def cli(
    data_dir: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    """Run ``docbatch`` as a user would: a separate process, the real entry point."""
    return subprocess.run(
        [sys.executable, "-m", "docbatch_gui.cli", "--data-dir", str(data_dir), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
        env={**os.environ, **(env or {})},
    )


def cli_json(data_dir: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    result = cli(data_dir, *args, "--json", env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def child_processes(tag: str | None = None, *, parent: int | None = None) -> list[int]:
    """Live prepare children on the machine (matched by their module name); with
    ``tag``, only those whose environment carries ``DOCBATCH_TEST_TAG=tag``, so a test
    never mistakes another run's children (a benchmark, a parallel test) for its own;
    with ``parent``, only that process's direct children."""
    found = []
    for process in psutil.process_iter(["cmdline", "status", "ppid"]):
        info = process.info
        if not any("docbatch_gui.pipeline.child" in arg for arg in info["cmdline"] or ()):
            continue
        if info["status"] in (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD):
            continue
        if parent is not None and info["ppid"] != parent:
            continue
        if tag is not None:
            try:
                environ = process.environ()
            except psutil.Error:
                continue
            if environ.get("DOCBATCH_TEST_TAG") != tag:
                continue
        found.append(process.pid)
    return found
