"""Qt's own file dialog in a Russian window is Russian: its labels ("Look in:",
"Files of type:"), buttons and column titles. Qt's catalogue (``qtbase_ru.qm``)
lacks some strings of the running Qt version; DocBatch's translation supplies them
(``_qt/qt_words.py``)."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QFileDialog, QLabel, QTreeView
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES

LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def visible_words(dialog: QFileDialog) -> list[str]:
    texts = [w.text() for w in dialog.findChildren(QLabel) if w.isVisible()]
    texts += [w.text() or w.toolTip() for w in dialog.findChildren(QAbstractButton)]
    for view in dialog.findChildren(QTreeView):
        model = view.model()
        horizontal = Qt.Orientation.Horizontal
        texts += [str(model.headerData(c, horizontal)) for c in range(model.columnCount())]
    return [t.replace("&", "") for t in texts if t]


def test_the_file_dialog_speaks_russian(russian: None, qtbot: QtBot, tmp_path: Path) -> None:
    for mode in (QFileDialog.AcceptMode.AcceptOpen, QFileDialog.AcceptMode.AcceptSave):
        dialog = QFileDialog(None, "Файлы", str(SAMPLES), "PDF (*.pdf)")
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        dialog.setViewMode(QFileDialog.ViewMode.Detail)
        dialog.setAcceptMode(mode)
        qtbot.addWidget(dialog)
        dialog.show()
        words = visible_words(dialog)
        assert "Папка:" in words and "Тип файлов:" in words, words
        english = [t for t in words if LATIN_WORD.search(t.replace("PDF", ""))]
        assert english == [], english
        dialog.close()
