"""Wizard page 1: the registry file (chosen, typed or pasted), its sheet and a name.

The name follows the file until the operator types one: choosing another file must
not leave the first file's name behind.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSignalBlocker
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from docbatch_gui._qt.registry.pages_setup import WizardPart
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.dialogs import choose_files
from docbatch_gui._qt.widgets.folders import remember_folder, remembered_folder
from docbatch_gui._qt.widgets.layout import STRETCH, filled
from docbatch_gui.i18n import _
from docbatch_gui.registry.config import RegistryConfig
from docbatch_gui.registry.service import PreviewResult

if TYPE_CHECKING:
    from docbatch_gui._qt.registry.wizard import RegistryWizard

#: where the registry file and the templates were last chosen (each its own folder)
REGISTRY_FOLDER_KEY = "registry/file_folder"
TEMPLATE_FOLDER_KEY = "registry/template_folder"


class FilePage(WizardPart):
    def __init__(self, wizard: RegistryWizard) -> None:
        super().__init__(wizard)
        self.setTitle(_("File and sheet"))
        self.setSubTitle(
            _(
                "Choose the Excel registry (.xlsx, .xlsm) and the sheet "
                "that holds the list, or start from a saved template."
            )
        )
        self.path = QLineEdit()  # a path may be typed or pasted as well as chosen
        self.path.setPlaceholderText(_("Type or paste a path, or choose a file"))
        self.path.editingFinished.connect(self.typed_path)
        #: the name last filled in from a file: a name the operator typed is kept
        self._suggested_name = ""
        browse = QPushButton(_("Choose file…"))
        browse.clicked.connect(lambda: spawn(self.browse(), wizard._failed))
        template = QPushButton(_("Load template…"))
        template.clicked.connect(lambda: spawn(self.browse_template(), wizard._failed))
        self.sheet = QComboBox()
        self.sheet.currentIndexChanged.connect(lambda _i: self.owner.settings_changed(now=True))
        self.name = QLineEdit()
        self.template_label = QLabel()
        row = filled(QHBoxLayout(), (self.path, 1), browse)
        form = QFormLayout()
        form.addRow(_("File"), row)
        form.addRow(_("Sheet"), self.sheet)
        form.addRow(_("Name"), self.name)
        form.addRow(_("Template"), template)
        form.addRow("", self.template_label)
        filled(QVBoxLayout(self), form, self.status, STRETCH)

    async def browse(self) -> None:
        qsettings = self.owner.ctx.qsettings
        files = await choose_files(
            self,
            _("Registry file"),
            remembered_folder(qsettings, REGISTRY_FOLDER_KEY),
            _("Excel (*.xlsx *.xlsm);;All files (*)"),
        )
        if files:
            remember_folder(qsettings, REGISTRY_FOLDER_KEY, Path(files[0]).parent)
            self.set_file(Path(files[0]))

    async def browse_template(self) -> None:
        qsettings = self.owner.ctx.qsettings
        files = await choose_files(
            self,
            _("Registry template"),
            remembered_folder(qsettings, TEMPLATE_FOLDER_KEY),
            _("JSON (*.json);;All files (*)"),
        )
        if files:
            remember_folder(qsettings, TEMPLATE_FOLDER_KEY, Path(files[0]).parent)
            self.owner.load_template(files[0])
            self.template_label.setText(_("Loaded {name}").format(name=Path(files[0]).name))

    def typed_path(self) -> None:
        """A path typed in the field is read as if chosen; a wrong one is said at once."""
        text = self.path.text().strip().strip('"')
        if not text or (self.owner.file is not None and Path(text) == self.owner.file):
            return
        path = Path(text).expanduser()
        if not path.is_file():
            self.on_failed(_("No file at {path}: check the path.").format(path=path))
            return
        self.set_file(path)

    def set_file(self, path: Path) -> None:
        self.owner.file = path
        self.owner.preview = None
        self.path.setText(str(path))
        name = self.name.text().strip()
        if not name or name == self._suggested_name:  # follows the file until edited
            self._suggested_name = path.stem
            self.name.setText(path.stem)
        self.status.setText(_("Reading the sheet…"))
        self.completeChanged.emit()
        self.owner.settings_changed(now=True)

    def part(self) -> dict[str, Any]:
        return {"sheet": self.sheet.currentText() or None}

    def load(self, config: RegistryConfig) -> None:
        if config.sheet:
            self._sheets([config.sheet], config.sheet)

    def _sheets(self, names: list[str], current: str) -> None:
        with QSignalBlocker(self.sheet):
            if [self.sheet.itemText(i) for i in range(self.sheet.count())] != names:
                self.sheet.clear()
                self.sheet.addItems(names)
            self.sheet.setCurrentText(current)

    def on_preview(self, result: PreviewResult) -> None:
        self._sheets(result.sheet_names, result.sheet)
        super().on_preview(result)
