"""The team settings in the Settings tab: grouped and labelled, YADISK_TOKEN a secret."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QComboBox, QGroupBox, QLineEdit
from pytestqt.qtbot import QtBot

from docbatch_gui._qt.settings.tab import GROUPS
from docbatch_gui.settings.file import settings_path
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.saving import save_settings
from docbatch_gui.settings.secrets import SECRET_VARIABLES, SERVICE, redact
from docbatch_gui.settings.sections import SECTIONS
from tests.fakes.memory_keyring import MemoryKeyring, memory_keyring
from tests.gui.settings_helpers import make_tab

TOKEN = "y0-yadisk-oauth-secret-42"


@pytest.fixture
def ring() -> Iterator[MemoryKeyring]:
    with memory_keyring() as backend:
        yield backend


def test_every_secret_setting_is_a_keyring_secret() -> None:
    """A SecretStr field missing here would be written to the settings file."""
    secret_fields = {
        info.alias for info in Settings.model_fields.values() if info.annotation == SecretStr | None
    }
    assert secret_fields == set(SECRET_VARIABLES)
    assert redact("YADISK_TOKEN", TOKEN) == "***"


def test_team_settings_have_their_own_groups_and_labels(
    qtbot: QtBot, qsettings: QSettings, ring: MemoryKeyring
) -> None:
    grouped = {name for _group, names, _probe in GROUPS for name in names}
    assert set(Settings.model_fields) <= grouped  # nothing falls into "Other"
    tab = make_tab(qsettings)
    qtbot.addWidget(tab)
    execution = tab.editors["execution"].editor
    assert isinstance(execution, QComboBox)
    assert [execution.itemData(i) for i in range(execution.count())] == ["inprocess", "celery"]
    token = tab.editors["yadisk_token"]
    assert isinstance(token.editor, QLineEdit)
    assert token.editor.echoMode() is QLineEdit.EchoMode.Password
    assert "keyring" in token.note.text()
    assert "celery" in tab.tests  # the broker has its Test connection


def test_the_yadisk_token_goes_to_the_keyring_never_the_file(
    ring: MemoryKeyring, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    saved = save_settings({"YADISK_TOKEN": TOKEN, "YADISK_API_URL": "http://disk.local"})
    text = settings_path().read_text()
    assert json.loads(text) == {
        "schema_version": 2,
        "intake": {"YADISK_API_URL": "http://disk.local"},
    }
    assert ring.store[(SERVICE, "YADISK_TOKEN")] == TOKEN
    assert saved.yadisk_token is not None and saved.yadisk_token.get_secret_value() == TOKEN
    assert TOKEN not in caplog.text
    settings_path().write_text(json.dumps({"YADISK_TOKEN": "from-the-file"}))
    assert load_settings().yadisk_token.get_secret_value() == TOKEN  # type: ignore[union-attr]
    assert "YADISK_TOKEN in" in caplog.text and "ignored" in caplog.text


def test_the_tab_has_one_group_per_section_and_marks_a_folder_that_is_a_file(
    qtbot: QtBot, qsettings: QSettings, ring: MemoryKeyring, tmp_path: Path
) -> None:
    tab = make_tab(qsettings)
    qtbot.addWidget(tab)
    tab.ensure_built()
    titles = [box.title() for box in tab.findChildren(QGroupBox)]
    assert len(titles) == len(SECTIONS) + 1  # and the window's own Interface group
    for section in SECTIONS:  # each section's fields in its group, in its order
        names = [n for n in section.model_fields if n in tab.editors]
        assert names == list(section.model_fields)
        boxes = {tab.editors[n].parentWidget() for n in names}
        assert len(boxes) == 1
    assert {"claude", "ocr", "mongodb", "minio", "redis", "celery", "mail"} <= set(tab.tests)
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x", encoding="utf-8")
    folders = tab.editors["watch_folders"]
    assert isinstance(folders.editor, QLineEdit)
    folders.editor.setText(f"{tmp_path};{a_file}")
    assert folders.has_error and "is a file, not a folder" in folders.error.text()
    assert not tab.save_button.isEnabled()
    tab.cancel_button.click()
    assert not folders.has_error
