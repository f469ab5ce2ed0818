"""The registry wizard on a real .xlsx: every page, live previews, import and search,
cancel, and the force guard; screenshots of the filters and rules pages."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from PySide6.QtWidgets import QWizard

from docbatch_gui._qt.registry.models import RES_SCORE, ScoreRole
from docbatch_gui._qt.registry.wizard import RegistryWizard
from docbatch_gui._qt.tasks import spawn
from docbatch_gui.domain.registry import RegistryStatus
from docbatch_gui.registry.config import load_config
from tests.gui.conftest import until
from tests.gui.registry_helpers import SHEET, add_documents, config_file, registry_xlsx

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])
Opened = tuple[RegistryWizard, "asyncio.Task[Any]"]


def shots_dir(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("DOCBATCH_SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest_asyncio.fixture
async def open_wizard(window: Any) -> AsyncIterator[Callable[[], Awaitable[Opened]]]:
    """Opens the wizard from the tab; a wizard left open by a failing test is closed,
    or the window fixture's drain would wait for it forever."""
    tab = window.registry_tab
    tasks: list[asyncio.Task[Any]] = []

    async def opener() -> Opened:
        window.tabs.setCurrentWidget(tab)
        tasks.append(spawn(tab.new_registry()))
        await until(lambda: tab.wizard is not None and tab.wizard.isVisible(), what="wizard")
        assert tab.wizard is not None
        return tab.wizard, tasks[-1]

    yield opener
    for task in tasks:
        if not task.done() and tab.wizard is not None:
            tab.wizard.close_when_idle = False
            if tab.wizard.run_page.cancel is not None:
                tab.wizard.run_page.cancel.cancel()
            await until(lambda: not tab.wizard.run_page.running, what="run stopped")
            tab.wizard.reject()
        await asyncio.wait_for(asyncio.shield(task), 10)


async def settled(wizard: RegistryWizard) -> None:
    await asyncio.sleep(0)
    await until(lambda: not wizard.runner.busy, what="preview")


def next_page(wizard: RegistryWizard) -> None:
    assert wizard.button(QWizard.WizardButton.NextButton).isEnabled(), wizard.currentPage()
    wizard.next()


@pytest.mark.slow
async def test_wizard_walks_every_page_then_imports_and_searches(
    window: Any, open_wizard: Any, tmp_path: Path
) -> None:
    app = window.ctx.app
    ids = add_documents(app)
    xlsx = registry_xlsx(tmp_path / "реестр.xlsx")
    wizard, task = await open_wizard()

    # 1. file and sheet
    assert not wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    wizard.file_page.set_file(xlsx)
    await settled(wizard)
    assert wizard.preview is not None, wizard.preview_error
    assert wizard.preview.sheet_names == [SHEET, "Справка"]
    assert wizard.file_page.sheet.currentText() == SHEET
    assert wizard.file_page.name.text() == "реестр"
    next_page(wizard)

    # 2. header and data rows: proposed under the title, and the preview follows them
    page = wizard.rows_page
    assert (page.header_row.value(), page.data_row.value()) == (3, 4)  # guessed
    page.header_row.setValue(1)
    await settled(wizard)
    assert wizard.preview.headers[0] == "Реестр счетов за март 2024"
    page.header_row.setValue(3)
    page.data_row.setValue(4)
    await settled(wizard)
    assert page.data_row.value() == 4
    assert wizard.preview.headers == ["№ п/п", "Контрагент", "Номер счёта", "Дата", "Сумма"]
    assert page.model.rowCount() == 8  # rows 4..11 as parsed
    assert page.model.cell(0, 4) == "СЧ-1001"
    assert page.model.cell(3, 1) == "Totals row"  # the subtotal, shaded
    next_page(wizard)

    # 3. mapping: guessed from the headers, with samples
    mapping = wizard.mapping_page
    assert mapping.mapping() == {"number": "C", "date": "D", "amount": "E", "counterparty": "B"}
    assert "СЧ-1001" in mapping.combos["number"].currentText()
    assert "СЧ-1001" in mapping.sample_labels["number"].text()
    next_page(wizard)

    # 4. filters: counts and the filtered rows with reasons, edited in place
    filters = wizard.filters_page
    assert (wizard.preview.kept, wizard.preview.filtered) == (6, 2)  # the note is kept
    filters.required.setCurrentIndex(filters.required.findData(2))  # column C
    filters.fill_down.setText("B")
    await settled(wizard)
    assert (wizard.preview.kept, wizard.preview.filtered) == (5, 3)
    assert "<b>5</b> rows kept" in filters.status.text()
    reasons = [filters.model.cell(r, 1) for r in range(filters.model.rowCount())]
    assert [filters.model.cell(r, 0) for r in range(filters.model.rowCount())] == [7, 9, 11]
    assert reasons[0] == "Totals row: contains 'ИТОГО'"
    assert reasons[1] == "Required column is empty: required column C is empty"
    spawn(filters.open_full_list())
    await until(lambda: getattr(filters, "full_list", None) is not None, what="full list")
    await until(filters.full_list.isVisible, what="full list shown")
    assert filters.full_list.model.rowCount() == 3
    wizard.grab().save(str(shots_dir(tmp_path) / "registry_wizard_filters.png"))
    filters.full_list.reject()
    next_page(wizard)

    # 5. rules: the core's default from the mapping, and the pair count before running
    rules = wizard.rules_page
    part = rules.part()
    assert [s["field"] for s in part["rules"][0]["subrules"]] == ["number", "date", "amount"]
    assert part["rules"][0]["subrules"][0]["required"] is True
    await until(lambda: rules.pair_count is not None, what="pair count")
    assert 0 < rules.pair_count < 5 * 5
    assert "pairs to compare" in rules.pairs.text()
    wizard.grab().save(str(shots_dir(tmp_path) / "registry_wizard_rules.png"))
    template = wizard.save_template(tmp_path / "template.json")
    saved = load_config(template)  # the CLI's loader takes it
    assert saved.mapping == {"number": 2, "date": 3, "amount": 4, "counterparty": 1}
    assert saved.fill_down_columns == [1] and saved.required_column_index == 2
    next_page(wizard)

    # 6. import and search
    run = wizard.run_page
    assert "5 rows to import" in run.plan.text()
    assert run.bar.isHidden()  # no empty bar before anything runs
    run.start_button.click()
    await until(lambda: run.finished is not None, what="run started")
    assert await asyncio.wait_for(run.finished, 60) == "done"
    assert not run.bar.isHidden() and run.bar.value() == run.bar.maximum() == 1
    assert run.imported is not None and run.imported.kept == 5
    assert run.searched is not None and run.searched.matched == 4
    assert "<b>4</b> rows matched" in run.outcome.text()
    wizard.button(QWizard.WizardButton.FinishButton).click()
    registry_id = await asyncio.wait_for(task, 30)

    # the results view opens on the new registry
    results = window.registry_tab.results
    await until(lambda: results.registry_id == registry_id and results.model.rowCount() == 5)
    by_row = {r.row: r for r in results.model.rows()}
    assert by_row[4].document is not None and by_row[4].document.id == ids["СЧ-1001"]
    assert by_row[4].score == 1.0
    assert by_row[6].document is None  # null over wrong
    assert any(w.startswith("amount differs") for w in by_row[5].result.warnings_in())
    assert results.proxy.index(0, RES_SCORE).data(ScoreRole) == 1.0
    assert window.registry_tab.model.rowCount() == 1


