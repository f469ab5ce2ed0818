"""A broken store stops the window before it opens, with one sentence in a dialog."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from docbatch_gui._qt.main import parse_args, run_gui


@pytest.mark.parametrize(
    ("content", "words"),
    [(b"overwritten by something else " * 100, "is damaged"), (b"", "is empty (0 bytes)")],
)
def test_a_broken_database_is_a_dialog_then_exit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes, words: str
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    db = data / "docbatch.sqlite3"
    db.write_bytes(content)
    shown: list[str] = []

    def critical(parent: object, title: str, text: str, *rest: object) -> None:
        shown.append(text)

    monkeypatch.setattr(QMessageBox, "critical", staticmethod(critical))
    assert run_gui(parse_args(["--data-dir", str(data)])) == 1
    (text,) = shown
    assert (
        str(db) in text
        and words in text
        and "Restore it from a backup" in text.replace("restore it", "Restore it")
    )
    assert db.read_bytes() == content  # reported, never replaced


def test_in_russian_the_dialog_is_russian(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, russian: None
) -> None:
    """The start-up refusals word their message in the interface language: a damaged
    database, and a settings file that is not JSON."""
    from tests.gui.test_russian_window import english_words

    data = tmp_path / "data"
    data.mkdir()
    (data / "docbatch.sqlite3").write_bytes(b"overwritten by something else " * 100)
    shown: list[str] = []

    def critical(parent: object, title: str, text: str, *rest: object) -> None:
        shown.append(text)

    monkeypatch.setattr(QMessageBox, "critical", staticmethod(critical))
    assert run_gui(parse_args(["--data-dir", str(data), "--lang", "ru"])) == 1
    broken = tmp_path / "settings.json"
    broken.write_text('{"PROCESSING_MODE": ', encoding="utf-8")
    monkeypatch.setenv("DOCBATCH_SETTINGS_FILE", str(broken))
    assert run_gui(parse_args(["--data-dir", str(data), "--lang", "ru"])) == 2
    damaged, not_json = shown
    assert "повреждён" in damaged and "резервной копии" in damaged
    assert "не корректный JSON" in not_json and "строка 1" in not_json
    assert [english_words(text) for text in shown] == [[], []]
