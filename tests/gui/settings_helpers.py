"""Building a Settings tab over a real (never started) facade."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from docbatch_gui._qt.bridge import EngineBridge
from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.notify import Notifier
from docbatch_gui._qt.settings.tab import SettingsTab
from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.app.host import EngineHost
from docbatch_gui.settings.loading import load_settings


def make_tab(qsettings: QSettings) -> SettingsTab:
    host = EngineHost(DocBatchApp(load_settings()))
    ctx = GuiContext(
        host=host, bridge=EngineBridge(host), notifier=Notifier(), qsettings=qsettings, operator="t"
    )
    return SettingsTab(ctx)
