"""The application icon: set on the QApplication, so the window and every dialog show
it; loaded from the package data, so an installed wheel and the bundle have it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QDialog, QMainWindow, QMessageBox

from docbatch_gui._qt.app_icon import DESKTOP_ID, SIZES, application_icon, dress


def test_the_window_and_its_dialogs_show_the_application_icon(qapp: QApplication) -> None:
    icon = dress(qapp)
    assert not icon.isNull()
    assert qapp.desktopFileName() == DESKTOP_ID
    for widget in (QMainWindow(), QDialog(), QMessageBox()):
        shown = widget.windowIcon()
        assert not shown.isNull(), type(widget).__name__
        assert [s.width() for s in shown.availableSizes()] == list(SIZES)
        assert shown.cacheKey() == qapp.windowIcon().cacheKey()
        widget.deleteLater()


def test_without_the_icon_files_qt_keeps_its_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOCBATCH_RESOURCES", str(tmp_path))
    assert application_icon().isNull()
