"""Placeholder: filled in by its own change."""

from __future__ import annotations

from PySide6.QtWidgets import QPlainTextEdit, QWidget


class LogPanel(QPlainTextEdit):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)


def install_log_handler(panel: LogPanel) -> None:
    """Placeholder until the log panel lands."""
