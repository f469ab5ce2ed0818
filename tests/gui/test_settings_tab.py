"""The Settings tab: validation as typed, Cancel, secrets to the keyring only,
environment-set fields read-only, connection tests shown inline."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QSpinBox
from pytestqt.qtbot import QtBot

from docbatch_gui._qt.settings import fields
from docbatch_gui._qt.settings import tab as tab_module
from docbatch_gui.domain.messages import coded
from docbatch_gui.settings.file import settings_path
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.secrets import SERVICE
from tests.fakes.anthropic_server import FakeAnthropic
from tests.fakes.memory_keyring import MemoryKeyring, memory_keyring
from tests.gui.settings_helpers import make_tab

KEY = "sk-ant-gui-secret-7781"
PASSWORD = "mongo-gui-secret-55"


@pytest.fixture
def ring() -> Iterator[MemoryKeyring]:
    with memory_keyring() as backend:
        yield backend


def line(tab: object, name: str) -> QLineEdit:
    editor = tab.editors[name].editor  # type: ignore[attr-defined]
    assert isinstance(editor, QLineEdit)
    return editor


def test_an_invalid_value_is_marked_with_its_reason_and_cancel_reverts(
    qtbot: QtBot, qsettings: QSettings, ring: MemoryKeyring
) -> None:
    tab = make_tab(qsettings)
    qtbot.addWidget(tab)
    assert not tab.save_button.isEnabled()  # nothing changed yet
    batch = tab.editors["batch_size"].editor
    assert isinstance(batch, QSpinBox)
    assert (batch.minimum(), batch.maximum()) == (1, 10_000)  # the model's ge/le
    batch.setValue(50)
    assert tab.save_button.isEnabled()
    line(tab, "ocr_languages").setText("")
    model = tab.editors["ocr_languages"]
    assert model.has_error and not model.error.isHidden()
    assert "at least 2 characters" in model.error.text()
    assert "border" in model.editor.styleSheet()
    assert not tab.save_button.isEnabled()
    assert "1 value" in tab.status.text()
    tab.cancel_button.click()
    assert line(tab, "ocr_languages").text() == "ru,en"
    assert batch.value() == 30
    assert not model.has_error and model.editor.styleSheet() == ""
    assert not tab.save_button.isEnabled() and not tab.cancel_button.isEnabled()
    assert not settings_path().exists()


@pytest.mark.asyncio
async def test_save_puts_secrets_in_the_keyring_never_in_the_file_or_the_log(
    qtbot: QtBot, qsettings: QSettings, ring: MemoryKeyring, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    tab = make_tab(qsettings)
    qtbot.addWidget(tab)
    saved: asyncio.Future[Settings] = asyncio.get_running_loop().create_future()
    tab.saved.connect(lambda s: saved.done() or saved.set_result(s))
    line(tab, "anthropic_api_key").setText(KEY)
    line(tab, "mongodb_uri").setText("mongodb://reader@db.local:27017/docs")
    password = tab.editors["mongodb_uri"].password
    assert password is not None
    password.setText(PASSWORD)
    tab.editors["batch_size"].editor.setValue(40)  # type: ignore[attr-defined]
    tab.language.setCurrentIndex(tab.language.findData("ru"))
    tab.save_button.click()
    new = await asyncio.wait_for(saved, 10)

    text = settings_path().read_text()
    assert json.loads(text) == {
        "schema_version": 2,
        "batch": {"BATCH_SIZE": 40},
        "storage": {"MONGODB_URI": "mongodb://reader@db.local:27017/docs"},
    }
    assert ring.store[(SERVICE, "ANTHROPIC_API_KEY")] == KEY
    assert ring.store[(SERVICE, "MONGODB_URI_PASSWORD")] == PASSWORD
    for secret in (KEY, PASSWORD):
        assert secret not in text
        assert secret not in caplog.text
    assert new.batch_size == 40 and new.anthropic_api_key.get_secret_value() == KEY
    assert qsettings.value("ui/language") == "ru"
    assert not tab.save_button.isEnabled()  # the saved values are the new baseline
    assert "engine takes them over" in tab.status.text()


def test_environment_fields_are_read_only_and_not_saved(
    qtbot: QtBot, qsettings: QSettings, ring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BATCH_SIZE", "12")
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    tab = make_tab(qsettings)
    qtbot.addWidget(tab)
    batch = tab.editors["batch_size"]
    assert batch.locked and not batch.editor.isEnabled()
    assert batch.value() == 12
    assert "BATCH_SIZE" in batch.note.text()
    key = tab.editors["anthropic_api_key"]
    assert key.locked and line(tab, "anthropic_api_key").isReadOnly()
    assert line(tab, "anthropic_api_key").text() == ""  # the env secret is not copied
    assert "BATCH_SIZE" not in tab.values() and "ANTHROPIC_API_KEY" not in tab.values()
    assert "OCR_WORKERS" in tab.values()


@pytest.mark.slow
@pytest.mark.asyncio
async def test_connection_test_shows_success_and_failure_inline(
    qtbot: QtBot, qsettings: QSettings, ring: MemoryKeyring, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    tab = make_tab(qsettings)
    qtbot.addWidget(tab)
    test = tab.tests["claude"]
    line(tab, "anthropic_api_key").setText(KEY)

    async def press() -> tuple[bool, str]:
        done: asyncio.Future[tuple[bool, str]] = asyncio.get_running_loop().create_future()
        slot = lambda ok, text: done.done() or done.set_result((ok, text))  # noqa: E731
        test.finished.connect(slot)
        test.button.click()
        assert not test.button.isEnabled()  # busy while it runs
        try:
            return await asyncio.wait_for(done, 90)  # a guard: a loaded machine is slow
        finally:
            test.finished.disconnect(slot)

    with FakeAnthropic() as fake:
        line(tab, "anthropic_base_url").setText(fake.url)
        ok, text = await press()
    assert ok, text
    assert test.result.text().startswith("✓") and "188038" in test.result.styleSheet()
    line(tab, "anthropic_base_url").setText("http://127.0.0.1:9")
    ok, text = await press()
    assert not ok and "Nothing answers at 127.0.0.1:9: the connection was refused" in text
    assert test.details_button.isVisibleTo(tab)  # the technical line, on request
    test.details_button.click()
    assert "ConnectionRefusedError" in test.details.text()
    assert test.result.text().startswith("✗") and "c62828" in test.result.styleSheet()
    assert test.button.isEnabled()
    assert KEY not in test.result.text() and KEY not in caplog.text
    assert not Path(settings_path()).exists()  # testing saves nothing


def test_the_model_is_chosen_from_the_catalogue_and_a_refused_combination_is_marked(
    qtbot: QtBot, qsettings: QSettings, ring: MemoryKeyring
) -> None:
    from PySide6.QtWidgets import QComboBox

    from docbatch_gui.llm.catalogue import load_catalogue

    tab = make_tab(qsettings)
    qtbot.addWidget(tab)
    model = tab.editors["anthropic_model"].editor
    assert isinstance(model, QComboBox)
    assert [model.itemData(i) for i in range(model.count())] == list(load_catalogue().models)
    assert model.currentData() == "claude-haiku-5-5"
    thinking = tab.editors["claude_thinking"].editor
    assert isinstance(thinking, QComboBox)
    thinking.setCurrentIndex(thinking.findData("off"))
    assert not tab.editors["claude_thinking"].has_error  # Haiku 5.5 turns thinking off
    model.setCurrentIndex(model.findData("claude-opus-5-5"))
    editor = tab.editors["claude_thinking"]  # the last of the changed fields carries it
    assert editor.has_error and "cannot be turned off" in editor.error.text()
    assert not tab.save_button.isEnabled()
    thinking.setCurrentIndex(thinking.findData("auto"))
    assert not editor.has_error and tab.save_button.isEnabled()


def test_a_webhook_address_that_is_no_url_is_marked_red_and_not_saved(
    qtbot: QtBot, qsettings: QSettings, ring: MemoryKeyring
) -> None:
    tab = make_tab(qsettings)
    qtbot.addWidget(tab)
    line(tab, "webhook_url").setText("not a url")
    editor = tab.editors["webhook_url"]
    assert editor.has_error and "must be an http:// or https:// address" in editor.error.text()
    assert "border" in editor.editor.styleSheet()
    assert not tab.save_button.isEnabled()
    line(tab, "webhook_url").setText("https://hooks.example.com/docbatch")
    assert not editor.has_error and tab.save_button.isEnabled()


@pytest.mark.asyncio(loop_factories=["qasync"])
async def test_test_connection_keeps_the_keyboard_focus_where_it_was(
    qtbot: QtBot, qsettings: QSettings, ring: MemoryKeyring
) -> None:
    """The button is disabled while it tests; the focus used to go to the next field,
    the data folder, with its path selected: the next keystroke overwrote it."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from tests.gui.conftest import until

    tab = make_tab(qsettings)
    qtbot.addWidget(tab)
    tab.show()
    tab.activateWindow()
    test = tab.tests["claude"]
    line(tab, "anthropic_api_key").setText(KEY)
    line(tab, "anthropic_base_url").setText("http://127.0.0.1:9")
    data_dir = line(tab, "data_dir")
    path = data_dir.text()
    test.button.setFocus()
    await until(lambda: test.button.hasFocus(), 10, "the button focused")
    done = asyncio.get_running_loop().create_future()
    test.finished.connect(lambda ok, text: done.done() or done.set_result(ok))
    test.button.click()
    assert not test.button.isEnabled() and not data_dir.hasFocus()
    QTest.keyClick(tab.focusWidget() or tab, Qt.Key.Key_X)  # a stray keystroke
    assert await asyncio.wait_for(done, 30) is False
    assert data_dir.text() == path and not data_dir.hasFocus()
    assert test.button.hasFocus()


