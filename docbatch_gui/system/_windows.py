"""The Windows side of ``docbatch_gui.system``: Job Objects and ACLs through pywin32.

A child is started with ``CREATE_NEW_PROCESS_GROUP`` and put at once in a Job Object
of its own (``adopt``), with ``JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE``. Everything it
starts joins the job, so ``TerminateJobObject`` ends the whole tree, and when this
process dies, however it dies, Windows closes the job's handle and kills the tree:
Windows' own "die with the parent". A child caps its own memory in a job it makes
for itself (``JOB_OBJECT_LIMIT_PROCESS_MEMORY``; jobs nest since Windows 8): an
allocation past the cap fails in the child, as under ``RLIMIT_AS`` on Linux.

The data folder is made private with a protected DACL that grants the current user
alone full control (inherited by what is created inside it).

Type-checked by ``mypy --platform win32``; run by the same tests on a Windows runner.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn, cast

assert sys.platform == "win32"  # mypy on other platforms skips this module

import ntsecuritycon
import psutil
import pywintypes
import win32api
import win32con
import win32job
import win32process
import win32security

#: the job of each child this process started, by pid; closing it kills the tree
_JOBS: dict[int, Any] = {}
_JOBS_LOCK = threading.Lock()
#: the job this process capped its own memory in: the limit lasts while it is open
_OWN_JOB: list[Any] = []
#: the account SIDs an owner-only folder may list beside its owner
_SYSTEM_SIDS = frozenset({"S-1-5-18"})  # LocalSystem: backups and the indexer run as it


# -- the parent's side -------------------------------------------------------------


def group_options() -> dict[str, Any]:
    """A process group of its own: Ctrl+C in the window's console does not reach it."""
    return {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}


def _new_job(flags: int, memory: int = 0) -> Any:
    job = cast(Any, win32job.CreateJobObject)(None, "")
    info = win32job.QueryInformationJobObject(job, win32job.JobObjectExtendedLimitInformation)
    info["BasicLimitInformation"]["LimitFlags"] |= flags
    if memory:
        info["ProcessMemoryLimit"] = memory
    win32job.SetInformationJobObject(job, win32job.JobObjectExtendedLimitInformation, info)
    return job


def _assign(job: Any, pid: int | None) -> None:
    """Put process ``pid`` (None: this process) in ``job``."""
    if pid is None:
        win32job.AssignProcessToJobObject(job, win32api.GetCurrentProcess())
        return
    access = win32con.PROCESS_SET_QUOTA | win32con.PROCESS_TERMINATE
    handle = win32api.OpenProcess(access, False, pid)
    try:
        win32job.AssignProcessToJobObject(job, handle)
    finally:
        win32api.CloseHandle(handle)


def adopt(pid: int) -> None:
    """Put the new child ``pid`` in a job of its own that dies with this process. A
    child that cannot be put in a job (already gone) is killed by its pid alone."""
    try:
        job = _new_job(win32job.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE)
        _assign(job, pid)
    except pywintypes.error:
        return
    with _JOBS_LOCK:
        _JOBS[pid] = job


def forget(pid: int) -> None:
    """Close the job of a child whose tree is gone."""
    with _JOBS_LOCK:
        job = _JOBS.pop(pid, None)
    if job is not None:
        with contextlib.suppress(pywintypes.error):
            win32api.CloseHandle(int(job))


def kill_tree(pid: int) -> None:
    """Terminate the child's job (the child and everything it started); without a job,
    the child and its descendants one by one."""
    with _JOBS_LOCK:
        job = _JOBS.get(pid)
    if job is not None:
        with contextlib.suppress(pywintypes.error):
            win32job.TerminateJobObject(job, 1)
            return
    try:
        root = psutil.Process(pid)
        tree = [*root.children(recursive=True), root]
    except psutil.Error:
        return
    for process in tree:
        with contextlib.suppress(psutil.Error):
            process.kill()


def tree_members(pid: int) -> list[int]:
    """The live processes of the child's job; without one, the child and its
    descendants."""
    with _JOBS_LOCK:
        job = _JOBS.get(pid)
    if job is not None:
        with contextlib.suppress(pywintypes.error):
            listed = win32job.QueryInformationJobObject(job, win32job.JobObjectBasicProcessIdList)
            return [int(p) for p in listed]
    try:
        root = psutil.Process(pid)
        if root.status() == psutil.STATUS_DEAD:
            return []
        return [root.pid, *(p.pid for p in root.children(recursive=True))]
    except psutil.Error:
        return []


def killed_by_system(returncode: int | None) -> bool:
    """Windows has no out-of-memory killer: a child over its job's memory limit fails
    its allocation instead."""
    return False


def kill_self() -> NoReturn:
    """End this process at once (``TerminateProcess``): no cleanup runs."""
    os.kill(os.getpid(), signal.SIGTERM)
    os._exit(1)


# -- the child's side --------------------------------------------------------------


