"""What every tab gets: the engine host, the bridge, notifications and QSettings."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QSettings

from docbatch_gui._qt.bridge import EngineBridge
from docbatch_gui._qt.language import interface_language
from docbatch_gui._qt.notify import Notifier
from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.app.host import EngineHost
from docbatch_gui.domain.models import Document


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
        return self.app.profile.doc_type_label(key, interface_language())

    def field_label(self, key: str) -> str:
        """A field's label in the interface language (its key when the profile has none)."""
        return self.app.profile.field_label(key, interface_language())

    def reasons(self, doc: Document) -> list[str]:
        """Why the document needs review, in the interface language with field labels."""
        labels = {f.key: self.field_label(f.key) for f in self.app.profile.fields}
        return [code.words(interface_language(), labels) for code in doc.review_codes]