@pytest.mark.slow
async def test_cancel_during_import_leaves_error_and_the_wizard_usable(
    window: Any, open_wizard: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = window.ctx.app
    add_documents(app)
    xlsx = registry_xlsx(tmp_path / "big.xlsx", extra_rows=2600)
    store = app.registry.store
    add_rows = store.add_registry_rows
    chunks: list[int] = []
    pressed = threading.Event()

    def held_add(registry_id: int, rows: Any) -> None:
        """A disk slow from the second chunk on, until Cancel is pressed: the import
        cannot end before the click however fast the machine (a sleep of 0.4 s per
        chunk was the bet that it would not)."""
        chunks.append(len(rows))
        if len(chunks) > 1:
            pressed.wait(120)  # a hang guard only: the test sets it at once
        add_rows(registry_id, rows)

    monkeypatch.setattr(store, "add_registry_rows", held_add)
    wizard, task = await open_wizard()
    wizard.file_page.set_file(xlsx)
    await settled(wizard)
    wizard.load_template(config_file(tmp_path / "config.json"))
    await settled(wizard)
    for _ in range(5):
        next_page(wizard)
    run = wizard.run_page
    assert wizard.currentPage() is run
    run.start_button.click()
    await until(lambda: "Importing: " in run.stage.text(), what="first chunk")
    run.cancel_button.click()
    pressed.set()
    assert await asyncio.wait_for(run.finished, 180) == "canceled"
    assert len(chunks) <= 2  # it stopped at the next chunk, not at the end (six)
    assert run.start_button.isEnabled() and not run.isComplete()
    (registry,) = store.list_registries()
    assert registry.status is RegistryStatus.ERROR
    assert "canceled" in (registry.task_error or "")
    wizard.reject()
    assert await asyncio.wait_for(task, 10) is None
    await until(lambda: window.registry_tab.model.rowCount() == 1, what="list")


async def test_reimport_after_search_offers_force(
    window: Any, open_wizard: Any, tmp_path: Path
) -> None:
    app = window.ctx.app
    add_documents(app)
    xlsx = registry_xlsx(tmp_path / "реестр.xlsx")
    config = config_file(tmp_path / "config.json")
    first = app.registry.import_registry(xlsx, config)
    app.registry.search(first.registry_id)

    wizard, task = await open_wizard()
    wizard.file_page.set_file(xlsx)
    await settled(wizard)
    wizard.load_template(config)
    await settled(wizard)
    for _ in range(5):
        next_page(wizard)
    run = wizard.run_page
    run.start_button.click()
    await until(lambda: run.finished is not None, what="run started")
    assert await asyncio.wait_for(run.finished, 30) == "needs_force"
    assert run.force_button.isVisible() and "Force reimport" in run.outcome.text()
    run.force_button.click()
    await until(lambda: run.finished is not None and not run.running, what="forced run")
    await until(lambda: run.done_id is not None, what="forced run done")
    assert run.done_id == first.registry_id
    wizard.accept()
    assert await asyncio.wait_for(task, 30) == first.registry_id
