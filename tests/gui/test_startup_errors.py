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
