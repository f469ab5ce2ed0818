"""A *Test connection* button with its answer: one sentence, and the library's own
words behind a *Details* toggle.

An operator reads "MongoDB at db:27017 did not answer within 5 s: check the address";
support wants pymongo's text. Both are kept; only the sentence is shown at first, so
the answer stays readable, and the raw text is one click away and selectable.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from PySide6.QtCore import QLocale, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.language import interface_language
from docbatch_gui._qt.tasks import spawn
from docbatch_gui.diagnostics.connections import ConnectionResult
from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.i18n import _
from docbatch_gui.settings.model import Settings

OK_STYLE = "color: #188038;"
FAIL_STYLE = "color: #c62828;"
SKIP_STYLE = "color: #5f6368;"
DETAILS_STYLE = (
    "background: #f6f8fa; color: #3c4043; border: 1px solid #dadce0; border-radius: 3px;"
    " padding: 4px 6px; font-family: monospace;"
)
Probe = Callable[[Settings], Awaitable[ConnectionResult]]


class ConnectionTest(QWidget):
    #: (ok, the sentence shown)
    finished = Signal(bool, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._kept_focus = False
        self.button = QPushButton(_("Test connection"))
        self.result = QLabel()
        self.result.setWordWrap(True)
        self.result.setTextFormat(Qt.TextFormat.PlainText)  # quotes addresses and errors
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details_button = QToolButton()
        self.details_button.setText(_("Details"))
        self.details_button.setCheckable(True)
        self.details_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.details_button.setArrowType(Qt.ArrowType.RightArrow)
        self.details_button.toggled.connect(self._toggle_details)
        self.details_button.hide()
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.PlainText)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setStyleSheet(DETAILS_STYLE)
        self.details.hide()

        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        # top-aligned: a wrapped answer grows downwards, never pushes the button down
        top = Qt.AlignmentFlag.AlignTop
        self.result.setMinimumHeight(self.button.sizeHint().height())
        self.result.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        row.addWidget(self.button, 0, top)
        # no alignment for the answer: a layout item with one is sized by its sizeHint,
        # which a wrapping label computes at a narrow width (three lines too tall)
        row.addWidget(self.result, 1)
        row.addWidget(self.details_button, 0, top)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(row)
        layout.addWidget(self.details)

    def sizeHint(self) -> QSize:
        """As tall as the answer is at this width: a form layout sizes its field by the
        hint, which a wrapping label computes at a narrow width, and so left empty
        lines under a two-line answer."""
        hint = super().sizeHint()
        if self.width() > 0 and self.hasHeightForWidth():
            hint.setHeight(self.heightForWidth(self.width()))
        return hint

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()  # the answer wraps anew: its height hint changed

    def start(self, make_settings: Callable[[], Awaitable[Settings]], probe: Probe) -> None:
        """Busy at once (the click is acknowledged), then the test runs on the loop.

        The keyboard focus stays here: a disabled button hands it to the next field
        (the data folder, its path selected, overwritten by the next keystroke), so it
        is parked on this widget meanwhile and given back to the button after."""
        self._kept_focus = self.button.hasFocus()
        if self._kept_focus:  # no tab stop otherwise: only while the button is disabled
            self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            self.setFocus(Qt.FocusReason.OtherFocusReason)
        self.button.setEnabled(False)
        self.button.setText(_("Testing…"))
        self.result.setStyleSheet("")
        self.result.setText(_("Connecting…"))
        self._show_details("")
        spawn(self._run(make_settings, probe))

    async def _run(self, make_settings: Callable[[], Awaitable[Settings]], probe: Probe) -> None:
        skipped, details = False, ""
        try:
            settings = await make_settings()
            outcome = await probe(settings)
            ok, skipped, details = outcome.ok, outcome.skipped, outcome.details
            said = outcome.message.words(interface_language())
            text = (
                said
                if skipped
                else _("{said} ({seconds} s)").format(
                    said=said,
                    seconds=QLocale().toString(outcome.seconds, "f", 2),  # "0,05"
                )
            )
        except ConfigError as exc:
            ok, text = False, str(exc)
        finally:
            self.button.setEnabled(True)
            self.button.setText(_("Test connection"))
            if self._kept_focus and self.hasFocus():
                self.button.setFocus(Qt.FocusReason.OtherFocusReason)
            self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        if skipped:
            self.result.setStyleSheet(SKIP_STYLE)
            self.result.setText("– " + text)
        else:
            self.result.setStyleSheet(OK_STYLE if ok else FAIL_STYLE)
            self.result.setText(("✓ " if ok else "✗ ") + text)
        self._show_details(details)
        self.finished.emit(ok, text)

    def _show_details(self, text: str) -> None:
        self.details.setText(text)
        self.details_button.setVisible(bool(text))
        self.details_button.setChecked(False)
        self.details.hide()

    def _toggle_details(self, shown: bool) -> None:
        self.details.setVisible(shown and bool(self.details.text()))
        arrow = Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow
        self.details_button.setArrowType(arrow)
        if self.details.isVisible():  # once the page has grown by the details' height
            QTimer.singleShot(0, self, self._reveal_details)

    def _reveal_details(self) -> None:
        """Scroll the settings page so the details just opened are seen: the button
        sits at the foot of a group, and on a small screen the text opened below the
        fold, so *Details* looked as if it did nothing."""
        area = self.parentWidget()
        while area is not None and not isinstance(area, QScrollArea):
            area = area.parentWidget()
        if area is None or not self.details.isVisible():
            return
        page = area.widget()
        grown = page.layout() if page is not None else None
        if grown is not None:
            grown.activate()  # the page's new height, before measuring
        area.ensureWidgetVisible(self.details, 0, 8)
