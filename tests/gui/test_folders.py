"""A save dialog opens where the operator was: its own last folder, else the last
folder any DocBatch dialog used (the files just added), and only then home."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from docbatch_gui._qt.registry.results import EXPORT_FOLDER_KEY as REGISTRY_EXPORTS
from docbatch_gui._qt.widgets.export_documents import EXPORT_FOLDER_KEY as DOCUMENT_EXPORTS
from docbatch_gui._qt.widgets.folders import remember_folder, remembered_folder


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
