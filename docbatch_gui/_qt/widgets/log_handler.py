"""From ``logging`` to the Log panel: each record reduced to its English text where it
is emitted and handed to the panel from any thread, as a technical line (shown with
the panel's *Technical* filter; the job events beside them come from ``log_events``).

A library's INFO lines (every HTTP request) stay in ``logs/docbatch.log``: the panel
shows what DocBatch says, and a library's warnings and errors.
"""

from __future__ import annotations

import logging

from docbatch_gui._qt.widgets.log_panel import LogLine, LogPanel
from docbatch_gui.settings.secrets import ScrubbingFilter


def ours(record: logging.LogRecord) -> bool:
    return record.name == "docbatch_gui" or record.name.startswith("docbatch_gui.")


class PanelHandler(logging.Handler):
    """Formats where the record is emitted and hands the text to the panel."""

    def __init__(self, panel: LogPanel, level: int = logging.INFO) -> None:
        super().__init__(level)
        self.addFilter(ScrubbingFilter())  # secrets never reach the panel or a copy of it
        self.panel: LogPanel | None = panel
        self._root_level: int | None = None

    def emit(self, record: logging.LogRecord) -> None:
        panel = self.panel
        if panel is None:
            return
        if record.levelno < logging.WARNING and not ours(record):
            return  # a library's chatter (each HTTP request): the log file has it
        try:
            message = record.getMessage()
            if record.exc_info:  # the scrubbed text the filter left, when it ran
                text = record.exc_text or logging.Formatter().formatException(record.exc_info)
                message += "\n" + text
            panel.post(
                LogLine(record.created, record.levelno, record.levelname, record.name, message)
            )
        except RuntimeError:  # the panel's C++ side is gone (window closed)
            self.remove()
        except Exception:
            self.handleError(record)

    def remove(self) -> None:
        """Detach from the root logger and restore its level; safe to call twice."""
        root = logging.getLogger()
        root.removeHandler(self)
        if self._root_level is not None:
            root.setLevel(self._root_level)
            self._root_level = None
        self.panel = None


def install_log_handler(panel: LogPanel, level: int = logging.INFO) -> PanelHandler:
    """Show every record of ``level`` and above in ``panel``. The root logger is
    lowered to ``level`` if needed (restored by ``remove()``); the handler goes
    away by itself when the panel is destroyed."""
    handler = PanelHandler(panel, level)
    root = logging.getLogger()
    if root.level > level:
        handler._root_level = root.level
        root.setLevel(level)
    root.addHandler(handler)
    panel.destroyed.connect(lambda *_: handler.remove())
    return handler
