"""*Details* of a failed *Test connection* opens where the operator can read it: at
1024×640 the Claude test sits at the foot of its group, and the details opened below
the fold, so the button looked as if it did nothing."""

from __future__ import annotations

import asyncio
import socket

import pytest
from PySide6.QtCore import QPoint, QSettings
from PySide6.QtWidgets import QApplication, QLineEdit
from pytestqt.qtbot import QtBot

from docbatch_gui.diagnostics import connections
from tests.fakes.memory_keyring import memory_keyring
from tests.gui.conftest import until
from tests.gui.settings_helpers import make_tab


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.asyncio
async def test_the_details_opened_are_scrolled_into_view(
    qtbot: QtBot, qsettings: QSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connections, "TIMEOUT", 2.0)
    with memory_keyring():
        tab = make_tab(qsettings)
        qtbot.addWidget(tab)
        tab.resize(1024, 560)  # the Settings tab of a 1024×640 window
        tab.show()
        tab.ensure_built()
        key = tab.editors["anthropic_api_key"].editor
        assert isinstance(key, QLineEdit)
        key.setText("sk-ant-test")
        url = tab.editors["anthropic_base_url"].editor
        assert isinstance(url, QLineEdit)
        url.setText(f"http://127.0.0.1:{closed_port()}")
        test = tab.tests["claude"]
        area = tab.page_scroll
        area.ensureWidgetVisible(test.button, 0, 0)  # as the operator scrolled to it
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        test.finished.connect(lambda ok, _text: done.done() or done.set_result(ok))
        test.button.click()
        assert not await asyncio.wait_for(done, 60)
        assert test.details_button.isVisible()
        test.details_button.click()
        QApplication.processEvents()

        def seen() -> bool:
            viewport = area.viewport()
            bottom = test.details.mapTo(viewport, QPoint(0, test.details.height())).y()
            top = test.details.mapTo(viewport, QPoint(0, 0)).y()
            return test.details.isVisible() and top >= 0 and bottom <= viewport.height()

        await until(seen, what="the details inside the page's view")
