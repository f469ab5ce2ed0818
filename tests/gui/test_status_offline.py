"""Without a Claude key the status bar says so plainly, all the time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from docbatch_gui.settings.loading import load_settings
from tests.gui.conftest import until

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])
OFFLINE = "Offline: no Claude key — documents are read by the offline extractor"


async def test_no_key_is_said_in_the_status_bar(
    window: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert window.ctx.app.anthropic_key is None
    assert window.offline_label.text() == OFFLINE
    assert window.offline_label.isVisible()
    window.statusBar().showMessage("a passing message", 1000)
    assert window.offline_label.isVisible()  # a permanent line, not a passing one


@pytest.mark.slow  # builds the main window
async def test_with_a_key_the_offline_line_is_gone(tmp_path: Path, qsettings: QSettings) -> None:
    from docbatch_gui._qt.build import build_window
    from docbatch_gui._qt.tasks import drain

    settings = load_settings(
        data_dir=tmp_path / "data",
        PROCESSING_MODE="offline",
        OCR_ENGINE="none",
        ANTHROPIC_API_KEY="sk-ant-test-key-not-real-0000",
    )
    window = build_window(settings, qsettings)
    window.show()
    await window.start()
    try:
        assert not window.offline_label.isVisible()
    finally:
        await drain()
        await window.shutdown()
        window.ctx.host.close()
        window.deleteLater()


async def test_settings_say_the_mode_in_effect_when_no_key_is_set(window: Any) -> None:
    """*Processing mode: sync* without a key: the files are read offline, and the
    Settings tab says so under the setting, not only the status bar."""
    from PySide6.QtWidgets import QComboBox

    from docbatch_gui._qt.tasks import drain

    await until(lambda: window.offline_label.isVisible(), what="the offline line")
    mode = window.settings_tab.editors["processing_mode"]
    assert isinstance(mode.editor, QComboBox)
    mode.editor.setCurrentIndex(mode.editor.findData("sync"))
    await drain()
    assert mode.note.isVisibleTo(window.settings_tab)
    assert "In effect now: offline" in mode.note.text()
    mode.editor.setCurrentIndex(mode.editor.findData("offline"))
    await drain()
    assert not mode.note.isVisibleTo(window.settings_tab)
