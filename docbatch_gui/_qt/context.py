"""What every tab gets: the engine host, the bridge, notifications and QSettings."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QLocale, QSettings

from docbatch_gui._qt.bridge import EngineBridge
from docbatch_gui._qt.notify import Notifier
from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.app.host import EngineHost


@dataclass
class GuiContext:
    host: EngineHost
    bridge: EngineBridge
    notifier: Notifier
    qsettings: QSettings
    #: who the audit trail names for edits made in this window
    operator: str

    @property
    def app(self) -> DocBatchApp:
        """The facade of the moment: new settings make the host open a new one, so it
        is read here each time and never kept."""
        return self.host.app

    def doc_type_label(self, key: str) -> str:
        """A document type as the operator reads it, in the interface language."""
        doc_type = self.app.profile.doc_type(key)
        if doc_type is None:
            return key
        language = QLocale().name().split("_")[0]
        return doc_type.labels.get(language) or doc_type.labels.get("en") or key
