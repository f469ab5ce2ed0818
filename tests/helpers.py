"""Shared test helpers: running the real CLI, waiting for a condition, and finding
leftover processes."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import psutil

T = TypeVar("T")

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


#: the least time a wait lasts before it fails: a guard against a hang, never a budget
#: a loaded machine could break (at a load average of 22 on two cores, starting the CLI
#: and its render child took over a minute; pytest-timeout stops a test at 900 s)
LEAST_WAIT_S = 180.0


def wait_for(
    condition: Callable[[], T],
    timeout: float = LEAST_WAIT_S,
    what: str | Callable[[], str] = "",
    interval: float = 0.05,
) -> T:
    """Poll ``condition`` until it returns something true and return that; fail the
    test with ``what`` (a text, or a function giving one then) when it has not after
    ``timeout`` seconds, and never sooner than ``LEAST_WAIT_S``: the timeout only ends a
    wait for what will never happen. Waiting on the thing itself, never a fixed sleep:
    fast when it happens at once, patient on a loaded machine. (GUI tests await
    ``tests.gui.conftest.until`` instead: it lets the event loop run meanwhile.)"""
    timeout = max(timeout, LEAST_WAIT_S)
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result or time.monotonic() > deadline:
            break
        time.sleep(interval)
        # a long wait looks less often (up to twice a second): a costly condition
        # polled 20 times a second loads the machine it waits on
        interval = min(interval * 1.25, max(interval, 0.5))
    if not result:
        told = what() if callable(what) else what
        raise AssertionError(f"timed out after {timeout} s waiting for {told or condition}")
    return result


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


def closed_port() -> int:
    """A port nobody listens on: bound, then released."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
