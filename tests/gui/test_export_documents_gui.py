"""Review exports the documents it lists: options, a suggested file, a real workbook."""

from __future__ import annotations

import csv
from datetime import date
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.export_documents import EXPORT_FOLDER_KEY
from tests.gui.conftest import until
from tests.gui.test_review import waiting_job

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])


def quiet(window: Any, folder: Path) -> None:
    """No engine to take the hand-made job, and exports into the test's folder."""
    window.ctx.host.stop()
    window.ctx.qsettings.setValue(EXPORT_FOLDER_KEY, str(folder))


async def test_review_exports_the_selected_jobs_documents(window: Any, tmp_path: Path) -> None:
    quiet(window, tmp_path)
    app = window.ctx.app
    job_id = waiting_job(app)
    tab = window.review_tab
    window.tabs.setCurrentWidget(tab)
    await tab.refresh()
    assert tab.select(job_id, 0)
    said: list[tuple[str, str]] = []
    window.ctx.notifier.shown.connect(lambda text, kind: said.append((text, kind)))
    task = spawn(tab.export_listed())
    await until(lambda: getattr(tab, "export_options_dialog", None) is not None, what="options")
    options = tab.export_options_dialog
    await until(options.isVisible, what="options shown")
    layouts = [options.layout_box.itemData(i) for i in range(options.layout_box.count())]
    assert layouts[:2] == ["all", "1c"]
    options.language_box.setCurrentIndex(options.language_box.findData("ru"))
    options.accept()
    await until(lambda: getattr(tab, "export_file_dialog", None) is not None, what="file dialog")
    files = tab.export_file_dialog
    await until(files.isVisible, what="file dialog shown")
    assert Path(files.selectedFiles()[0]).name == f"documents_{date.today().isoformat()}.xlsx"
    out = Path(files.selectedFiles()[0])  # the suggested name, in the last folder used
    files.accept()
    result = await task
    assert result == out, said
    rows = list(openpyxl.load_workbook(out).active.iter_rows(values_only=True))
    assert rows[0][:4] == ("Задание", "Файл", "Страницы", "Тип")
    assert [r[0] for r in rows[1:]] == [job_id, job_id]  # its two documents


async def test_the_queue_exports_what_its_filter_shows(window: Any, tmp_path: Path) -> None:
    quiet(window, tmp_path)
    app = window.ctx.app
    job_id = waiting_job(app)
    tab = window.queue_tab
    tab.load(app.jobs())
    tab.table.clearSelection()
    task = spawn(tab.export_shown())
    await until(lambda: getattr(tab, "export_options_dialog", None) is not None, what="options")
    options = tab.export_options_dialog
    await until(options.isVisible, what="options shown")
    options.accept()
    await until(lambda: getattr(tab, "export_file_dialog", None) is not None, what="file dialog")
    files = tab.export_file_dialog
    await until(files.isVisible, what="file dialog shown")
    files.selectNameFilter("CSV (*.csv)")
    files.accept()
    out = await task
    assert out is not None and out.parent == tmp_path and out.suffix == ".csv"
    rows = list(csv.reader(out.read_text("utf-8-sig").splitlines()))
    assert [r[0] for r in rows[1:]] == [str(job_id), str(job_id)]


@pytest.mark.asyncio(loop_factories=["qasync"])
async def test_the_status_bar_names_the_watched_folders_and_a_lost_one(qtbot: Any) -> None:
    from types import SimpleNamespace

    from docbatch_gui._qt.widgets.watch_status import WatchStatus
    from docbatch_gui.domain.messages import Message

    watching = SimpleNamespace(folders=[Path("/mnt/scans/inbox")], problems={})
    ctx = SimpleNamespace(host=SimpleNamespace(watching=watching))
    label = WatchStatus(ctx)  # type: ignore[arg-type]
    qtbot.addWidget(label)
    label.refresh()
    assert not label.isHidden() and label.text() == "Watching inbox"
    watching.problems = {Path("/mnt/scans/inbox"): Message.plain("/mnt/scans/inbox: missing")}
    label.refresh()
    assert "cannot be reached" in label.text() and "missing" in label.toolTip()
    ctx.host.watching = None
    label.refresh()
    assert label.isHidden()
