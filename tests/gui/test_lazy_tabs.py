"""The tabs after the Queue are built the first time they are shown (after the first
show of the window): built late, they behave as if built with the window."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QComboBox, QSpinBox

from docbatch_gui._qt.tasks import drain
from docbatch_gui.settings.model import Settings

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])

LAZY = ("review", "batches", "registry", "webhooks", "settings")


def tab_index(window: Any, text: str) -> int:
    return next(i for i in range(window.tabs.count()) if window.tabs.tabText(i) == text)


async def test_a_tab_is_built_when_first_shown_and_settings_built_late_still_cancels(
    window: Any,
) -> None:
    assert not any(window.is_built(name) for name in LAZY)  # started: only the Queue
    window.tabs.setCurrentIndex(tab_index(window, "Settings"))
    await drain()
    assert window.is_built("settings") and not window.is_built("review")
    tab = window.settings_tab
    assert window.tabs.currentWidget().widget() is tab  # in its scroll area, shown
    # the mode in effect, read before the tab existed, is said under the setting
    mode = tab.editors["processing_mode"]
    assert isinstance(mode.editor, QComboBox)
    mode.editor.setCurrentIndex(mode.editor.findData("sync"))
    await drain()
    assert "In effect now: offline" in mode.note.text()
    batch = tab.editors["batch_size"].editor
    assert isinstance(batch, QSpinBox)
    saved = batch.value()
    batch.setValue(saved + 7)
    assert tab.cancel_button.isEnabled()
    tab.cancel_button.click()
    assert batch.value() == saved
    assert mode.editor.currentData() == "offline"
    assert not tab.save_button.isEnabled() and not tab.cancel_button.isEnabled()
    # reaching for a tab's widget builds it: the menu's "Needs review" shows it
    window.tabs.setCurrentWidget(window.review_tab)
    assert window.tabs.currentIndex() == tab_index(window, "Review")


@pytest.mark.slow
async def test_a_tab_built_late_gets_its_saved_layout_and_one_never_built_keeps_it(
    gui_settings: Settings, qsettings: QSettings
) -> None:
    from docbatch_gui._qt.build import build_window

    first = build_window(gui_settings, qsettings)
    try:
        first.review_tab.splitter.setSizes([123, 456, 78])
        first.save_state()
    finally:
        first.ctx.host.close()
        first.deleteLater()
    saved = qsettings.value("review/splitter")
    assert isinstance(saved, QByteArray)

    second = build_window(gui_settings, qsettings)
    try:
        assert not second.is_built("review")
        second.save_state()  # a tab not built has nothing to save: the old layout stays
        assert qsettings.value("review/splitter") == saved
        assert second.review_tab.splitter.saveState() == saved  # restored as it is built
    finally:
        second.ctx.host.close()
        second.deleteLater()
