"""The results view: matches with scores and explanations, the page thumbnail, manual
assignment with its audit record, unmatched documents, export, search again, delete."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from PySide6.QtWidgets import QMessageBox

from docbatch_gui._qt.tasks import spawn
from tests.gui.conftest import signal_future, until
from tests.gui.registry_helpers import add_documents, config_file, registry_xlsx

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])


async def searched(window: Any, tmp_path: Path) -> tuple[int, dict[str, int]]:
    """A registry imported and searched through the core, its results open."""
    app = window.ctx.app
    ids = add_documents(app)
    summary = app.registry.import_registry(
        registry_xlsx(tmp_path / "реестр.xlsx"), config_file(tmp_path / "config.json")
    )
    app.registry.search(summary.registry_id)
    tab = window.registry_tab
    window.tabs.setCurrentWidget(tab)
    await tab.refresh()
    await tab.open_results(summary.registry_id)
    return summary.registry_id, ids


async def test_selecting_a_row_explains_the_match_with_the_page(
    window: Any, tmp_path: Path
) -> None:
    await searched(window, tmp_path)
    tab = window.registry_tab
    results = tab.results
    assert results.model.rowCount() == 5
    assert tab.model.data(tab.model.index(0, 6)) == "4 / 5"  # matched column of the list
    assert results.select_row(5)
    detail = results.detail
    await until(lambda: not detail.thumb.pixmap().isNull(), what="thumbnail")
    assert "score <b>75%</b>" in detail.score_label.text()
    assert detail.breakdown.rowCount() == 3
    assert detail.breakdown.item(2, 5).text() == "✗"  # amount 600 vs 500
    assert "amount differs" in detail.notes.text()
    values = {
        detail.values.item(r, 0).text(): detail.values.item(r, 1).text()
        for r in range(detail.values.rowCount())
    }
    assert values["Контрагент"] == "ООО Ромашка"  # filled down
    assert results.select_row(6)
    assert "no document" in detail.score_label.text()
    assert not detail.unassign_button.isEnabled()

    # filters narrow the rows through the core
    await results.set_filter("no_match")
    assert [r.row for r in results.model.rows()] == [6]
    await results.set_filter("warnings")
    assert {r.row for r in results.model.rows()} >= {5, 6}
    await results.set_filter("all")
    folder = Path(os.environ.get("DOCBATCH_SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    results.select_row(5)
    await until(lambda: not detail.thumb.pixmap().isNull(), what="thumbnail")
    window.grab().save(str(folder / "registry_results.png"))


async def test_manual_assign_and_unassign_are_audited(window: Any, tmp_path: Path) -> None:
    registry_id, ids = await searched(window, tmp_path)
    app = window.ctx.app
    results = window.registry_tab.results
    assert results.select_row(6)
    spawn(results.assign_dialog())
    await until(lambda: getattr(results, "picker", None) is not None, what="picker")
    await until(results.picker.isVisible, what="picker shown")
    picker = results.picker
    picker.search.setText("5555")
    assert picker.proxy.rowCount() == 1
    assigned = signal_future(results.assigned)
    picker.accept()
    assert await asyncio.wait_for(assigned, 10) == (6, ids["СЧ-5555"])
    row = next(r for r in results.model.rows() if r.row == 6)
    assert row.document is not None and row.result.manual
    assert window.ctx.operator in results.detail.history.toPlainText()

    unassigned = signal_future(results.assigned)
    results.detail.unassign_button.click()
    assert await asyncio.wait_for(unassigned, 10) == (6, None)
    audit = app.store.list_assignments(registry_id)
    assert [(a.row, a.document_id, a.previous_document_id, a.who) for a in audit] == [
        (6, ids["СЧ-5555"], None, window.ctx.operator),
        (6, None, ids["СЧ-5555"], window.ctx.operator),
    ]

    # a document another row holds is refused with the core's reason
    errors = signal_future(window.ctx.notifier.shown)
    spawn(results.assign(6, ids["СЧ-1001"]), results._failed)
    text, level = await asyncio.wait_for(errors, 10)
    assert level == "error" and "already matched to row 4" in text


async def test_export_unmatched_search_again_and_delete(window: Any, tmp_path: Path) -> None:
    await searched(window, tmp_path)
    tab = window.registry_tab
    results = tab.results
    out = tmp_path / "export.xlsx"
    shown = signal_future(window.ctx.notifier.shown)
    assert await results.export(out) == 5
    text, level = await shown
    assert level == "success" and str(out) in text
    sheet = openpyxl.load_workbook(out).active
    assert sheet.max_row == 6 and sheet.cell(1, 2).value == "Контрагент"

    spawn(results.show_unmatched())
    await until(lambda: getattr(results, "unmatched", None) is not None, what="unmatched")
    await until(results.unmatched.isVisible, what="unmatched shown")
    assert results.unmatched.total == 1  # СЧ-5555
    assert results.unmatched.tree.topLevelItem(0).child(0).text(2) == "СЧ-5555"
    results.unmatched.reject()

    done = signal_future(window.ctx.notifier.shown)
    await tab.search_selected()
    text, level = await done
    assert level == "success" and "4 rows matched" in text

    async def answer_yes() -> None:
        await until(lambda: isinstance(QApp.activeModalWidget(), QMessageBox), what="confirm")
        box = QApp.activeModalWidget()
        box.button(QMessageBox.StandardButton.Yes).click()

    from PySide6.QtWidgets import QApplication as QApp

    spawn(answer_yes())
    await tab.delete_selected()
    assert window.ctx.app.store.list_registries() == []
    assert tab.empty.isVisible() and not results.isVisible()


async def test_the_last_results_show_at_the_start_without_open_results(
    window: Any, tmp_path: Path
) -> None:
    """A registry searched before the window came up (a restart): showing the tab shows
    its results; the one open last wins over the first one searched."""
    app = window.ctx.app
    add_documents(app)
    first = app.registry.import_registry(
        registry_xlsx(tmp_path / "реестр.xlsx"), config_file(tmp_path / "config.json")
    )
    app.registry.search(first.registry_id)
    second = app.registry.import_registry(
        registry_xlsx(tmp_path / "второй.xlsx"), config_file(tmp_path / "config.json")
    )
    app.registry.search(second.registry_id)
    window.ctx.qsettings.setValue("registry/last_open", second.registry_id)
    tab = window.registry_tab
    window.tabs.setCurrentWidget(tab)
    results = tab.results
    await until(lambda: results.registry_id == second.registry_id, what="results restored")
    await until(lambda: results.model.rowCount() == 5, what="the rows")
    assert results.isVisible() and tab.selected().id == second.registry_id
