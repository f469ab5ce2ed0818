"""The child's side: what a child process of DocBatch does first, and its small
per-platform details.

A render, OCR or extraction child (``pipeline.child``) and the registry's calamine
child read input a stranger may have shaped: a 33 KB PDF can ask a decoder for
gigabytes. ``cap_memory`` makes such an allocation fail in the child instead of the
machine running out (Linux: ``RLIMIT_AS``; Windows: a Job Object's process memory
limit); ``die_with_parent`` keeps a ``kill -9`` of the window or of ``docbatch
process --wait`` from leaving children behind (Linux: ``PR_SET_PDEATHSIG``; Windows:
the parent's job, or a thread watching the parent).

This module imports nothing heavy: the calamine child must start in a fraction of a
second.
"""

from __future__ import annotations

import sys

if sys.platform == "win32":
    from docbatch_gui.system import _windows as _impl
else:
    from docbatch_gui.system import _posix as _impl

__all__ = [
    "can_cap_memory",
    "cap_memory",
    "die_with_parent",
    "lowest_thread_priority",
    "peak_rss_mb",
    "subprocess_options",
    "widen_pipe",
]


#: make this process end when its parent dies, however the parent dies
die_with_parent = _impl.die_with_parent
#: whether ``cap_memory`` can set a cap on this system
can_cap_memory = _impl.can_cap_memory
#: cap this process's memory at what it has now plus ``extra`` bytes; the limit set,
#: or None where it cannot be (no such cap here, or ``extra`` is 0). Called after the
#: process's own imports, so the budget is what the work may add.
cap_memory = _impl.cap_memory
#: keyword arguments for a process this child starts (Tesseract), so that it dies
#: with this child
subprocess_options = _impl.subprocess_options
#: ask for a pipe buffer of ``size`` bytes where the system lets a process resize one
#: (Linux); elsewhere a no-op
widen_pipe = _impl.widen_pipe
#: this process's peak memory so far in MB, reported so that bounded memory is
#: measurable
peak_rss_mb = _impl.peak_rss_mb
#: run the calling thread at the lowest priority, where threads have their own
lowest_thread_priority = _impl.lowest_thread_priority
