"""The log panel: records from any thread arrive, filter, copy, clear; bounded."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from docbatch_gui._qt.widgets import log_handler as handler_module
from docbatch_gui._qt.widgets import log_panel as module
from docbatch_gui._qt.widgets.log_handler import PanelHandler, install_log_handler
from docbatch_gui._qt.widgets.log_panel import COL_LEVEL, COL_LOGGER, COL_MESSAGE, LogPanel
from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.messages import english
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import JobState, ProcessingMode
from docbatch_gui.engine.job_log import log_failure, log_halt, log_operator

log = logging.getLogger("docbatch_gui.test")


@pytest.fixture
def panel(qtbot: QtBot) -> Iterator[tuple[LogPanel, PanelHandler]]:
    widget = LogPanel()
    qtbot.addWidget(widget)
    handler = install_log_handler(widget)
    yield widget, handler
    handler.remove()


async def flushed(panel: LogPanel, rows: int) -> None:
    """Wait until the model holds ``rows`` lines (delivered on the GUI thread)."""
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def check() -> None:
        if panel.model.rowCount() >= rows and not done.done():
            done.set_result(None)

    panel.model.rowsInserted.connect(check)
    check()
    try:
        await asyncio.wait_for(done, 5)
    finally:
        panel.model.rowsInserted.disconnect(check)


@pytest.mark.asyncio
async def test_records_from_other_threads_arrive_in_batches(
    panel: tuple[LogPanel, PanelHandler],
) -> None:
    widget, _ = panel
    inserts: list[int] = []
    widget.model.rowsInserted.connect(lambda _p, first, last: inserts.append(last - first + 1))

    def work(n: int) -> None:
        for i in range(250):
            log.info("thread %d line %d", n, i)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert threading.current_thread() is threading.main_thread()
    await flushed(widget, 1000)
    assert widget.model.rowCount() == 1000
    assert len(inserts) < 10  # batched, not one insert per record
    assert "thread 3 line 249" in "\n".join(widget.lines_shown())


@pytest.mark.asyncio
async def test_filters_copy_and_clear(panel: tuple[LogPanel, PanelHandler]) -> None:
    widget, _ = panel
    log.info("invoice 42 read")
    log.warning("page 3 is blank")
    log.error("claude refused the key")
    try:
        raise ValueError("boom")
    except ValueError:
        log.exception("build failed")
    await flushed(widget, 4)

    widget.level.setCurrentIndex(widget.level.findData(logging.WARNING))
    assert widget.proxy.rowCount() == 3
    widget.search.setText("CLAUDE")
    assert [line.split(": ", 1)[1] for line in widget.lines_shown()] == ["claude refused the key"]
    widget.search.clear()
    widget.level.setCurrentIndex(0)
    assert widget.proxy.rowCount() == 4

    widget.copy()  # nothing selected: every line shown
    copied = QGuiApplication.clipboard().text().splitlines()
    assert "INFO" in copied[0] and copied[0].endswith("docbatch_gui.test: invoice 42 read")
    assert "ValueError: boom" in QGuiApplication.clipboard().text()

    selection = widget.view.selectionModel()
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    selection.select(widget.proxy.index(1, 0), flags)
    widget.copy()
    assert QGuiApplication.clipboard().text().endswith("docbatch_gui.test: page 3 is blank")

    widget.clear_button.click()
    assert widget.model.rowCount() == 0


@pytest.mark.asyncio
async def test_the_panel_keeps_only_the_last_records(
    panel: tuple[LogPanel, PanelHandler], monkeypatch: pytest.MonkeyPatch
) -> None:
    widget, _ = panel
    widget.model.limit = 50
    monkeypatch.setattr(module, "MAX_RECORDS", 50)
    for i in range(120):
        log.info("line %d", i)
    widget.flush()
    for i in range(120, 130):
        log.info("line %d", i)
    widget.flush()
    lines = widget.lines_shown()
    assert len(lines) == 50 and lines[-1].endswith("line 129") and lines[0].endswith("line 80")


def test_the_handler_is_removable_and_restores_the_root_level(qtbot: QtBot) -> None:
    root = logging.getLogger()
    before = root.level
    root.setLevel(logging.WARNING)
    try:
        widget = LogPanel()
        qtbot.addWidget(widget)
        handler = install_log_handler(widget)
        assert handler in root.handlers and root.level == logging.INFO
        handler.remove()
        handler.remove()  # twice is fine
        assert handler not in root.handlers and root.level == logging.WARNING
        log.warning("not shown")
        widget.flush()
        assert widget.model.rowCount() == 0
    finally:
        root.setLevel(before)


@pytest.mark.asyncio
async def test_screenshot(panel: tuple[LogPanel, PanelHandler], tmp_path: Path) -> None:
    """The panel with a run's lines; DOCBATCH_SCREENSHOT_DIR refreshes the picture."""
    widget, _ = panel
    widget.resize(1000, 260)
    engine = logging.getLogger("docbatch_gui.engine.batch")
    engine.info("batch msgbatch_01K7Q3ZVA2CMHLNXJNJ4KQ2EFT: 4 requests for 2 jobs")
    logging.getLogger("docbatch_gui.llm.claude").info(
        "sync extraction start: 12 requests, concurrency 5"
    )
    logging.getLogger("docbatch_gui.engine.worker").warning(
        "scan_0042.pdf: page 3 is blank; kept for review"
    )
    logging.getLogger("docbatch_gui.llm.claude").error(
        "Claude is busy or failing (529: overloaded_error); it will be retried."
    )
    engine.info("batch msgbatch_01K7MZ8PD1RQT6W3B5YHC0XGNA ended: 1 succeeded")
    await flushed(widget, 5)
    widget.show()
    folder = Path(os.environ.get("DOCBATCH_SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    assert widget.grab().save(str(folder / "log_panel.png"))


@pytest.mark.asyncio
async def test_job_lines_are_worded_in_the_interface_language(
    panel: tuple[LogPanel, PanelHandler], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure, an operator's move and a halt read in Russian in a Russian window;
    the log file's line (the record's own text) stays English."""
    widget, _ = panel
    failed = Job(
        id=7,
        file_name="a.pdf",
        source_path="/in/a.pdf",
        sha256="0" * 64,
        size=1,
        mode=ProcessingMode.OFFLINE,
        state=JobState.FAILED,
        phase=None,
        error_kind=ErrorKind.UNSUPPORTED,
        error=str(english("pdf_password", file="a.pdf")),
        error_code="pdf_password",
        error_params={"file": "a.pdf"},
    )
    monkeypatch.setattr(handler_module, "interface_language", lambda: "ru")
    records: list[logging.LogRecord] = []
    catcher = logging.Handler()
    catcher.emit = records.append  # type: ignore[method-assign,assignment]
    logging.getLogger().addHandler(catcher)
    try:
        log_failure(failed)
        log_operator(failed, "queued again")
        log_halt(english("claude_key_refused", status=401, detail="invalid x-api-key"))
        await flushed(widget, 3)
    finally:
        logging.getLogger().removeHandler(catcher)
    shown = widget.lines_shown()
    assert any(
        "задание 7 (a.pdf): Ошибка [файл не подходит]: a.pdf: PDF защищён" in s for s in shown
    )
    assert any("задание 7 (a.pdf): снова в очереди (оператор)" in s for s in shown)
    assert any("очередь остановлена: Claude отклонил API-ключ" in s for s in shown)
    assert not any("password" in s or "by the operator" in s for s in shown)
    file_lines = [r.getMessage() for r in records]
    assert any(
        "job 7 (a.pdf) failed [unsupported]: a.pdf: the PDF is password" in s for s in file_lines
    )
    monkeypatch.setattr(handler_module, "interface_language", lambda: "en")
    log_operator(failed, "canceled")
    await flushed(widget, 4)
    assert "job 7 (a.pdf) canceled by the operator" in widget.lines_shown()[-1]


@pytest.mark.asyncio
async def test_a_librarys_chatter_stays_in_the_file_and_its_warnings_show(
    panel: tuple[LogPanel, PanelHandler],
) -> None:
    widget, _ = panel
    logging.getLogger("httpx").info('HTTP Request: POST http://x/v1/messages "200 OK"')
    logging.getLogger("httpx").warning("connection pool is full")
    log.info("ours")
    await flushed(widget, 2)
    widget.flush()
    assert [line.split(": ", 1)[1] for line in widget.lines_shown()] == [
        "connection pool is full",
        "ours",
    ]
    model = widget.model
    assert model.index(0, COL_LOGGER).data() == "Network"
    assert model.index(1, COL_LOGGER).data() == "Application"
    assert model.index(1, COL_LOGGER).data(Qt.ItemDataRole.ToolTipRole) == "docbatch_gui.test"
    assert model.index(0, COL_LEVEL).data() == "Warning"
    widget.search.setText("network")  # the area in words is searched too
    assert widget.proxy.rowCount() == 1


@pytest.mark.asyncio
async def test_in_russian_levels_sources_and_a_librarys_line_are_russian(
    russian: None, qtbot: QtBot
) -> None:
    widget = LogPanel()
    qtbot.addWidget(widget)
    handler = install_log_handler(widget)
    try:
        logging.getLogger("docbatch_gui.engine.worker").warning("plain english line")
        logging.getLogger("urllib3").error("Connection reset by peer")
        await flushed(widget, 2)
    finally:
        handler.remove()
    model = widget.model
    shown = [
        model.index(r, c).data() for r in range(2) for c in (COL_LEVEL, COL_LOGGER, COL_MESSAGE)
    ]
    assert shown[:2] == ["Внимание", "Обработка"] and shown[3:5] == ["Ошибка", "Сеть"]
    assert shown[2] == shown[5] and shown[5].startswith("Техническое сообщение на английском")
    tip = model.index(1, COL_MESSAGE).data(Qt.ItemDataRole.ToolTipRole)
    assert tip == "Connection reset by peer"
    assert widget.lines_shown()[1].endswith("urllib3: Connection reset by peer")  # a copy
