"""Optional dependency groups: a clear sentence instead of an ImportError traceback.

The core install runs the embedded default (SQLite, local blobs, Tesseract or the
offline extractor, Claude). The window, Google Vision and the team backends come
with the ``gui``, ``vision`` and ``team`` extras. Each place that needs one calls
:func:`require` just before its import, so the core never imports them and someone
who picks such a feature without its extra is told the one command that adds it.
"""

from __future__ import annotations

import importlib.util

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.domain.messages import coded

DISTRIBUTION = "docbatch-gui"


class MissingExtra(ConfigError):
    """A feature was chosen whose optional packages are not installed.

    A ``ConfigError``: the CLI prints it as one line, and a job that needs it stops
    the queue with it, as any other setting that cannot work does.
    """

    def __init__(self, feature: str, extra: str) -> None:
        super().__init__(
            coded("missing_extra", feature=feature, extra=extra, hint=install_hint(extra))
        )
        self.feature = feature
        self.extra = extra


def install_hint(extra: str) -> str:
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def available(module: str) -> bool:
    """Whether ``module`` can be imported, without importing it (some take seconds)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a missing parent package, or a broken one
        return False


def require(extra: str, module: str, feature: str) -> None:
    """Raise :class:`MissingExtra` when ``module`` (from ``extra``) is not installed."""
    if not available(module):
        raise MissingExtra(feature, extra)
