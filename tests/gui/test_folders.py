"""A save dialog opens where the operator was: its own last folder, else the last
folder any DocBatch dialog used (the files just added), and only then home."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog

from docbatch_gui._qt.registry.pages_file import REGISTRY_FOLDER_KEY
from docbatch_gui._qt.registry.results import EXPORT_FOLDER_KEY as REGISTRY_EXPORTS
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.export_documents import EXPORT_FOLDER_KEY as DOCUMENT_EXPORTS
from docbatch_gui._qt.widgets.folders import remember_folder, remembered_folder
from tests.conftest import SAMPLES
from tests.gui.conftest import until
from tests.gui.test_queue import drop
from tests.gui.test_registry_wizard import open_wizard

__all__ = ["open_wizard"]  # the fixture


def test_a_first_export_opens_where_the_files_were_added(
    qsettings: QSettings, tmp_path: Path
) -> None:
    scans, exports = tmp_path / "scans", tmp_path / "exports"
    scans.mkdir()
    exports.mkdir()
    assert remembered_folder(qsettings, REGISTRY_EXPORTS) == str(Path.home())
    remember_folder(qsettings, "queue/last_folder", scans)  # files added from there
    assert remembered_folder(qsettings, REGISTRY_EXPORTS) == str(scans)
    assert remembered_folder(qsettings, DOCUMENT_EXPORTS) == str(scans)
    remember_folder(qsettings, DOCUMENT_EXPORTS, exports)
    assert remembered_folder(qsettings, DOCUMENT_EXPORTS) == str(exports)
    # a folder that is gone since is passed over
    exports.rmdir()
    assert remembered_folder(qsettings, DOCUMENT_EXPORTS) == str(Path.home())


async def opened_in(parent: Any, browse: Any) -> Path:
    """The folder the file dialog ``browse()`` opens shows, the dialog closed again."""
    spawn(browse())
    await until(lambda: any(d.isVisible() for d in parent.findChildren(QFileDialog)))
    dialog = next(d for d in parent.findChildren(QFileDialog) if d.isVisible())
    folder = Path(dialog.directory().absolutePath())
    dialog.reject()
    await until(lambda: not dialog.isVisible())
    return folder


@pytest.mark.slow
@pytest.mark.asyncio(loop_factories=["qasync"])
async def test_the_registry_wizard_opens_where_the_operator_was(
    window: Any, open_wizard: Any, tmp_path: Path
) -> None:
    """Its file and template dialogs opened in the working folder of the process: the
    files just dropped, then the registry's own folder, are where they open now."""
    scans, sheets = tmp_path / "scans", tmp_path / "registries"
    scans.mkdir()
    sheets.mkdir()
    drop(window, [SAMPLES / "en_invoice_INV-2024-0042.pdf"])
    assert remembered_folder(window.ctx.qsettings, DOCUMENT_EXPORTS) == str(SAMPLES)
    remember_folder(window.ctx.qsettings, "queue/last_folder", scans)
    wizard, _task = await open_wizard()
    page = wizard.file_page

    assert await opened_in(page, page.browse) == scans
    assert await opened_in(page, page.browse_template) == scans
    assert await opened_in(wizard, wizard.save_template_dialog) == scans

    # a registry chosen in sheets/: its dialog opens there next, and so does any other
    remember_folder(window.ctx.qsettings, REGISTRY_FOLDER_KEY, sheets)
    assert await opened_in(page, page.browse) == sheets
    assert await opened_in(page, page.browse_template) == sheets  # the last of any dialog
