"""The window run in Russian shows no English word outside file names, numbers and
proper names: every label, button, list entry, group title, placeholder, tooltip and
column title of every tab, with a searched registry, a job in the queue and the Log
panel, and every line the Log panel shows over a real run."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QWidget,
)

from docbatch_gui._qt.batches.model import model_label
from docbatch_gui._qt.tasks import drain
from docbatch_gui.domain.states import FINAL_STATES
from docbatch_gui.resources import resources_dir
from tests.builders import corrupt_pdf, encrypted_pdf
from tests.gui.conftest import until
from tests.gui.test_sizes import fill

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])

#: names of products, services and keys, and the language's own name in the list
PROPER = {
    "DocBatch", "Claude", "Anthropic", "Tesseract", "Google", "Vision", "Celery", "MinIO",
    "MongoDB", "Redis", "Excel", "English", "Haiku", "Sonnet", "Opus", "Fable", "Message",
    "Batches", "OAuth", "PgDown", "PgUp", "Ctrl", "Enter", "Return", "Up", "Down", "Yandex",
    "MuPDF", "qpdf", "Delete", "Insert", "Tab",
}  # fmt: skip
#: what is data or a name, not a word: «quoted» values, paths, file names, variables
#: (DOCBATCH_DATA_DIR), model ids (claude-haiku-5-5), prices
NOT_WORDS = re.compile(r"«[^»]*»|\S*[/\\_.@]\S*|\S*\d\S*|\$\S+")


def english_words(text: str) -> list[str]:
    text = re.sub(r"<[^>]+>|&[a-z]+;", " ", text)
    words = [w.strip("-") for w in re.findall(r"[A-Za-z][A-Za-z-]+", NOT_WORDS.sub(" ", text))]
    return [w for w in words if w not in PROPER and not w.isupper()]


def shown_texts(window: QWidget) -> Iterator[str]:
    for widget in window.findChildren(QWidget):  # what pointing at it shows
        yield widget.toolTip()
    for label in window.findChildren(QLabel):
        yield label.text()
    for button in window.findChildren(QAbstractButton):
        yield button.text()
    for box in window.findChildren(QComboBox):
        yield from (box.itemText(i) for i in range(box.count()))
    for group in window.findChildren(QGroupBox):
        yield group.title()
    for line in window.findChildren(QLineEdit):
        yield line.placeholderText()
    for view in window.findChildren(QAbstractItemView):
        header = getattr(view, "horizontalHeader", None)
        if header is not None and view.model() is not None:
            for section in range(header().count()):
                yield str(view.model().headerData(section, Qt.Orientation.Horizontal) or "")


async def test_the_check_finds_english_and_spares_names_and_data() -> None:
    assert english_words("Failed to open the file") == ["Failed", "to", "open", "the", "file"]
    assert english_words("пакетный (batch)") == ["batch"]
    spared = "Claude читает scan_march.pdf, /tmp/a b, DOCBATCH_DATA_DIR, claude-haiku-5-5, $0.5"
    assert english_words(spared + " · OCR · правило «default» · OAuth-токен") == []


async def test_the_russian_window_has_no_english_words(
    russian: None, window: Any, tmp_path: Path
) -> None:
    await fill(window, tmp_path)
    window.log_dock.show()
    await drain()
    found = {w for text in shown_texts(window) for w in english_words(text or "")}
    assert not found, sorted(found)


def log_rows(window: QWidget) -> list[str]:
    """Every cell of the Log panel as shown (level, source and message)."""
    model = window.log_panel.proxy  # type: ignore[attr-defined]
    return [
        " · ".join(str(model.index(row, column).data() or "") for column in range(1, 4))
        for row in range(model.rowCount())
    ]


async def test_a_russian_run_logs_in_russian(russian: None, window: Any, tmp_path: Path) -> None:
    """The operator's afternoon in the Log panel: files read, a damaged and a locked
    one refused, a pause and a resume, a retry and a cancel; every event Russian, and
    the log file's English lines there too once *Technical* is on."""
    window.log_dock.show()
    host, app = window.ctx.host, window.ctx.app
    samples = sorted((resources_dir() / "samples").iterdir())[:2]
    broken = [corrupt_pdf(tmp_path / "garbage.pdf"), encrypted_pdf(tmp_path / "locked.pdf")]
    await window.queue_tab.add_paths([*samples, *broken])

    def finished() -> bool:
        jobs = app.store.list_jobs()
        return len(jobs) == 4 and all(j.state in FINAL_STATES for j in jobs)

    await until(finished, what="the four files processed")
    host.pause()
    failed = next(j for j in app.store.list_jobs() if j.file_name == "garbage.pdf")
    app.retry(failed.id)
    app.cancel(failed.id)
    window.ctx.bridge.publish([app.store.get_job(failed.id)])  # as the queue's actions do
    host.resume()
    await drain()

    def shown(text: str) -> bool:
        window.log_panel.flush()
        return any(text in row for row in log_rows(window))

    await until(lambda: shown("Обработка: на паузе"), what="the pause in the Log panel")
    await until(lambda: shown("(garbage.pdf): Отменено"), what="the cancel in the Log panel")
    rows = log_rows(window)
    assert any(
        f"Задание {failed.id} (garbage.pdf): Ошибка: " in row and "Внимание" in row for row in rows
    ), rows
    assert any(f"Задание {failed.id} (garbage.pdf): Отменено" in row for row in rows), rows
    found = {row: english_words(row) for row in rows if english_words(row)}
    assert not found, found
    window.log_panel.technical.setChecked(True)
    technical = log_rows(window)
    assert len(technical) > len(rows)
    assert any(f"job {failed.id} (garbage.pdf) canceled by the operator" in r for r in technical)


async def test_a_batch_says_its_effort_in_russian(russian: None) -> None:
    label = model_label("claude-haiku-5-5", "effort low, thinking off")
    assert label == "claude-haiku-5-5 · усилие низкое, размышления выкл."
    assert english_words(label) == []
    assert model_label("claude-haiku-5-5", None) == "claude-haiku-5-5"
