"""Which budget reservations are stale: their process is gone, or stopped refreshing."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from docbatch_gui.domain.models import Reservation
from docbatch_gui.engine.reservations import HOST, LEASE, stale


@pytest.mark.slow  # starts a Python process
def test_a_reservation_of_a_dead_process_on_this_host_is_stale() -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    now = datetime.now(UTC)
    assert stale(Reservation("a", 0.1, f"{HOST}:{dead.pid}", at=now.isoformat()), now)
    assert not stale(Reservation("b", 0.1, f"{HOST}:{os.getpid()}", at=now.isoformat()), now)


def test_another_hosts_reservation_is_stale_once_its_lease_ran_out() -> None:
    now = datetime.now(UTC)
    fresh = (now - LEASE + timedelta(minutes=1)).isoformat()
    old = (now - LEASE - timedelta(minutes=1)).isoformat()
    assert not stale(Reservation("a", 0.1, "elsewhere:42", at=fresh), now)
    assert stale(Reservation("b", 0.1, "elsewhere:42", at=old), now)


def test_a_batchs_reservation_outlives_every_process() -> None:
    now = datetime.now(UTC)
    assert not stale(Reservation("batch:3", 0.1, "batch:3", at="2000-01-01T00:00:00+00:00"), now)
