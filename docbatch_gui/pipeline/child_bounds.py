"""What every child process of DocBatch does first: die with its parent, cap its memory.

A render, OCR or extraction child (``pipeline.child``) and the registry's calamine
child (``registry.calamine_child``) read input a stranger may have shaped: a 33 KB PDF
can ask a decoder for gigabytes. Two bounds keep one such file from taking the
machine:

- the memory is capped at what the process has when the cap is set plus a budget
  (``CHILD_MEMORY_MB`` for the pipeline's children), so an allocation past it fails in
  the child (``MemoryError``, or a MuPDF "malloc failed") instead of the kernel's
  out-of-memory killer choosing a victim, maybe the GUI;
- the child dies when its parent dies, so a ``kill -9`` of ``docbatch process
  --wait`` or of the window leaves nothing behind.

How each is done on Linux, Windows and macOS is ``docbatch_gui.system.bounds``'s
business. This module imports nothing heavy: the calamine child must start in a
fraction of a second.
"""

from __future__ import annotations

import sys

from docbatch_gui.system.bounds import cap_memory, die_with_parent, subprocess_options

__all__ = ["cap_memory", "die_with_parent", "is_out_of_memory", "linux", "tesseract_dies_with_us"]

#: how MuPDF (and other C libraries) word an allocation that failed
_MEMORY_WORDS = ("malloc", "calloc", "realloc", "out of memory", "cannot allocate")


def linux() -> bool:
    return sys.platform.startswith("linux")


def is_out_of_memory(exc: BaseException) -> bool:
    """An allocation that failed: Python's ``MemoryError``, or a C library's error
    saying so (MuPDF raises ``FzErrorSystem: malloc (…) failed``)."""
    if isinstance(exc, MemoryError):
        return True
    text = str(exc).lower()
    return type(exc).__name__.startswith("FzError") and any(w in text for w in _MEMORY_WORDS)


def tesseract_dies_with_us() -> None:
    """Tesseract, started by pytesseract from this child, dies with it too: when this
    child is killed (by its deadline, or because its own parent died), no ``tesseract``
    process runs on for the rest of its page."""
    extra = subprocess_options()
    if not extra:  # the system does it already (Windows: the child's job)
        return
    # deferred: pytesseract, 0.25 s to import
    from pytesseract import pytesseract

    plain = pytesseract.subprocess_args
    if getattr(plain, "dies_with_parent", False):
        return

    def subprocess_args(include_stdout: bool = True) -> dict[str, object]:
        return {**plain(include_stdout), **extra}

    subprocess_args.dies_with_parent = True  # type: ignore[attr-defined]
    pytesseract.subprocess_args = subprocess_args