def die_with_parent() -> None:
    """The parent's job kills this child when the parent dies (``adopt``); a child
    started by anyone else (the calamine child) watches its parent in a thread."""
    try:
        parent = psutil.Process(os.getppid())
    except psutil.Error:
        os._exit(1)

    def watch() -> None:
        with contextlib.suppress(psutil.Error):
            parent.wait()
        os._exit(1)

    threading.Thread(target=watch, name="die-with-parent", daemon=True).start()


def can_cap_memory() -> bool:
    return True


def cap_memory(extra: int) -> int | None:
    """Cap this process's committed memory at what it has now plus ``extra`` bytes, in
    a job of its own; the limit set, or None where it cannot be."""
    if extra <= 0:
        return None
    limit = int(psutil.Process().memory_info().private) + extra
    try:
        job = _new_job(win32job.JOB_OBJECT_LIMIT_PROCESS_MEMORY, limit)
        _assign(job, None)
    except pywintypes.error:  # a job that forbids nesting (Windows 7)
        return None
    _OWN_JOB.append(job)
    return limit


def subprocess_options() -> dict[str, Any]:
    """Nothing: what a child starts joins its job and dies with it."""
    return {}


def widen_pipe(fd: int, size: int) -> None:
    """Windows sizes an anonymous pipe at its creation; nothing to change."""


def peak_rss_mb() -> float:
    """This process's peak working set in MB."""
    return round(psutil.Process().memory_info().peak_wset / 2**20, 1)


def lowest_thread_priority() -> None:
    with contextlib.suppress(pywintypes.error):
        idle = win32process.THREAD_PRIORITY_IDLE
        win32process.SetThreadPriority(win32api.GetCurrentThread(), idle)


# -- privacy -----------------------------------------------------------------------


def _current_user() -> Any:
    token = win32security.OpenProcessToken(win32api.GetCurrentProcess(), win32security.TOKEN_QUERY)
    try:
        return win32security.GetTokenInformation(token, win32security.TokenUser)[0]
    finally:
        win32api.CloseHandle(token)


def make_shared(path: Path) -> None:
    """Nothing to do: a file made by ``mkstemp`` inherits its folder's ACL, as an
    ordinary new file does."""


def make_private(path: Path) -> None:
    """A protected DACL granting the current user alone full control; inherited by
    the files and folders created inside a folder."""
    inherit = ntsecuritycon.OBJECT_INHERIT_ACE | ntsecuritycon.CONTAINER_INHERIT_ACE
    dacl = win32security.ACL()
    dacl.AddAccessAllowedAceEx(
        win32security.ACL_REVISION,
        inherit if path.is_dir() else 0,
        ntsecuritycon.FILE_ALL_ACCESS,
        _current_user(),
    )
    info = (
        win32security.DACL_SECURITY_INFORMATION | win32security.PROTECTED_DACL_SECURITY_INFORMATION
    )
    try:
        win32security.SetNamedSecurityInfo(
            str(path), win32security.SE_FILE_OBJECT, info, None, None, dacl, None
        )
    except pywintypes.error as exc:
        raise PermissionError(f"cannot set the permissions of {path}: {exc.strerror}") from None


def exposure(path: Path) -> str | None:
    """The other accounts the DACL lets in, by name; None when only the owner (and the
    system itself) can."""
    try:
        descriptor = win32security.GetNamedSecurityInfo(
            str(path), win32security.SE_FILE_OBJECT, win32security.DACL_SECURITY_INFORMATION
        )
    except pywintypes.error as exc:
        raise OSError(f"cannot read the permissions of {path}: {exc.strerror}") from None
    dacl = descriptor.GetSecurityDescriptorDacl()
    if dacl is None:  # a null DACL: everyone has full control
        return "Everyone"
    owner = win32security.ConvertSidToStringSid(_current_user())
    others = []
    for index in range(dacl.GetAceCount()):
        (kind, _flags), _mask, sid = dacl.GetAce(index)
        text = win32security.ConvertSidToStringSid(sid)
        if kind != ntsecuritycon.ACCESS_ALLOWED_ACE_TYPE or text == owner or text in _SYSTEM_SIDS:
            continue
        try:
            name, domain, _ = win32security.LookupAccountSid(None, sid)
            others.append(f"{domain}\\{name}" if domain else name)
        except pywintypes.error:
            others.append(text)
    return ", ".join(sorted(set(others))) or None


def privacy_fix(folder: Path) -> str:
    """The command that makes ``folder`` private again (``icacls``)."""
    return f'icacls "{folder}" /inheritance:r /grant:r "%USERNAME%:(OI)(CI)F" /T'


@contextlib.contextmanager
def stop_on_signals(loop: Any, stop: Callable[[], object]) -> Iterator[None]:
    """Ctrl+C, Ctrl+Break and SIGTERM call ``stop`` on ``loop``. The Proactor loop has
    no ``add_signal_handler``: Python's own handlers, which run on the main thread
    between two bytecodes, hand the call to the loop."""

    def handler(signum: int, frame: object) -> None:
        loop.call_soon_threadsafe(stop)

    signals = (signal.SIGINT, signal.SIGBREAK, signal.SIGTERM)
    previous = {sig: signal.signal(sig, handler) for sig in signals}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
