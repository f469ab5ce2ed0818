"""Modal dialogs awaited as futures: ``open()`` plus a future, never ``exec()``.

``exec()`` inside a coroutine starts a nested event loop that re-enters qasync and
can run other coroutines in the middle of this one; ``open()`` shows the dialog
window-modal and lets the one loop carry on.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox, QWidget


async def ask(dialog: QDialog) -> int:
    """Open the dialog window-modal and wait for its result code."""
    future: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def done(result: int) -> None:
        if not future.done():
            future.set_result(result)

    dialog.finished.connect(done)
    dialog.open()
    try:
        return await future
    finally:
        dialog.finished.disconnect(done)


async def confirm(
    parent: QWidget,
    title: str,
    text: str,
    no: QMessageBox.StandardButton = QMessageBox.StandardButton.No,
) -> bool:
    """Whether the person answered Yes; ``no`` (No, or Cancel) is the other button and
    the default."""
    yes = QMessageBox.StandardButton.Yes
    box = QMessageBox(QMessageBox.Icon.Question, title, text, yes | no, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)  # the text quotes file names
    box.setDefaultButton(no)
    await ask(box)
    return box.standardButton(box.clickedButton()) == yes


async def choose_files(parent: QWidget, title: str, folder: str, filters: str) -> list[str]:
    dialog = QFileDialog(parent, title, folder, filters)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
    if await ask(dialog) != QDialog.DialogCode.Accepted:
        return []
    return dialog.selectedFiles()


async def choose_folder(parent: QWidget, title: str, folder: str) -> str | None:
    dialog = QFileDialog(parent, title, folder)
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
    if await ask(dialog) != QDialog.DialogCode.Accepted:
        return None
    files = dialog.selectedFiles()
    return files[0] if files else None
