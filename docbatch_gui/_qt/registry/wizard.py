"""The registry setup wizard: six pages over one configuration draft.

Every page owns a part of the configuration JSON (the same format the CLI takes,
columns as Excel letters) and writes it with ``part()``; the wizard merges the parts
and validates them with the core's ``load_config``, so the wizard can never save or
import something the CLI would refuse. Previews read the whole sheet, so they run in
a worker thread, debounced, and only the answer to the latest settings is shown.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QDialog, QFileDialog, QWidget, QWizard

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.language import error_text
from docbatch_gui._qt.registry.latest import LatestRunner
from docbatch_gui._qt.registry.pages_file import TEMPLATE_FOLDER_KEY, FilePage
from docbatch_gui._qt.registry.pages_match import FiltersPage
from docbatch_gui._qt.registry.pages_rules import RulesPage
from docbatch_gui._qt.registry.pages_setup import MappingPage, RowsPage
from docbatch_gui._qt.registry.run_page import RunPage
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.dialogs import ask
from docbatch_gui._qt.widgets.fit import fit_to_screen
from docbatch_gui._qt.widgets.folders import remember_folder, remembered_folder
from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.i18n import _
from docbatch_gui.registry.config import RegistryConfig, load_config
from docbatch_gui.registry.layout import SheetLayout, with_layout
from docbatch_gui.registry.service import PreviewResult

log = logging.getLogger(__name__)

PREVIEW_ROWS = 20


class RegistryWizard(QWizard):
    #: the latest preview (PreviewResult) for the current settings
    preview_changed = Signal(object)
    #: a preview failed: the message for the operator
    preview_failed = Signal(str)
    #: import and search finished: the registry id
    registry_done = Signal(int)

    def __init__(
        self, ctx: GuiContext, parent: QWidget | None = None, *, registry_id: int | None = None
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.registry_id = registry_id
        self.file: Path | None = None
        self.preview: PreviewResult | None = None
        self.preview_error = ""
        #: the rows guessed from the sheet (header, footer), and for which file and sheet
        self.sheet_layout: SheetLayout | None = None
        self.guessed_for: tuple[Path, str] | None = None
        #: a template was loaded: its rows are kept, nothing is guessed
        self.keep_layout = False
        #: closed while a run was going: close once the worker has stopped
        self.close_when_idle = False
        self.setWindowTitle(_("New registry"))
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.setOption(QWizard.WizardOption.HaveCustomButton1, True)
        self.setOption(QWizard.WizardOption.NoBackButtonOnLastPage, False)
        self.setButtonText(QWizard.WizardButton.CustomButton1, _("Save as template…"))
        self.customButtonClicked.connect(
            lambda which: spawn(self.save_template_dialog(), self._failed)
        )
        fit_to_screen(self, 1100, 720)  # smaller where the screen is (1024×640)

        self.runner = LatestRunner(self._preview_job, self)
        self.runner.ready.connect(self._preview_ready)
        self.runner.failed.connect(self._preview_failed)

        self.file_page = FilePage(self)
        self.rows_page = RowsPage(self)
        self.mapping_page = MappingPage(self)
        self.filters_page = FiltersPage(self)
        self.rules_page = RulesPage(self)
        self.run_page = RunPage(self)
        self.parts = [
            self.file_page,
            self.rows_page,
            self.mapping_page,
            self.filters_page,
            self.rules_page,
        ]
        for page in [*self.parts, self.run_page]:
            self.addPage(page)

    def reject(self) -> None:
        """Closing during a run cancels it first; the worker must not outlive the page."""
        if self.run_page.running:
            self.close_when_idle = True
            self.run_page.cancel_run()
            return
        self.runner.stop()
        self.rules_page.estimator.stop()
        super().reject()

    def accept(self) -> None:
        self.runner.stop()
        self.rules_page.estimator.stop()
        super().accept()

    # -- the configuration -----------------------------------------------------------

    def draft(self, *, rules: bool = True) -> dict[str, Any]:
        """The configuration JSON as the pages hold it now (not validated)."""
        data: dict[str, Any] = {}
        for page in self.parts:
            data.update(page.part())
        if not rules:
            data["rules"] = []  # previews do not match; a stale rule must not block them
        return data

    def config(self, *, rules: bool = True) -> RegistryConfig:
        """The validated configuration; ConfigError names the key path of a mistake."""
        return load_config(self.draft(rules=rules))

    def load_template(self, path: Path | str) -> RegistryConfig:
        config = load_config(path)
        self.keep_layout = True
        for page in self.parts:
            page.load(config)
        self.settings_changed()
        return config

    async def save_template_dialog(self) -> Path | None:
        folder = remembered_folder(self.ctx.qsettings, TEMPLATE_FOLDER_KEY)
        dialog = QFileDialog(self, _("Save as template"), folder, _("JSON (*.json)"))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix("json")
        if await ask(dialog) != QDialog.DialogCode.Accepted or not dialog.selectedFiles():
            return None
        out = Path(dialog.selectedFiles()[0])
        remember_folder(self.ctx.qsettings, TEMPLATE_FOLDER_KEY, out.parent)
        return self.save_template(out)

    def save_template(self, path: Path) -> Path:
        """Write the validated draft as JSON (letters as the operator saw them)."""
        self.config()  # refuse to save what could not be loaded back
        path.write_text(
            json.dumps(self.draft(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )
        self.ctx.notifier.notify(_("Template saved: {path}").format(path=path), "success")
        return path

    # -- live preview ----------------------------------------------------------------

    def settings_changed(self, now: bool = False) -> None:
        if self.file is not None:
            self.runner.request(now)
        self.run_page.refresh_start()

    def _needs_guess(self, file: Path, sheet: str | None) -> bool:
        """A new file or another sheet: its header and footer rows are guessed anew
        (a loaded template's rows are kept)."""
        if self.keep_layout:
            return False
        done = self.guessed_for
        return done is None or done[0] != file or (sheet is not None and sheet != done[1])

    def _preview_job(self) -> Callable[[], tuple[SheetLayout | None, PreviewResult]]:
        assert self.file is not None
        file, draft = self.file, self.draft(rules=False)
        service = self.ctx.app.registry
        if not self._needs_guess(file, draft.get("sheet")):
            config = load_config(draft)
            return lambda: (None, service.preview(file, config, rows=PREVIEW_ROWS))

        def guess_then_preview() -> tuple[SheetLayout | None, PreviewResult]:
            layout = service.layout(file, draft.get("sheet"))
            config = load_config(with_layout(draft, layout))
            return layout, service.preview(file, config, rows=PREVIEW_ROWS)

        return guess_then_preview

    def _preview_ready(self, answer: tuple[SheetLayout | None, PreviewResult]) -> None:
        layout, result = answer
        if layout is not None and self.file is not None:
            self.sheet_layout = layout
            self.guessed_for = (self.file, result.sheet)
            self.rows_page.show_layout(layout)
            self.filters_page.add_skip_words(layout.skip_words)
            log.info(
                "registry wizard: %s proposes header row %d, data from row %d, %d footer rows",
                self.file.name, layout.header_row, layout.data_start_row, len(layout.footer),
            )  # fmt: skip
        self.preview = result
        self.preview_error = ""
        self.preview_changed.emit(result)

    def _preview_failed(self, message: str) -> None:
        self.preview_error = message
        self.preview_failed.emit(message)

    def _failed(self, error: BaseException) -> None:
        if isinstance(error, DocBatchError | OSError):
            self.ctx.notifier.notify(error_text(error), "error")
