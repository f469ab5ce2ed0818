"""The safety net of tests/conftest.py finds what a test started, even a process that
lost its parent and was re-parented, from the PIDs handed out since its last look; a
thread of ours (its id opens /proc/TID too) is never taken for a process."""

from __future__ import annotations

import subprocess
import sys
import threading

import psutil
import pytest

from tests.conftest import our_processes
from tests.helpers import wait_for

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")


def test_an_orphan_is_found_by_its_tag_and_a_thread_is_not_a_process() -> None:
    our_processes(shared=False)  # a look now: the orphan's PID comes after it
    # the shell starts the sleep in the background and exits: the sleep is re-parented
    command = "sleep 60 </dev/null >/dev/null 2>&1 & echo $!"
    shell = subprocess.run(["sh", "-c", command], capture_output=True, text=True, check=True)
    orphan = int(shell.stdout)
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    try:
        assert psutil.Process(orphan).ppid() != psutil.Process().pid  # not our child
        found = our_processes(shared=False)
        assert orphan in found
        assert thread.native_id not in found
    finally:
        release.set()
        thread.join()
        psutil.Process(orphan).kill()
    wait_for(lambda: ended(orphan), what="the orphan's end")


def ended(pid: int) -> bool:
    """Gone, or a zombie its new parent has not reaped yet (PID 1 of a container may never)."""
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True
