"""Review exports the documents it lists: options, a suggested file, a real workbook."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from docbatch_gui._qt.tasks import spawn
from tests.gui.conftest import until
from tests.gui.test_review import waiting_job

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])


async def test_review_exports_the_selected_jobs_documents(window: Any, tmp_path: Path) -> None:
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
