"""The registry screens speak in words, in the interface language: sub-rules, document
fields, comparators, warnings, filter reasons; the export's headers follow the
language and its file name is suggested; the wizard's file field takes a typed path
and its name follows the chosen file."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from docbatch_gui._qt.registry.pages_rules import R_CMP, R_DOC, R_FIELD, key_of
from docbatch_gui._qt.registry.results import export_file_name
from docbatch_gui._qt.registry.wizard import RegistryWizard
from docbatch_gui._qt.tasks import drain, spawn
from tests.gui.conftest import until
from tests.gui.registry_helpers import add_documents, config_file, registry_xlsx

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])


async def searched(window: Any, tmp_path: Path) -> int:
    app = window.ctx.app
    add_documents(app)
    summary = app.registry.import_registry(
        registry_xlsx(tmp_path / "реестр.xlsx"), config_file(tmp_path / "config.json")
    )
    app.registry.search(summary.registry_id)
    tab = window.registry_tab
    window.tabs.setCurrentWidget(tab)
    await tab.refresh()
    await tab.open_results(summary.registry_id)
    return summary.registry_id


async def test_the_match_is_explained_in_words(window: Any, tmp_path: Path) -> None:
    await searched(window, tmp_path)
    detail = window.registry_tab.results.detail
    assert window.registry_tab.results.select_row(5)
    subrules = [detail.breakdown.item(r, 0).text() for r in range(detail.breakdown.rowCount())]
    assert subrules[0] == "Number (similar number) *"
    assert subrules[2] == "Amount (amount ± tolerance)"
    tip = detail.breakdown.item(0, 0).toolTip()
    assert "Number (from the document)" in tip and "from_content" not in tip


async def test_warnings_and_export_in_russian(russian: None, window: Any, tmp_path: Path) -> None:
    await searched(window, tmp_path)
    results = window.registry_tab.results
    assert results.select_row(5)
    notes = results.detail.notes.text()
    assert "сумма расходится" in notes and "amount differs" not in notes
    assert "Номер (похожий номер)" in results.detail.breakdown.item(0, 0).text()
    out = tmp_path / "export.xlsx"
    assert await results.export(out) == 5
    book = openpyxl.load_workbook(out, read_only=True)
    assert book.sheetnames[0] == "Реестр"
    header = next(book.worksheets[0].iter_rows(max_row=1, values_only=True))
    assert "Предупреждения" in header


async def test_export_follows_english_and_suggests_a_name(window: Any, tmp_path: Path) -> None:
    await searched(window, tmp_path)
    results = window.registry_tab.results
    out = tmp_path / "export.xlsx"
    assert await results.export(out) == 5
    book = openpyxl.load_workbook(out, read_only=True)
    assert book.sheetnames == ["Registry", "Documents without a row"]
    header = next(book.worksheets[0].iter_rows(max_row=1, values_only=True))
    assert "Warnings" in header and "Score" in header
    assert export_file_name("реестр март/2024", date(2026, 1, 31)) == (
        "registry_реестр_март_2024_2026-01-31.xlsx"
    )
    task = spawn(results.export_dialog())
    await until(lambda: getattr(results, "export_file_dialog", None) is not None, what="dialog")
    dialog = results.export_file_dialog
    await until(dialog.isVisible, what="dialog shown")
    chosen = dialog.selectedFiles()[0]
    assert Path(chosen).name == f"registry_реестр_{date.today().isoformat()}.xlsx"
    dialog.reject()
    await task


async def test_rules_speak_in_words_and_keep_their_keys(window: Any, tmp_path: Path) -> None:
    xlsx = registry_xlsx(tmp_path / "реестр.xlsx")
    wizard = RegistryWizard(window.ctx, window)
    try:
        wizard.file_page.set_file(xlsx)
        wizard.load_template(config_file(tmp_path / "config.json"))
        await until(lambda: wizard.preview is not None, what="preview")
        rules = wizard.rules_page
        # the template's rules, loaded before the columns were known, keep their fields
        loaded = [sub["field"] for sub in rules.part()["rules"][0]["subrules"]]
        assert len(set(loaded)) == len(loaded), loaded
        rules.set_defaults()
        assert rules.combo(0, R_DOC).currentText() == "Number (from the document)"
        assert key_of(rules.combo(0, R_DOC)) == "from_content.number"
        assert rules.combo(0, R_CMP).currentText() == "similar number"
        assert rules.combo(1, R_FIELD).currentText() == "Date"  # the registry field too
        assert key_of(rules.combo(1, R_FIELD)) == "date"
        docs = [rules.combo(0, R_DOC).itemText(i) for i in range(rules.combo(0, R_DOC).count())]
        assert "Date (from the file name)" in docs and "handwritten numbers" in docs
        rules.combo(0, R_DOC).setCurrentText("from_filename.number")  # typed as a key
        subrule = rules.part()["rules"][0]["subrules"][0]
        assert subrule["document_field"] == "from_filename.number"
        assert subrule["comparator"] == "number"
        rules._pairs_ready((12, 5))
        assert "12" in rules.pairs.text() and "Phase" not in rules.pairs.text()
    finally:
        wizard.runner.stop()
        wizard.rules_page.estimator.stop()
        wizard.deleteLater()
        await drain()


async def test_the_wizard_takes_a_typed_path_and_its_name_follows_the_file(
    window: Any, tmp_path: Path
) -> None:
    first = registry_xlsx(tmp_path / "march.xlsx")
    second = registry_xlsx(tmp_path / "april.xlsx")
    wizard = RegistryWizard(window.ctx, window)
    try:
        page = wizard.file_page
        page.path.setText(str(first))
        page.path.editingFinished.emit()
        assert wizard.file == first and page.name.text() == "march"
        page.path.setText(str(second))
        page.path.editingFinished.emit()
        assert wizard.file == second and page.name.text() == "april"  # not stuck on march
        page.name.setText("Q2 registry")  # typed by the operator: kept
        page.set_file(first)
        assert page.name.text() == "Q2 registry"
        page.path.setText(str(tmp_path / "nope.xlsx"))
        page.path.editingFinished.emit()
        assert wizard.file == first and "No file at" in page.status.text()
    finally:
        wizard.runner.stop()
        wizard.rules_page.estimator.stop()
        wizard.deleteLater()
        await drain()


async def test_a_refused_workbook_is_said_in_russian(
    russian: None, window: Any, tmp_path: Path
) -> None:
    old = tmp_path / "old.xlsx"
    old.write_bytes(bytes.fromhex("D0CF11E0A1B11AE1") + b"\0" * 600)
    wizard = RegistryWizard(window.ctx, window)
    try:
        wizard.file_page.set_file(old)
        await until(lambda: bool(wizard.preview_error), what="the refusal")
        assert "старый файл Excel 97-2003" in wizard.preview_error
        assert "старый файл Excel" in wizard.file_page.status.text()
    finally:
        wizard.runner.stop()
        wizard.rules_page.estimator.stop()
        wizard.deleteLater()
        await drain()


async def test_the_rule_docbatch_made_is_named_in_russian_and_saved_as_default(
    russian: None, window: Any, tmp_path: Path
) -> None:
    """The rules page showed the rule's key, «default», in a Russian window."""
    from docbatch_gui._qt.registry.pages_rules import R_NAME

    wizard = RegistryWizard(window.ctx, window)
    try:
        wizard.file_page.set_file(registry_xlsx(tmp_path / "реестр.xlsx"))
        wizard.load_template(config_file(tmp_path / "config.json"))
        await until(lambda: wizard.preview is not None, what="preview")
        rules = wizard.rules_page
        rules.set_defaults()
        assert rules.table.item(0, R_NAME).text() == "основное"
        assert [r["name"] for r in rules.part()["rules"]] == ["default"]
        rules.table.item(0, R_NAME).setText("по номеру")  # the operator's own name
        assert "по номеру" in [r["name"] for r in rules.part()["rules"]]
    finally:
        wizard.runner.stop()
        wizard.rules_page.estimator.stop()
        wizard.deleteLater()
        await drain()
