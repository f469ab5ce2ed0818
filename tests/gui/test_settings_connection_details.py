"""*Test connection* tests what the settings use (Tesseract or Vision as OCR_ENGINE
says; a backend left empty is not tried), and says a failure in one sentence with the
library's own words behind a Details toggle."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from docbatch_gui._qt.settings.connection_test import ConnectionTest
from docbatch_gui.diagnostics import connections
from tests.fakes.memory_keyring import MemoryKeyring, memory_keyring
from tests.fakes.vision_server import FakeVision
from tests.gui.settings_helpers import make_tab

PASSWORD = "mongo-secret-321"


@pytest.fixture
def ring() -> Iterator[MemoryKeyring]:
    with memory_keyring() as backend:
        yield backend


@pytest.fixture(autouse=True)
def short_timeouts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connections, "TIMEOUT", 1.0)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def line(tab: object, name: str) -> QLineEdit:
    editor = tab.editors[name].editor  # type: ignore[attr-defined]
    assert isinstance(editor, QLineEdit)
    return editor


async def press(test: ConnectionTest) -> tuple[bool, str]:
    done: asyncio.Future[tuple[bool, str]] = asyncio.get_running_loop().create_future()
    slot = lambda ok, text: done.done() or done.set_result((ok, text))  # noqa: E731
    test.finished.connect(slot)
    test.button.click()
    try:
        return await asyncio.wait_for(done, 60)
    finally:
        test.finished.disconnect(slot)


@pytest.mark.asyncio
async def test_the_ocr_test_follows_the_engine(
    qtbot: QtBot, qsettings: QSettings, ring: MemoryKeyring
) -> None:
    tab = make_tab(qsettings)
    qtbot.addWidget(tab)
    test = tab.tests["ocr"]
    with FakeVision() as vision:
        line(tab, "google_vision_endpoint").setText(vision.url)
        tab.editors["ocr_engine"].set_value("tesseract")
        _ok, text = await press(test)
        assert "Tesseract" in text and vision.calls == 0  # Vision is not what is used
        tab.editors["ocr_engine"].set_value("google_vision")
        ok, text = await press(test)
        assert ok and "Google Vision" in text and vision.calls == 1
        tab.editors["ocr_engine"].set_value("none")
        ok, text = await press(test)
        assert not ok and "nothing to test" in text and vision.calls == 1
        assert test.result.text().startswith("–") and not test.details_button.isVisible()


@pytest.mark.asyncio
async def test_an_empty_backend_is_not_tried_and_a_failure_hides_its_details(
    qtbot: QtBot, qsettings: QSettings, ring: MemoryKeyring
) -> None:
    tab = make_tab(qsettings)
    qtbot.addWidget(tab)
    tab.show()
    test = tab.tests["mongodb"]
    ok, text = await press(test)
    assert not ok and "MONGODB_URI is not set" in text and "nothing to test" in text
    assert test.result.text().startswith("–")

    port = closed_port()
    line(tab, "mongodb_uri").setText(f"mongodb://docbatch@127.0.0.1:{port}/docs")
    password = tab.editors["mongodb_uri"].password
    assert password is not None
    password.setText(PASSWORD)
    ok, text = await press(test)
    assert not ok and test.result.text().startswith("✗")
    sentence = text.rsplit(" (", 1)[0]
    assert sentence.count(". ") == 0 and sentence.endswith(".")  # one sentence
    assert f"127.0.0.1:{port}" in sentence and "did not answer" in sentence
    assert test.details_button.isVisible() and not test.details.isVisible()
    test.details_button.click()
    assert test.details.isVisible()
    raw = test.details.text()
    assert raw and raw not in sentence  # pymongo's own words, kept apart
    assert PASSWORD not in raw and PASSWORD not in text
    test.details_button.click()
    assert not test.details.isVisible()


def test_a_two_line_answer_leaves_no_empty_lines_under_it(qtbot: QtBot) -> None:
    """In Settings' form a wrapped answer reserved the height it would need at its
    narrowest: three empty lines under a two-line answer, at 1024 px and wider."""
    from PySide6.QtWidgets import QFormLayout, QWidget

    page = QWidget()
    qtbot.addWidget(page)
    form = QFormLayout(page)
    form.addRow("Address", QLineEdit("http://127.0.0.1:9"))
    test = ConnectionTest()
    form.addRow("", test)
    page.resize(1000, 600)
    page.show()
    test.result.setText("✗ " + "Nobody answers at 127.0.0.1:9: the connection was refused. " * 2)
    test.details_button.show()
    qtbot.waitUntil(lambda: test.result.height() > 0)
    page.layout().activate()
    lines = test.result.fontMetrics().lineSpacing()
    needed = test.result.heightForWidth(test.result.width())
    assert needed >= 2 * lines  # it does wrap at this width
    assert test.height() <= needed + lines, (test.height(), needed)
    page.resize(600, 600)  # narrower: taller, still no more than it needs
    page.layout().activate()
    needed = test.result.heightForWidth(test.result.width())
    assert test.result.height() >= needed and test.height() <= needed + lines
