"""A running event loop asked to stop by Ctrl+C or by the system (a service stop, a
``kill``), on every platform.

POSIX uses the loop's own signal handlers. On Windows the Proactor loop has none
(``add_signal_handler`` raises ``NotImplementedError``), so Python's handlers for
SIGINT, SIGBREAK and SIGTERM hand the call to the loop (``call_soon_threadsafe``).
"""

from __future__ import annotations

import sys

if sys.platform == "win32":
    from docbatch_gui.system import _windows as _impl
else:
    from docbatch_gui.system import _posix as _impl

__all__ = ["stop_on_signals"]

#: ``with stop_on_signals(loop, stop):`` calls ``stop`` on ``loop`` at Ctrl+C or when
#: the system asks the process to end, and restores the previous handlers after
stop_on_signals = _impl.stop_on_signals
