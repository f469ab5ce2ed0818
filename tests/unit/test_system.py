"""``docbatch_gui.system`` on this platform: privacy, locks, the desktop command, the
child's bounds. The same tests run on a Windows runner, against ``_windows``; the
few that read POSIX modes say so."""

from __future__ import annotations

import asyncio
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from docbatch_gui import system
from docbatch_gui.system import WINDOWS, bounds, desktop, locks, privacy, processes, signals
from tests.helpers import wait_for

posix_only = pytest.mark.skipif(WINDOWS, reason="POSIX modes")


def test_a_folder_and_a_file_made_private_show_no_exposure(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    file = folder / "docbatch.db"
    file.write_text("x", encoding="utf-8")
    for path in (folder, file):
        privacy.make_private(path)
        assert privacy.exposure(path) is None


@posix_only
def test_posix_privacy_is_0700_for_folders_and_0600_for_files(tmp_path: Path) -> None:
    file = tmp_path / "f"
    file.write_text("x", encoding="utf-8")
    tmp_path.chmod(0o755)
    file.chmod(0o644)
    assert privacy.exposure(tmp_path) == "755" and privacy.exposure(file) == "644"
    privacy.make_private(tmp_path)
    privacy.make_private(file)
    assert stat.S_IMODE(tmp_path.stat().st_mode) == 0o700
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    assert privacy.privacy_fix(tmp_path) == f"chmod -R go-rwx {tmp_path}"


def test_a_missing_path_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        privacy.exposure(tmp_path / "gone")


@pytest.mark.slow
def test_the_process_lock_refuses_a_second_holder_in_another_process(tmp_path: Path) -> None:
    path = tmp_path / "worker.lock"
    held = locks.process_lock(path)
    held.acquire(timeout=0)
    try:
        code = (
            "import sys; from filelock import Timeout\n"
            "from docbatch_gui.system.locks import process_lock\n"
            "try:\n    process_lock(sys.argv[1]).acquire(timeout=0)\n"
            "except Timeout:\n    sys.exit(3)\n"
        )
        refused = subprocess.run([sys.executable, "-c", code, str(path)], timeout=60)
        assert refused.returncode == 3
    finally:
        held.release()
    free = subprocess.run([sys.executable, "-c", code, str(path)], timeout=60)
    assert free.returncode == 0


@pytest.mark.parametrize(
    ("platform", "command"),
    [
        ("win32", ["explorer", "/select,", "{path}"]),
        ("darwin", ["open", "-R", "{path}"]),
        ("linux", None),
    ],
)
def test_the_file_manager_command_of_each_desktop(
    tmp_path: Path, platform: str, command: list[str] | None
) -> None:
    path = tmp_path / "scan.pdf"
    expected = [part.format(path=path) for part in command] if command else None
    assert desktop.reveal_command(path, platform) == expected


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux opens the folder")
def test_on_linux_reveal_leaves_the_folder_to_the_caller(tmp_path: Path) -> None:
    assert desktop.reveal(tmp_path / "scan.pdf") is False


@pytest.mark.slow  # starts a Python process
def test_a_child_started_in_its_own_group_is_killed_with_its_tree() -> None:
    code = (
        "import subprocess, sys, time\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
        "time.sleep(600)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], **processes.group_options())
    processes.adopt(child.pid)
    try:
        assert processes.tree_alive(child.pid)
        processes.kill_tree(child.pid)
        child.wait(timeout=30)
        wait_for(lambda: not processes.tree_alive(child.pid), timeout=30)
    finally:
        processes.forget(child.pid)
    assert not processes.killed_by_system(0)


def test_the_childs_small_details_answer_here() -> None:
    assert bounds.peak_rss_mb() > 1
    bounds.widen_pipe(sys.stdout.fileno() if sys.stdout else 1, 1 << 20)  # never raises
    assert bounds.can_cap_memory() == (sys.platform.startswith("linux") or WINDOWS)
    assert bounds.cap_memory(0) is None  # no budget, no cap


def test_a_termination_asks_the_running_loop_to_stop() -> None:
    """SIGTERM (a service stop, ``kill``) reaches the loop as a call of ``stop``; the
    handler is gone after the block (Windows: the same through Python's handlers,
    the Proactor loop having no ``add_signal_handler``)."""

    async def main() -> bool:
        stopped = asyncio.Event()
        with signals.stop_on_signals(asyncio.get_running_loop(), stopped.set):
            os.kill(os.getpid(), signal.SIGTERM)
            await asyncio.wait_for(stopped.wait(), 30)  # a failure's bound, not a wait
        return stopped.is_set()

    previous = signal.getsignal(signal.SIGTERM)
    assert asyncio.run(main())
    assert signal.getsignal(signal.SIGTERM) == previous


def test_both_platforms_offer_the_same_calls() -> None:
    """What the public modules take from ``_posix`` is in ``_windows`` too, with the
    same parameters (``_windows`` is read, not imported: pywin32 is not here)."""
    import ast
    import inspect

    from docbatch_gui.system import _posix

    tree = ast.parse(Path(system.__file__).with_name("_windows.py").read_text(encoding="utf-8"))
    windows = {
        node.name: [a.arg for a in node.args.args]
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
    }
    for name in ("stop_on_signals", "group_options", "adopt", "kill_tree", "widen_pipe"):
        assert windows[name] == list(inspect.signature(getattr(_posix, name)).parameters), name
