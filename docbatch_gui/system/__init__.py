"""Everything that differs between Linux, Windows and macOS, in one package.

The rest of DocBatch calls these functions and never the operating system's own
process, memory, lock or permission calls (``tests/unit/test_system_calls.py`` scans
the package for them):

- ``processes``: a child in a group of its own, killing it and everything it started,
  confirming that nothing is left (the parent's side);
- ``bounds``: what a child does first: die with its parent, cap its memory; and the
  small per-platform details of a child (pipe size, peak memory, thread priority);
- ``privacy``: the data folder for its owner only (``0700``/``0600`` on POSIX, an
  owner-only ACL on Windows), and what drifted from that;
- ``locks``: the kernel file lock a worker holds for its data folder;
- ``desktop``: showing a file in the desktop's file manager;
- ``signals``: a running event loop asked to stop by Ctrl+C or the system.

Each public module picks its implementation once, at import: ``_posix`` (Linux,
macOS) or ``_windows`` (Job Objects and ACLs through pywin32). Both have the same
functions with the same signatures; ``mypy --platform win32`` type-checks the Windows
one (the lint step, ``scripts/lint.sh``), and the same tests run on either.
"""

from __future__ import annotations

import sys

WINDOWS = sys.platform == "win32"


def implementation(platform: str = sys.platform) -> str:
    """The module that implements this package on ``platform`` (a ``sys.platform``)."""
    return "docbatch_gui.system._windows" if platform == "win32" else "docbatch_gui.system._posix"
