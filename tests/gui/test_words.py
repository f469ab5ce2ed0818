"""Every word in the chosen language, and the small frictions: job errors worded in
Russian in the queue and its detail pane, the queue's empty states, what Add selects
and says, the close question's buttons, numbers out of range, OCR languages, files
queued by the CLI while paused."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from docbatch_gui._qt.queue.jobs_model import COL_ERROR, COL_FILE, JobRole
from docbatch_gui.app.facade import DocBatchApp
from tests.builders import text_pdf
from tests.gui.conftest import until

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])


def notes(window: Any) -> list[str]:
    seen: list[str] = []
    window.ctx.notifier.shown.connect(lambda text, _level: seen.append(text))
    return seen


async def test_a_job_error_is_worded_in_the_interface_language(
    russian: None, window: Any, tmp_path: Path
) -> None:
    tab = window.queue_tab
    await tab.add_paths([tmp_path / "nowhere.pdf"])
    await until(lambda: tab.proxy.rowCount() == 1, what="the failed job")
    job = tab.proxy.index(0, 0).data(JobRole)
    assert job.error_code == "intake_missing"
    assert job.error.startswith("nowhere.pdf: the path does not exist")  # stored in English
    shown = tab.proxy.index(0, COL_ERROR).data(Qt.ItemDataRole.DisplayRole)
    assert "такого пути нет" in shown
    assert "такого пути нет" in tab.proxy.index(0, COL_ERROR).data(Qt.ItemDataRole.ToolTipRole)
    tab.table.selectRow(0)
    await until(lambda: tab.detail.job is not None, what="detail pane")
    assert "nowhere.pdf" in tab.detail.title.text()
    # the box under the title and the file's tooltip say it in Russian too
    await until(lambda: tab.detail.error.isVisible(), what="the error box")
    assert "такого пути нет" in tab.detail.error.text()
    assert "does not exist" not in tab.detail.error.text()
    tip = tab.proxy.index(0, COL_FILE).data(Qt.ItemDataRole.ToolTipRole)
    assert "такого пути нет" in tip and "does not exist" not in tip


async def test_the_empty_queue_says_what_to_do(window: Any, tmp_path: Path) -> None:
    tab = window.queue_tab
    hint = tab.empty_hint
    assert hint.isVisible() and "Drop files here" in hint.text()
    await tab.add_paths([tmp_path / "nowhere.pdf"])
    await until(lambda: not hint.isVisible(), what="hint gone with a job")
    tab.search.setText("no such name")
    assert hint.isVisible() and hint.text() == "No jobs match this filter."
    tab.search.clear()
    assert not hint.isVisible()


async def test_failed_is_offered_once_in_the_state_filter(window: Any) -> None:
    box = window.queue_tab.state_filter
    texts = [box.itemText(i) for i in range(box.count())]
    assert texts.count("Failed") == 1 and "Failed or timed out" in texts


async def test_add_keeps_the_operators_selection_and_names_what_was_skipped(
    window: Any, tmp_path: Path
) -> None:
    """New rows are shown, not selected: a whole batch selected by itself armed
    *Cancel* for all of it."""
    tab = window.queue_tab
    told = notes(window)
    folder = tmp_path / "in"
    folder.mkdir()
    for n in range(3):
        text_pdf(folder / f"scan{n}.pdf")
    (folder / "notes.docx").write_bytes(b"PK\3\4 not a scan")
    (folder / "budget.xls").write_bytes(b"\xd0\xcf\x11\xe0")
    await tab.add_paths([tmp_path / "first_missing.pdf"])
    assert tab.selected_jobs() == []
    tab.table.selectRow(0)
    tab.search.setText("first")  # a filter that would hide the new rows
    await tab.add_paths([folder])
    assert tab.search.text() == ""  # cleared, so the new rows show
    selected = {job.file_name for job in tab.selected_jobs()}
    assert selected == {"first_missing.pdf"}  # what the operator chose, nothing more
    assert {"scan0.pdf", "scan1.pdf", "scan2.pdf"} <= {j.file_name for j in tab.model.jobs()}
    assert "budget.xls" in told[-1] and "notes.docx" in told[-1]
    assert "not supported" in told[-1]


async def test_open_source_file_without_a_viewer_says_so(
    window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docbatch_gui._qt.queue import files

    tab = window.queue_tab
    told = notes(window)
    pdf = text_pdf(tmp_path / "a.pdf")
    await tab.add_paths([pdf])
    tab.table.selectRow(0)  # new rows are not selected by themselves
    monkeypatch.setattr(files.QDesktopServices, "openUrl", lambda _url: False)
    tab._open_source()
    assert told[-1].startswith("No program on this computer opens a.pdf")
    pdf.unlink()
    tab._open_source()
    assert "no longer there" in told[-1]


async def test_the_close_question_names_what_each_button_does(window: Any) -> None:
    asked = asyncio.ensure_future(window._ask_close(2))
    await until(
        lambda: isinstance(QApplication.activeModalWidget(), QMessageBox), what="the question"
    )
    box = QApplication.activeModalWidget()
    assert isinstance(box, QMessageBox)
    assert {b.text() for b in box.buttons()} >= {"Wait for running jobs", "Quit now"}
    assert box.button(QMessageBox.StandardButton.Yes) is None
    assert box.defaultButton().text() == "Quit now"
    box.defaultButton().click()
    assert await asyncio.wait_for(asked, 5) == "quit"


async def test_a_number_out_of_range_is_marked_not_dropped(window: Any) -> None:
    tab = window.settings_tab
    window.tabs.setCurrentWidget(tab)
    field = tab.editors["max_concurrency"]  # 1 to 20
    box = field.editor
    box.setFocus()
    box.selectAll()
    QTest.keyClicks(box, "50")
    assert box.text() == "50"
    assert field.has_error and "20" in field.error.text()
    assert not tab.save_button.isEnabled()
    tab.editors["batch_size"].editor.setFocus()  # leaving the box keeps what was typed
    QApplication.processEvents()
    assert box.text() == "50" and field.has_error
    box.setFocus()
    box.selectAll()
    QTest.keyClicks(box, "12")
    assert not field.has_error and field.value() == 12


async def test_ocr_languages_are_checked_against_tesseract(window: Any) -> None:
    from docbatch_gui.pipeline.ocr_tesseract import tesseract_languages

    if not tesseract_languages():
        pytest.skip("Tesseract is not installed")
    tab = window.settings_tab
    engine = tab.editors["ocr_engine"].editor
    engine.setCurrentIndex(engine.findData("tesseract"))
    languages = tab.editors["ocr_languages"]
    languages.editor.setText("ru,klingon")
    assert languages.has_error
    assert languages.error.text().startswith("Tesseract cannot read klingon")
    languages.editor.setText("ru,en")
    assert not languages.has_error


async def test_files_queued_by_the_cli_while_paused_show_before_resume(
    window: Any, tmp_path: Path
) -> None:
    tab = window.queue_tab
    window.ctx.host.pause()
    await until(lambda: window.ctx.host.state.value == "paused", what="paused")
    other = DocBatchApp(window.ctx.app.settings)  # as `docbatch process` does
    try:
        pdf = text_pdf(tmp_path / "from_cli.pdf")
        await asyncio.get_running_loop().run_in_executor(None, other.add, [pdf])
    finally:
        other.close()
    await until(
        lambda: any(j.file_name == "from_cli.pdf" for j in tab.model.jobs()),
        timeout=20,
        what="the CLI's job in the queue",
    )
    job = next(j for j in tab.model.jobs() if j.file_name == "from_cli.pdf")
    assert job.state.value == "queued"
    window.ctx.host.resume()


async def test_in_russian_a_file_not_read_is_named_with_its_reason_in_russian(
    russian: None, window: Any, tmp_path: Path
) -> None:
    """A folder holding a link loop and a pipe: the notice names both, and why, in the
    interface language (the reasons are messages from the core)."""
    import os

    tab = window.queue_tab
    told = notes(window)
    folder = tmp_path / "in"
    folder.mkdir()
    text_pdf(folder / "scan.pdf")
    (folder / "loop.pdf").symlink_to(folder / "loop.pdf")
    os.mkfifo(folder / "pipe.pdf")
    await tab.add_paths([folder])
    assert "loop.pdf (петля символических ссылок)" in told[-1], told[-1]
    assert "pipe.pdf (не обычный файл (канал, сокет или устройство))" in told[-1]
