"""Telling a live task's owner from a dead one."""

from __future__ import annotations

import socket
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from docbatch_gui.coordination.owner import HEARTBEAT_STALE, owner_alive, this_owner


@pytest.mark.slow  # starts a Python process
def test_this_process_is_alive_and_a_finished_one_is_not() -> None:
    assert owner_alive(this_owner(), None)
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)  # fmt: skip
    dead = f"{socket.gethostname()}:{finished.stdout.strip()}:0"
    assert not owner_alive(dead, datetime.now(UTC))  # a fresh heartbeat cannot revive it


def test_a_reused_pid_with_another_start_time_is_not_the_owner() -> None:
    host, pid, started = this_owner().rsplit(":", 2)
    assert not owner_alive(f"{host}:{pid}:{int(started) - 1000}", None)


def test_another_host_goes_by_the_heartbeat() -> None:
    now = datetime.now(UTC)
    assert owner_alive("elsewhere:123:456", now)
    assert not owner_alive("elsewhere:123:456", now - HEARTBEAT_STALE - timedelta(seconds=1))
    assert not owner_alive(None, None)
