"""*Import from Yandex.Disk…*: ask for a link or a folder, download, queue.

The dialog is awaited with ``ask()`` (``open()`` and a future, never ``exec()``), the
download runs in a worker thread behind a ``ProgressDialog`` (``_qt.widgets.progress``)
so the window stays responsive; Cancel cancels the token the downloader checks between
files. An OAuth token typed here goes to the system keyring only, never to the
settings file or a log line.
"""

from __future__ import annotations

import asyncio
import logging

from PySide6.QtCore import QObject
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.language import error_text
from docbatch_gui._qt.widgets.dialogs import ask
from docbatch_gui._qt.widgets.layout import filled
from docbatch_gui._qt.widgets.progress import ProgressDialog
from docbatch_gui.domain.progress import Canceled, Progress
from docbatch_gui.i18n import _, ngettext
from docbatch_gui.settings.secrets import keyring_secret, set_keyring_secret

log = logging.getLogger(__name__)

TOKEN_ENTRY = "YADISK_TOKEN"


class YadiskDialog(QDialog):
    """A public link or ``disk:/path``, and an optional OAuth token."""

    def __init__(self, parent: QWidget | None = None, *, token_stored: bool = False) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Import from Yandex.Disk"))
        self.setMinimumWidth(480)
        self.source = QLineEdit()
        self.source.setPlaceholderText(_("https://disk.yandex.ru/d/… or disk:/Scans"))
        self.token = QLineEdit()
        self.token.setEchoMode(QLineEdit.EchoMode.Password)
        self.token.setPlaceholderText(
            _("stored in the system keyring")
            if token_stored
            else _("only for a disk:/ folder of your own")
        )
        self.remember = QCheckBox(_("Remember the token in the system keyring"))
        self.remember.setChecked(True)
        hint = QLabel(
            _(
                "A public link needs no token. Every supported file below the folder is "
                "downloaded and queued; files already known are shown as duplicates."
            )
        )
        hint.setWordWrap(True)
        form = QFormLayout()
        form.addRow(_("Link or folder"), self.source)
        form.addRow(_("OAuth token"), self.token)
        form.addRow("", self.remember)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(_("Import"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        filled(QVBoxLayout(self), hint, form, self.buttons)
        self.source.textChanged.connect(self._sync)
        self._sync()

    def _sync(self) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(self.source.text().strip()))


class YadiskImport(QObject):
    """The File menu's action: dialog, keyring, download with progress, queue."""

    def __init__(self, ctx: GuiContext, parent: QWidget) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.window = parent
        #: the open dialogs, for tests and for closing the window mid-import
        self.dialog: YadiskDialog | None = None
        self.progress: ProgressDialog | None = None

    async def run(self) -> None:
        # qasync logs an executor call's arguments and result at DEBUG: a secret must
        # be in neither, so only closures and a yes/no cross the executor boundary
        stored = await asyncio.to_thread(lambda: keyring_secret(TOKEN_ENTRY) is not None)
        self.dialog = dialog = YadiskDialog(self.window, token_stored=stored)
        try:
            if await ask(dialog) != QDialog.DialogCode.Accepted:
                return
            source = dialog.source.text().strip()
            token = dialog.token.text().strip() or None
            remember = dialog.remember.isChecked()
        finally:
            self.dialog = None
            dialog.deleteLater()
        if token and remember:
            await self._remember(token)
        await self._download(source, token)

    async def _remember(self, token: str) -> None:
        try:
            await asyncio.to_thread(lambda: set_keyring_secret(TOKEN_ENTRY, token))
        except Exception as exc:  # no keyring backend: the token still serves this import
            log.warning("the Yandex.Disk token was not stored (%s)", type(exc).__name__)
            self.ctx.notifier.notify(
                _("The token could not be stored in the system keyring; it is used "
                        "for this import only."),
                "error",
            )  # fmt: skip

    async def _download(self, source: str, token: str | None) -> None:
        def downloaded(progress: Progress) -> str:
            return _("Downloaded {done} of {total}: {what}").format(
                done=progress.done, total=progress.total, what=progress.what
            )

        self.progress = dialog = ProgressDialog(
            self.window,
            _("Import from Yandex.Disk"),
            _("Listing the folder on Yandex.Disk…"),
            describe=downloaded,
            show_after_ms=0,
        )
        try:
            report = await dialog.run(
                lambda sink, cancel: self.ctx.app.import_yadisk(
                    source, token=token, progress=sink, cancel=cancel
                )
            )
        except Canceled:
            self.ctx.notifier.notify(_("Yandex.Disk import canceled; nothing was queued."))
            return
        except Exception as exc:
            log.warning("Yandex.Disk import failed: %s", exc)
            failed = _("Yandex.Disk import failed: {error}").format(error=error_text(exc))
            self.ctx.notifier.notify(failed, "error")
            return
        finally:
            self.progress = None
        self.ctx.bridge.publish(report.jobs)
        duplicates = sum(1 for r in report.results if r.is_duplicate)
        queued = len(report.results) - duplicates
        message = ngettext(
            "Queued {count} file from Yandex.Disk.",
            "Queued {count} files from Yandex.Disk.",
            queued,
        ).format(count=queued)
        if duplicates:
            message += " " + ngettext(
                "{count} already known: shown as a duplicate.",
                "{count} already known: shown as duplicates.",
                duplicates,
            ).format(count=duplicates)
        self.ctx.notifier.notify(message, "success")
