"""The registry wizard on an accountant's sheet (merged title, two-row header, text
dates, a totals row, a signature line): the rows it proposes, why it leaves rows out,
*Import and search* after a run; screenshots in English and Russian."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWizard

from tests.accountant_sheet import (
    FIRST_DATA,
    HEADER_ROW,
    HEADER_TOP,
    SIGNATURE_ROW,
    TOTALS_ROW,
    accountant_xlsx,
)
from tests.gui.conftest import until
from tests.gui.registry_helpers import add_documents
from tests.gui.test_registry_wizard import next_page, open_wizard, settled, shots_dir

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])
__all__ = ["open_wizard"]  # the fixture, shared with the wizard's main test


def statuses(page: Any) -> dict[int, str]:
    model = page.model
    return {model.cell(r, 0): model.cell(r, 1) for r in range(model.rowCount())}


@pytest.mark.slow
async def test_the_wizard_reads_an_accountants_sheet(
    window: Any, open_wizard: Any, tmp_path: Path
) -> None:
    add_documents(window.ctx.app)
    wizard, task = await open_wizard()
    wizard.resize(1024, 640)
    wizard.file_page.set_file(accountant_xlsx(tmp_path / "март.xlsx"))
    await settled(wizard)
    assert wizard.preview is not None, wizard.preview_error
    next_page(wizard)

    rows = wizard.rows_page
    assert (rows.header_row.value(), rows.header_top.value(), rows.data_row.value()) == (
        HEADER_ROW, HEADER_TOP, FIRST_DATA,
    )  # fmt: skip
    assert wizard.preview.headers[4:] == ["Сумма с НДС, руб.", "Сумма НДС, руб."]
    said = statuses(rows)
    assert said[FIRST_DATA] == "kept"
    assert said[TOTALS_ROW] == "Totals row"
    assert said[SIGNATURE_ROW] == "Signature line"
    assert rows.model.data(rows.model.index(SIGNATURE_ROW - FIRST_DATA, 1), 3) == (
        "Signature line: contains '___'"
    )  # the tooltip says which word
    wizard.grab().save(str(shots_dir(tmp_path) / "registry_wizard_layout_en.png"))
    next_page(wizard)

    mapping = wizard.mapping_page
    assert mapping.mapping()["amount"] == "E"  # found under "Сумма с НДС, руб."
    next_page(wizard)
    assert wizard.preview.kept == 5  # the signature line is left out with no setting
    next_page(wizard)
    await until(lambda: wizard.rules_page.pair_count is not None, what="pair count")
    next_page(wizard)

    run = wizard.run_page
    assert run.start_button.isEnabled()
    run.start_button.click()
    await until(lambda: run.finished is not None, what="run started")
    assert not run.start_button.isEnabled()  # while it runs
    assert await asyncio.wait_for(run.finished, 60) == "done"
    assert not run.start_button.isEnabled()  # the same run again would change nothing
    wizard.filters_page.min_filled.setValue(2)  # a change
    assert run.start_button.isEnabled()
    wizard.button(QWizard.WizardButton.FinishButton).click()
    await asyncio.wait_for(task, 30)


@pytest.mark.slow
async def test_the_wizard_says_why_in_russian(
    russian: None, window: Any, open_wizard: Any, tmp_path: Path
) -> None:
    wizard, _task = await open_wizard()
    wizard.resize(1024, 640)
    wizard.file_page.set_file(accountant_xlsx(tmp_path / "март.xlsx"))
    await settled(wizard)
    next_page(wizard)
    said = statuses(wizard.rows_page)
    assert said[TOTALS_ROW] == "Строка итогов"
    assert said[SIGNATURE_ROW] == "Строка подписи"
    # the counts name the left-out rows as the table does, not as "stop words"
    counts = wizard.rows_page.status.text()
    assert "Строка итогов: 1" in counts and "Строка подписи: 1" in counts, counts
    assert "стоп-слово" not in counts, counts
    # the signature line's text, cut at its column's width, reads whole on hover
    model = wizard.rows_page.model
    row = next(r for r in range(model.rowCount()) if model.cell(r, 0) == SIGNATURE_ROW)
    cells = [model.index(row, c) for c in range(2, model.columnCount())]
    tips = [str(model.data(i, Qt.ItemDataRole.ToolTipRole) or "") for i in cells]
    assert any("Главный бухгалтер" in tip and "____" in tip for tip in tips), tips
    wizard.grab().save(str(shots_dir(tmp_path) / "registry_wizard_layout_ru.png"))


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "ru"])
async def test_the_reason_a_row_is_left_out_reads_whole(
    language: str, window: Any, open_wizard: Any, tmp_path: Path
) -> None:
    """At 1024×640 the filters page's reason for a left-out row ("Строка подписи:
    содержит '___'" for "Главный бухгалтер ____ Петрова") reads whole in its cell, and
    its tooltip says it too."""
    from tests.gui.conftest import interface_in
    from tests.gui.test_sizes import cut_cells

    with interface_in(language):
        wizard, _task = await open_wizard()
        wizard.resize(1024, 640)
        wizard.file_page.set_file(accountant_xlsx(tmp_path / "март.xlsx"))
        await settled(wizard)
        for _page in range(3):
            next_page(wizard)
        page = wizard.filters_page
        assert wizard.currentPage() is page
        await settled(wizard)
        model = page.model
        reasons = {model.cell(r, 0): model.data(model.index(r, 1)) for r in range(model.rowCount())}
        assert SIGNATURE_ROW in reasons, reasons
        tip = model.data(model.index(list(reasons).index(SIGNATURE_ROW), 1), 3)
        assert tip == reasons[SIGNATURE_ROW]
        signature = list(reasons).index(SIGNATURE_ROW)
        cell_tip = model.data(model.index(signature, 2), 3)  # "№ п/п": the signature
        assert cell_tip.startswith("Главный бухгалтер") and cell_tip.endswith(tip)
        cut = [c for c in cut_cells(page.table) if "___" in c or "итог" in c.lower()]
        wizard.grab().save(str(shots_dir(tmp_path) / f"registry_wizard_filters_{language}.png"))
        assert not cut, cut
