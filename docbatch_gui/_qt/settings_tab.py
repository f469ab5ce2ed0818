"""Placeholder: filled in by its own change."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from docbatch_gui._qt.context import GuiContext


class SettingsTab(QWidget):
    def __init__(self, ctx: GuiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Coming soon.")))
