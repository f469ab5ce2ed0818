"""GUI tests: offscreen Qt, the qasync loop, and nothing of the developer's own
(QSettings, the settings file and the data folder all live in the test's tmp)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any Qt import

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication


def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item) -> dict[str, Any]:
    """Async GUI tests run on the qasync loop, inside the Qt event loop."""
    return {"qasync": lambda: qasync.QEventLoop(QApplication.instance() or QApplication([]))}


@pytest.fixture(autouse=True)
def gui_isolation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("DOCBATCH_SETTINGS_FILE", str(tmp_path / "config" / "settings.json"))
    monkeypatch.setenv("DOCBATCH_DATA_DIR", str(tmp_path / "data"))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qs"))
    yield


@pytest.fixture
def qsettings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "qs" / "docbatch.ini"), QSettings.Format.IniFormat)
