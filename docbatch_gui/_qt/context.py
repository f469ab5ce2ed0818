"""What every tab gets: the facade, the engine bridge, notifications and QSettings."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QSettings

from docbatch_gui._qt.bridge import EngineBridge
from docbatch_gui._qt.notify import Notifier
from docbatch_gui.app import DocBatchApp


@dataclass
class GuiContext:
    app: DocBatchApp
    bridge: EngineBridge
    notifier: Notifier
    qsettings: QSettings
    #: who the audit trail names for edits made in this window
    operator: str
