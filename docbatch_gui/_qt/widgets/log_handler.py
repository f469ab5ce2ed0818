"""From ``logging`` to the Log panel: each record reduced to text where it is emitted,
worded in the interface language when it carries a message (``domain.said.say``), and
handed to the panel from any thread.

A library's INFO lines (every HTTP request) stay in ``logs/docbatch.log``: the panel
shows what DocBatch says, and a library's warnings and errors.
"""

from __future__ import annotations

import logging

from docbatch_gui._qt.language import interface_language
from docbatch_gui._qt.widgets.log_panel import LogLine, LogPanel
from docbatch_gui.domain.said import worded_line
from docbatch_gui.domain.text import printable
from docbatch_gui.settings.secrets import ScrubbingFilter, scrub_secrets


def worded(record: logging.LogRecord, language: str) -> str | None:
    """A record that carries itself as a message (``domain.said.say``) in ``language``;
    None for the others, and in English (the line as the log file has it)."""
    message = worded_line(record)
    if message is None or language == "en":
        return None
    return printable(scrub_secrets(message.words(language)), lines=True)


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
            language = interface_language()
            translated = worded(record, language)
            message = translated or record.getMessage()
            foreign = translated is None and language != "en"
            if record.exc_info:  # the scrubbed text the filter left, when it ran
                text = record.exc_text or logging.Formatter().formatException(record.exc_info)
                message += "\n" + text
            panel.post(
                LogLine(
                    record.created,
                    record.levelno,
                    record.levelname,
                    record.name,
                    message,
                    foreign,
                )
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
