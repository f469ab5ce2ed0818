"""Export the documents a tab shows (its selection, or what its filter lets through)
to xlsx, csv or json in a saved layout: the window's side of ``docbatch export``."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QWidget,
)

from docbatch_gui._qt.context import GuiContext, interface_language
from docbatch_gui._qt.widgets.dialogs import ask
from docbatch_gui._qt.widgets.folders import remember_folder, remembered_folder
from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.i18n import _, ngettext
from docbatch_gui.outbound.documents import ExportOptions, StateFilter

#: where the last export went (QSettings), so the next one starts there
EXPORT_FOLDER_KEY = "export/documents_folder"
LAYOUT_KEY = "export/documents_layout"


class ExportDocumentsDialog(QDialog):
    def __init__(
        self, parent: QWidget, ctx: GuiContext, scope: str, state: StateFilter = "all"
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Export documents"))
        form = QFormLayout(self)
        form.addRow(QLabel(scope))
        self.layout_box = QComboBox()
        for name, layout in ctx.app.exports.layouts().items():
            shown = _("1C: load from a tabular document") if name == "1c" else name
            if name == "all":
                shown = _("All columns")
            self.layout_box.addItem(shown, name)
            self.layout_box.setItemData(
                self.layout_box.count() - 1,
                ", ".join(c.key.removeprefix("field:") for c in layout.columns),
                Qt.ItemDataRole.ToolTipRole,
            )
        saved = self.layout_box.findData(str(ctx.qsettings.value(LAYOUT_KEY, "all")))
        self.layout_box.setCurrentIndex(max(0, saved))
        form.addRow(_("Columns"), self.layout_box)
        self.state_box = QComboBox()
        for value, label in (
            ("all", _("All documents")),
            ("done", _("Checked (confirmed or needing no review)")),
            ("needs_review", _("Waiting for review")),
        ):
            self.state_box.addItem(label, value)
        self.state_box.setCurrentIndex(max(0, self.state_box.findData(state)))
        form.addRow(_("Documents"), self.state_box)
        self.language_box = QComboBox()
        self.language_box.addItem("English", "en")
        self.language_box.addItem("Русский", "ru")
        self.language_box.setCurrentIndex(max(0, self.language_box.findData(interface_language())))
        form.addRow(_("Headers in"), self.language_box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        buttons.addButton(_("Choose file…"), QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


async def export_documents(
    parent: QWidget, ctx: GuiContext, job_ids: list[int], scope: str, state: StateFilter = "all"
) -> Path | None:
    """Ask for the layout and the file, write it off the GUI thread, say how it went."""
    if not job_ids:
        ctx.notifier.notify(_("There are no documents to export here."), "info")
        return None
    options_dialog = ExportDocumentsDialog(parent, ctx, scope, state)
    parent.export_options_dialog = options_dialog  # type: ignore[attr-defined]  # tests
    if await ask(options_dialog) != QDialog.DialogCode.Accepted:
        return None
    layout_name = str(options_dialog.layout_box.currentData())
    ctx.qsettings.setValue(LAYOUT_KEY, layout_name)
    folder = remembered_folder(ctx.qsettings, EXPORT_FOLDER_KEY)
    files = QFileDialog(
        parent, _("Export documents"), folder, _("Excel (*.xlsx);;CSV (*.csv);;JSON (*.json)")
    )
    files.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    files.setDefaultSuffix("xlsx")
    files.selectFile(f"documents_{date.today().isoformat()}.xlsx")
    parent.export_file_dialog = files  # type: ignore[attr-defined]  # tests reach it
    if await ask(files) != QDialog.DialogCode.Accepted or not files.selectedFiles():
        return None
    out = Path(files.selectedFiles()[0])
    remember_folder(ctx.qsettings, EXPORT_FOLDER_KEY, out.parent)
    options = ExportOptions(
        language=str(options_dialog.language_box.currentData()),
        state=options_dialog.state_box.currentData(),
        job_ids=tuple(job_ids),
    )
    exports = ctx.app.exports

    def write() -> int:
        return exports.export(out, exports.layout(layout_name), options)

    try:
        rows = await asyncio.to_thread(write)
    except (DocBatchError, OSError) as exc:
        ctx.notifier.notify(_("Export failed: {error}").format(error=exc), "error")
        return None
    ctx.notifier.notify(
        ngettext(
            "{count} document exported to {folder}", "{count} documents exported to {folder}", rows
        ).format(count=rows, folder=out),
        "success",
    )
    return out
