"""The main window and everything it needs, built in one place.

The application's start-up, the self-test, the GUI tests and the screenshot script
all build the window here, so they run the same window on the same engine host.
"""

from __future__ import annotations

import getpass
import os

from PySide6.QtCore import QSettings

from docbatch_gui._qt.bridge import EngineBridge
from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.notify import Notifier
from docbatch_gui._qt.widgets.log_handler import install_log_handler
from docbatch_gui._qt.widgets.wheel_guard import install_wheel_guard
from docbatch_gui._qt.window import MainWindow
from docbatch_gui.app.host import EngineHost
from docbatch_gui.settings.model import Settings


def build_window(settings: Settings, qsettings: QSettings) -> MainWindow:
    """The window over a new engine host; the engine starts with ``window.start()``."""
    install_wheel_guard()  # before any widget is polished: scrolling changes no field
    host = EngineHost.for_settings(settings)
    ctx = GuiContext(
        host=host,
        bridge=EngineBridge(host),
        notifier=Notifier(),
        qsettings=qsettings,
        operator=operator_name(),
    )
    window = MainWindow(ctx)
    window.log_handler = install_log_handler(window.log_panel)
    return window


def operator_name() -> str:
    """Who the audit trail names for edits made in this window."""
    try:
        return os.environ.get("DOCBATCH_OPERATOR") or getpass.getuser()
    except Exception:  # no login name (some containers)
        return "operator"