def test_the_year_setting_reads_as_a_year(
    qtbot: QtBot, qsettings: QSettings, ring: MemoryKeyring
) -> None:
    """ "2,000" was shown for the year 2000; other numbers keep their grouping."""
    tab = make_tab(qsettings)
    qtbot.addWidget(tab)
    year = tab.editors["check_min_year"].editor
    assert isinstance(year, QSpinBox) and year.text() == "2000"
    rows = tab.editors["registry_max_rows"].editor
    assert isinstance(rows, QSpinBox) and rows.isGroupSeparatorShown()


def test_a_choice_reads_as_words_not_as_the_stored_value(
    qtbot: QtBot, qsettings: QSettings, ring: MemoryKeyring
) -> None:
    """Settings showed "Processing mode: batch" and "OCR engine: google_vision", the
    values the settings file stores; each choice now says what it means."""
    tab = make_tab(qsettings)
    qtbot.addWidget(tab)
    for name in ("processing_mode", "ocr_engine", "claude_output"):
        combo = tab.editors[name].editor
        assert isinstance(combo, QComboBox)
        for i in range(combo.count()):
            value = str(getattr(combo.itemData(i), "value", combo.itemData(i)))
            assert combo.itemText(i) != value and "_" not in combo.itemText(i), (name, value)
    for name in ("claude_effort", "claude_thinking", "mail_after", "language"):
        combo = tab.editors[name].editor
        assert isinstance(combo, QComboBox)
        for i in range(combo.count()):  # a list's items begin with a capital, as the others
            assert combo.itemText(i)[:1].isupper(), (name, combo.itemText(i))
    mode = tab.editors["processing_mode"].editor
    assert isinstance(mode, QComboBox)
    assert "half the price" in mode.itemText(mode.findData("batch"))


def test_the_encrypted_file_is_named_once_not_under_every_secret(
    qtbot: QtBot, qsettings: QSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a system keyring the same two-line note with the file's path stood under
    each of the eight secrets (the key, the mailbox password, the tokens…): the page
    names the file once at its top, each secret says it goes there."""
    home = "/srv/docbatch/secrets.cfg"
    monkeypatch.setattr(fields, "system_keyring", lambda: None)
    monkeypatch.setattr(fields, "uses_file", lambda: True)
    secret_home = lambda: coded("secret_home_file", path=home)  # noqa: E731
    monkeypatch.setattr(tab_module, "secret_home", secret_home, raising=False)
    monkeypatch.setattr(fields, "file_path", lambda: home, raising=False)
    tab = make_tab(qsettings)
    qtbot.addWidget(tab)
    tab.ensure_built()
    texts = [label.text() for label in tab.findChildren(QLabel)]
    assert sum(home in text for text in texts) == 1
    notes = [tab.editors[n].note.text() for n in ("anthropic_api_key", "mail_password")]
    assert all("encrypted file named at the top" in note for note in notes), notes
