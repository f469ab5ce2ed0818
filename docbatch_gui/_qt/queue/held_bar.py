"""The Queue tab's line about held jobs: queued jobs that nothing here can start (no
Anthropic key for a sync or batch job), said with the two ways on: *Add a key…*
(the Settings tab, at the key) and *Process offline* (those jobs are read locally).

With Google Vision chosen and no Google credentials found, queued jobs that may need
OCR are held too, with *Set up Vision…* (Settings, at the credentials file) and *Use
Tesseract* (the local OCR engine instead).

A sync job whose requests could not reach Claude's API (a network error) is held
with the host and *Retry now* (the hold lifted, the jobs queued again).

Without it such a job looked like one waiting for its turn, for ever.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from docbatch_gui._qt.widgets.layout import filled
from docbatch_gui.engine.holds import NEEDS_CLAUDE_REACHABLE, NEEDS_VISION_CREDENTIALS
from docbatch_gui.i18n import _, ngettext

HELD_STYLE = (
    "QFrame#queue_held { background: #fff4ce; border-radius: 4px; }"
    " QFrame#queue_held QLabel { color: #5c4400; padding: 6px 10px; }"
)


class HeldBar(QFrame):
    #: the operator wants to add the missing key
    add_key = Signal()
    #: the operator wants the held jobs read offline
    process_offline = Signal()
    #: the operator wants to choose Google's credentials file
    set_up_vision = Signal()
    #: the operator wants Tesseract to read the scans instead of Google Vision
    use_tesseract = Signal()
    #: the operator wants the jobs Claude could not be reached for tried again
    retry_now = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("queue_held")
        self.setStyleSheet(HELD_STYLE)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.add_key_button = QPushButton(_("Add a key…"))
        self.add_key_button.setToolTip(_("Open Settings at the Anthropic API key"))
        self.add_key_button.clicked.connect(self.add_key)
        self.offline_button = QPushButton(_("Process offline"))
        self.offline_button.setToolTip(
            _("Read the held files with the offline extractor: nothing is sent to Claude")
        )
        self.offline_button.clicked.connect(self.process_offline)
        self.vision_button = QPushButton(_("Set up Vision…"))
        self.vision_button.setToolTip(_("Open Settings at the Google credentials file"))
        self.vision_button.clicked.connect(self.set_up_vision)
        self.tesseract_button = QPushButton(_("Use Tesseract"))
        self.tesseract_button.setToolTip(
            _("Read scanned pages with Tesseract on this computer instead of Google Vision")
        )
        self.tesseract_button.clicked.connect(self.use_tesseract)
        self.retry_button = QPushButton(_("Retry now"))
        self.retry_button.setToolTip(_("Lift the hold and send the held jobs to Claude again"))
        self.retry_button.clicked.connect(self.retry_now)
        buttons = [self.retry_button, self.add_key_button, self.offline_button]
        buttons += [self.vision_button, self.tesseract_button]
        filled(QHBoxLayout(self), (self.text, 1), *buttons, margins=(0, 0, 6, 0))
        self.hide()

    def show_count(
        self, held: int, need: str = "", host: str = "", *, in_batches: bool = False
    ) -> None:
        """``held`` queued jobs need what is missing: an Anthropic key, Google
        credentials (``need`` NEEDS_VISION_CREDENTIALS), or Claude at ``host`` to
        answer (NEEDS_CLAUDE_REACHABLE); ``in_batches``: every one of those is a batch
        job whose batch is planned or at the API (no *Process offline* for them)."""
        if not held:
            self.hide()
            return
        vision = need == NEEDS_VISION_CREDENTIALS
        unreachable = need == NEEDS_CLAUDE_REACHABLE
        self.retry_button.setVisible(unreachable)
        self.add_key_button.setVisible(not vision and not unreachable)
        self.offline_button.setVisible(not vision and not (unreachable and in_batches))
        if unreachable:
            for button in (self.vision_button, self.tesseract_button):
                button.setVisible(False)
            self.text.setText(
                ngettext(
                    "{count} batch job held: Claude's Message Batches API cannot be reached "
                    "at {host}; nothing is sent again until it answers. Check the network "
                    "or ANTHROPIC_BASE_URL, then Retry now.",
                    "{count} batch jobs held: Claude's Message Batches API cannot be reached "
                    "at {host}; nothing is sent again until it answers. Check the network "
                    "or ANTHROPIC_BASE_URL, then Retry now.",
                    held,
                ).format(count=held, host=host)
                if in_batches
                else ngettext(
                    "{count} queued job held: Claude cannot be reached at {host}; check the "
                    "network or ANTHROPIC_BASE_URL, then Retry now.",
                    "{count} queued jobs held: Claude cannot be reached at {host}; check the "
                    "network or ANTHROPIC_BASE_URL, then Retry now.",
                    held,
                ).format(count=held, host=host)
            )
            self.show()
            return
        for button in (self.vision_button, self.tesseract_button):
            button.setVisible(vision)
        if vision:
            self.text.setText(
                ngettext(
                    "{count} queued job held: OCR_ENGINE is Google Vision and no Google "
                    "credentials are found, so scanned pages cannot be read. Nothing is read "
                    "until you act.",
                    "{count} queued jobs held: OCR_ENGINE is Google Vision and no Google "
                    "credentials are found, so scanned pages cannot be read. Nothing is read "
                    "until you act.",
                    held,
                ).format(count=held)
            )
            self.show()
            return
        self.text.setText(
            ngettext(
                "{count} queued job held: it is to be read by Claude, and no Anthropic "
                "API key is set. Nothing is sent and nothing is charged until you act.",
                "{count} queued jobs held: they are to be read by Claude, and no Anthropic "
                "API key is set. Nothing is sent and nothing is charged until you act.",
                held,
            ).format(count=held)
        )
        self.show()
