"""Non-blocking notifications: a toast in the window's corner and the status bar.

A tray balloon is not used: many desktops (and offscreen tests) have no tray, and a
message box would block the operator; the toast fades by itself.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QMainWindow, QPushButton, QWidget

from docbatch_gui._qt.widgets.layout import filled
from docbatch_gui.settings.secrets import scrub_secrets

TOAST_MS = 6000


#: a button in a notice: its words, and what it does (*Undo*)
ToastAction = tuple[str, Callable[[], object]]


class Toast(QFrame):
    def __init__(
        self, parent: QWidget, text: str, level: str, action: ToastAction | None = None
    ) -> None:
        super().__init__(parent)
        colors = {"info": "#1f2937", "success": "#14532d", "warning": "#78350f", "error": "#7f1d1d"}
        self.setStyleSheet(
            f"QFrame {{ background: {colors.get(level, '#1f2937')}; border-radius: 8px; }}"
            " QLabel { color: white; padding: 10px 14px; }"
        )
        label = QLabel(text, self)
        label.setTextFormat(Qt.TextFormat.PlainText)  # messages quote file names
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = filled(QHBoxLayout(self), (label, 1), margins=0)
        self.button: QPushButton | None = None
        if action is not None:
            words, handler = action
            self.button = QPushButton(words, self)
            self.button.setStyleSheet("color: white; font-weight: bold; margin-right: 10px;")
            self.button.setFlat(True)
            self.button.clicked.connect(handler)
            layout.addWidget(self.button)
        self.setMaximumWidth(460)
        self.adjustSize()


class Notifier(QObject):
    #: (text, level) for whoever wants to listen (tests, the log panel)
    shown = Signal(str, str)

    def __init__(self, window: QMainWindow | None = None) -> None:
        super().__init__(window)
        self.window = window
        self._toasts: list[Toast] = []

    def notify(
        self,
        text: str,
        level: str = "info",
        *,
        action: ToastAction | None = None,
        duration_ms: int | None = None,
    ) -> None:
        """``action``: a button in the notice (it closes the notice when clicked);
        ``duration_ms``: how long the notice stays (what the button is offered for)."""
        text = scrub_secrets(text)  # an error may quote what a client library said
        self.shown.emit(text, level)
        window = self.window
        if window is None:
            return
        window.statusBar().showMessage(text, TOAST_MS)
        if action is not None:  # the button also closes its notice
            words, handler = action

            def clicked() -> None:
                handler()
                self._drop(toast)

            action = (words, clicked)
        toast = Toast(window, text, level, action)
        self._toasts.append(toast)
        self._place()
        toast.show()
        toast.raise_()
        # The toast is the timer's context: if the window (and the toast) is gone
        # first, the timer dies with it instead of touching a deleted object.
        life = TOAST_MS if level != "error" else 2 * TOAST_MS
        life = duration_ms if duration_ms is not None else life
        QTimer.singleShot(life, toast, lambda: self._drop(toast))

    def _drop(self, toast: Toast) -> None:
        if toast in self._toasts:
            self._toasts.remove(toast)
            toast.deleteLater()
            self._place()

    def _place(self) -> None:
        window = self.window
        if window is None:
            return
        y = window.height() - 40
        for toast in reversed(self._toasts):
            toast.adjustSize()
            y -= toast.height() + 8
            toast.move(window.width() - toast.width() - 16, y)
