"""What every child process of DocBatch does first: die with its parent, cap its memory.

A render, OCR or extraction child (``pipeline.child``) and the registry's calamine
child (``registry.calamine_child``) read input a stranger may have shaped: a 33 KB PDF
can ask a decoder for gigabytes. Two bounds keep one such file from taking the
machine:

- the address space (``RLIMIT_AS``) is capped at what the process has when the cap is
  set plus a budget (``CHILD_MEMORY_MB`` for the pipeline's children), so an allocation
  past it fails in the child (``MemoryError``, or a MuPDF "malloc failed") instead of
  the kernel's out-of-memory killer choosing a victim, maybe the GUI;
- the kernel kills the child when its parent dies (``PR_SET_PDEATHSIG``), so a
  ``kill -9`` of ``docbatch process --wait`` or of the window leaves nothing behind.

Linux only; elsewhere both are skipped (the parent's ``atexit`` still kills its
children on a normal exit). This module imports nothing heavy: the calamine child
must start in a fraction of a second.
"""

from __future__ import annotations

import contextlib
import sys

__all__ = ["cap_memory", "die_with_parent", "is_out_of_memory", "linux", "tesseract_dies_with_us"]

_PR_SET_PDEATHSIG = 1
#: how MuPDF (and other C libraries) word an allocation that failed
_MEMORY_WORDS = ("malloc", "calloc", "realloc", "out of memory", "cannot allocate")


def linux() -> bool:
    return sys.platform.startswith("linux")


def die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent dies."""
    if not linux():
        return
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def cap_memory(extra: int) -> int | None:
    """Limit the address space to what the process has now plus ``extra`` bytes; the
    limit set, or None where it cannot be (not Linux, or ``extra`` is 0). Set after
    the process's own imports, so the budget is what the work may add."""
    if not linux() or extra <= 0:
        return None
    import resource

    with open("/proc/self/statm") as statm:
        size = int(statm.read().split()[0]) * resource.getpagesize()
    limit = size + extra
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ValueError, OSError):  # a lower hard limit set from outside stays
        return None
    return limit


def is_out_of_memory(exc: BaseException) -> bool:
    """An allocation that failed: Python's ``MemoryError``, or a C library's error
    saying so (MuPDF raises ``FzErrorSystem: malloc (…) failed``)."""
    if isinstance(exc, MemoryError):
        return True
    text = str(exc).lower()
    return type(exc).__name__.startswith("FzError") and any(w in text for w in _MEMORY_WORDS)


def tesseract_dies_with_us() -> None:
    """Tesseract, started by pytesseract from this child, asks for the same: when this
    child is killed (by its deadline, or because its own parent died), no ``tesseract``
    process runs on for the rest of its page."""
    if not linux():
        return
    from pytesseract import pytesseract

    plain = pytesseract.subprocess_args
    if getattr(plain, "dies_with_parent", False):
        return

    def subprocess_args(include_stdout: bool = True) -> dict[str, object]:
        return {**plain(include_stdout), "preexec_fn": die_with_parent}

    subprocess_args.dies_with_parent = True  # type: ignore[attr-defined]
    pytesseract.subprocess_args = subprocess_args
