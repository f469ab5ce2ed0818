"""GUI tests: offscreen Qt, the qasync loop for async tests, isolated QSettings."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
import qasync
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication


def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item) -> dict[str, Callable]:
    """Async GUI tests run on qasync's loop, as the application does."""
    return {"qasync": lambda: qasync.QEventLoop(QApplication.instance() or QApplication([]))}


@pytest.fixture
def qsettings(tmp_path: Path) -> Iterator[QSettings]:
    """A settings file of the test's own, never the developer's."""
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qs"))
    yield QSettings(str(tmp_path / "gui.ini"), QSettings.Format.IniFormat)
