"""Running as a PyInstaller bundle: how child processes are started there.

From source, an isolated child is ``python -m docbatch_gui.pipeline.child``. In a
frozen bundle ``sys.executable`` is the ``DocBatch`` program itself, which has no
``-m``; so children are started as ``DocBatch --child MODULE`` and the entry point
hands them to :func:`dispatch_child` before anything else (no Qt, no window).
"""

from __future__ import annotations

import runpy
import sys
from collections.abc import Sequence
from pathlib import Path

CHILD_FLAG = "--child"
#: only our own modules may be run through the hidden flag
CHILD_PREFIX = "docbatch_gui."


def is_frozen() -> bool:
    return bool(getattr(sys, "frozen", False))


def bundle_dir() -> Path | None:
    """The bundle's data folder (``_internal`` next to the program), when frozen."""
    base = getattr(sys, "_MEIPASS", None)
    return Path(base) if is_frozen() and base else None


def child_command(module: str) -> list[str]:
    """The command line that runs ``module`` as ``__main__`` in a new process."""
    if is_frozen():
        return [sys.executable, CHILD_FLAG, module]
    return [sys.executable, "-m", module]


def dispatch_child(argv: Sequence[str]) -> int | None:
    """Run ``--child MODULE`` as ``python -m MODULE`` would; None when not a child.

    The module's own ``sys.exit`` ends the process, as from source.
    """
    if len(argv) < 2 or argv[0] != CHILD_FLAG:
        return None
    module = argv[1]
    if not module.startswith(CHILD_PREFIX):
        print(f"{CHILD_FLAG}: not a DocBatch module: {module}", file=sys.stderr)
        return 2
    sys.argv = [sys.argv[0], *argv[2:]]
    runpy.run_module(module, run_name="__main__", alter_sys=True)
    return 0
