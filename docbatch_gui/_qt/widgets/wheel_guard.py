"""The mouse wheel scrolls the page; it never changes a field the operator did not pick.

Qt hands a wheel event to the widget under the pointer, and a combo box, spin box or
slider takes it as "change my value". Scrolling the Settings page would then change
whatever field passed under the pointer, silently. The guard, installed on the
application, lets such a widget take the wheel only while it has focus; otherwise the
event is ignored, and Qt passes an ignored wheel event to the parent, so the page
scrolls. The widgets also stop taking focus from the wheel (``StrongFocus``): a click
or Tab gives them focus, a scroll does not.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractSlider, QAbstractSpinBox, QComboBox

#: widgets whose value the wheel changes
GUARDED = (QComboBox, QAbstractSpinBox, QAbstractSlider)
#: sliders inside scroll bars are the scrolling itself and keep the wheel
SCROLL_BAR = "QScrollBar"


class WheelGuard(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Every event of the application passes here: the cheap class test goes first,
        # the event's type (an enum PySide converts on each call) only for the few
        # widgets the guard is about.
        if not isinstance(watched, GUARDED) or watched.inherits(SCROLL_BAR):
            return False
        kind = event.type()
        if kind == QEvent.Type.Polish:
            if watched.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                watched.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        elif kind == QEvent.Type.Wheel and not watched.hasFocus():
            event.ignore()  # handled here, not accepted: Qt offers it to the parent
            return True
        return False


_installed: dict[int, WheelGuard] = {}


def install_wheel_guard(app: QCoreApplication | None = None) -> WheelGuard:
    """Guard every widget of the application (once per application)."""
    app = app or QCoreApplication.instance()
    assert app is not None, "a QApplication must exist"
    key = id(app)
    guard = _installed.get(key)
    if guard is None:
        guard = WheelGuard(app)
        app.installEventFilter(guard)
        _installed[key] = guard
    return guard
