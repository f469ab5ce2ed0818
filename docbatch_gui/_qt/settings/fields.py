"""One editor per setting, chosen from the field's type in the settings model.

The tab never lists widgets by hand: a new field in ``Settings`` gets an editor of
the right kind, its range and a tooltip naming its environment variable. Each editor
can show why its value is refused, and can be locked when the environment sets it.
"""

from __future__ import annotations

import types
import typing
from enum import Enum
from pathlib import Path
from typing import Any

from pydantic import SecretStr
from pydantic.fields import FieldInfo
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.language import interface_language
from docbatch_gui._qt.settings.spin import RangeDoubleSpinBox, RangeSpinBox
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.dialogs import choose_files, choose_folder
from docbatch_gui._qt.widgets.layout import filled
from docbatch_gui.i18n import _
from docbatch_gui.llm.catalogue import load_catalogue
from docbatch_gui.settings.choices import CHOICE_FIELDS, fixed_choices
from docbatch_gui.settings.invalid import describe_allowed
from docbatch_gui.settings.keystore import system_keyring, uses_file
from docbatch_gui.settings.secrets import URI_VARIABLES, join_uri_password, split_uri_password

#: str fields offered as a fixed list
CHOICES: dict[str, tuple[str, ...]] = {name: fixed_choices(name) for name in CHOICE_FIELDS}
#: Path fields that name a folder (the others name a file)
FOLDERS = {"data_dir"}
NOTE_STYLE = "color: palette(placeholder-text); font-size: 11px;"
ERROR_STYLE = "color: #c62828; font-size: 11px;"
INT_MAX = 2**31 - 1


def value_label(value: str, field: str = "") -> str:
    """A choice as the operator reads it; the stored value stays the item's data.
    ``field``: the setting, where the same value means another thing there."""
    if field == "mail_after":
        return {
            "flag": _("Flagged as taken (and read)"),
            "move": _("Moved to the folder below"),
            "keep": _("Left as it is"),
        }[value]
    if field == "mail_security":
        return {
            "tls": _("TLS (IMAPS)"),
            "starttls": _("STARTTLS"),
            "plain": _("Plain, unencrypted (password in the clear)"),
        }[value]
    labels = {
        "offline": _("Offline: read here, nothing sent to Claude"),
        "sync": _("Sync: each file read by Claude at once"),
        "batch": _("Batch: half the price, answers within 24 hours"),
        "json_schema": _("JSON schema (structured output)"),
        "tool": _("Tool call"),
        "google_vision": _("Google Cloud Vision"),
        "tesseract": _("Tesseract (on this computer)"),
        "none": _("None: scanned pages are not read"),
        "auto": _("Auto (cheapest the model allows)"),
        "off": _("Off"),
        "on": _("On"),
        "low": _("Low"),
        "medium": _("Medium"),
        "high": _("High"),
        "xhigh": _("Very high"),
        "max": _("Maximum"),
        "inprocess": _("In this program"),
        "celery": _("Celery workers"),
        "keep": _("Kept where it is"),
        "move": _("Moved to processed/ or failed/"),
        # the command line's language: a language is named in itself
        "": _("The system's"),
        "en": "English",
        "ru": "Русский",
    }
    if value in labels:
        return labels[value]

    model = load_catalogue().get(value)
    if model is not None:  # "claude-haiku-5-5 · Claude Haiku 5.5 · $0.1 / $0.5 per MTok"
        per = _("per million tokens")
        legacy = _("legacy")
        status = "" if model.status == "current" else f" · {legacy}"
        return (
            f"{value} · {model.name} · ${model.prices.input:g} / ${model.prices.output:g} "
            f"{per}{status}"
        )
    return value


def base_type(annotation: Any) -> tuple[Any, bool]:
    """``X | None`` -> (X, True)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return args[0], True
    return annotation, False


def bounds(info: FieldInfo) -> tuple[float | None, float | None]:
    lower = upper = None
    for item in info.metadata:
        lower = getattr(item, "ge", lower)
        upper = getattr(item, "le", upper)
    return lower, upper


#: settings that hold a calendar year: shown without a thousands separator
YEAR_FIELDS = frozenset({"check_min_year"})


class FieldEditor(QWidget):
    """The editor of one setting, with a note line and an error line under it."""

    changed = Signal()

    def __init__(self, name: str, info: FieldInfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.variable = info.alias or name.upper()
        self.kind, self.optional = base_type(info.annotation)
        self.password: QLineEdit | None = None
        self.locked = False
        row = QHBoxLayout()
        row.setSpacing(6)
        self.editor = self._make_editor(name, info, row)
        narrow = isinstance(self.editor, QSpinBox | QDoubleSpinBox)
        row.insertWidget(0, self.editor, 0 if narrow else 1)
        self.note = QLabel()
        self.note.setStyleSheet(NOTE_STYLE)
        self.note.setWordWrap(True)
        self.note.hide()
        self.error = QLabel()
        self.error.setObjectName("fieldError")
        self.error.setStyleSheet(ERROR_STYLE)
        self.error.setWordWrap(True)
        self.error.hide()
        filled(QVBoxLayout(self), row, self.note, self.error, margins=0).setSpacing(2)
        if self.kind is SecretStr or self.password is not None:
            self.set_note(self._secret_note())
        tip = _("Environment variable: {variable}\nAllowed: {allowed}").format(
            variable=self.variable, allowed=self._allowed(name, info)
        )
        self.editor.setToolTip(tip)

    # -- building --------------------------------------------------------------------------

    def _allowed(self, name: str, info: FieldInfo) -> str:
        """What the field accepts, in the interface language (``describe_allowed``'s
        words for the GUI)."""
        if isinstance(self.editor, QComboBox):
            items = [str(self.editor.itemData(i)) for i in range(self.editor.count())]
            if interface_language() != "en":  # values to type, not words: quoted
                items = [f"«{item}»" for item in items]
            return _("one of {choices}").format(choices=", ".join(items))
        lower, upper = bounds(info)
        if self.kind is bool:
            text = _("true or false")
        elif self.kind in (int, float) and lower is not None and upper is not None:
            text = (
                _("a whole number from {lower} to {upper}")
                if self.kind is int
                else _("a number from {lower} to {upper}")
            ).format(lower=lower, upper=upper)
        elif self.kind is Path:
            text = _("a path")
        elif self.kind in (str, SecretStr):
            text = _("text")
        else:
            text = describe_allowed(name).words(interface_language())
        return _("{text}, or empty").format(text=text) if self.optional else text

    def _make_editor(self, name: str, info: FieldInfo, row: QHBoxLayout) -> QWidget:
        kind = self.kind
        if name in CHOICES or (isinstance(kind, type) and issubclass(kind, Enum)):
            combo = QComboBox()
            # "data" is a job's mode DocBatch chooses for a file of data, not a setting
            items = CHOICES.get(name) or [m.value for m in kind if m.value != "data"]
            for item in items:
                combo.addItem(value_label(item, name), item)
            combo.currentIndexChanged.connect(self.changed)
            return combo
        if kind is bool:
            check = QCheckBox(_("Enabled"))
            check.toggled.connect(self.changed)
            return check
        if kind in (int, float):
            lower, upper = bounds(info)
            spin: RangeSpinBox | RangeDoubleSpinBox
            if kind is int:
                spin = RangeSpinBox()
                spin.setRange(int(lower or 0), int(upper if upper is not None else INT_MAX))
            else:
                spin = RangeDoubleSpinBox()
                spin.setDecimals(2)
                spin.setRange(float(lower or 0), float(upper if upper is not None else 1e9))
            # thousands grouped ("10 000 rows"), but not a year: "2,000" is no year
            spin.setGroupSeparatorShown(name not in YEAR_FIELDS)
            spin.setMinimumWidth(140)
            spin.valueChanged.connect(self.changed)
            spin.lineEdit().textEdited.connect(self.changed)  # an out-of-range number too
            row.addStretch(1)  # a number needs no full-width box
            return spin
        edit = QLineEdit()
        edit.textChanged.connect(self.changed)
        if kind is SecretStr:
            edit.setEchoMode(QLineEdit.EchoMode.Password)
            edit.setPlaceholderText(_("not set"))
        elif self.variable in URI_VARIABLES:
            edit.setPlaceholderText(_("not set: the embedded default is used"))
            self.password = QLineEdit()
            self.password.setEchoMode(QLineEdit.EchoMode.Password)
            self.password.setPlaceholderText(_("password"))
            self.password.setMaximumWidth(180)
            self.password.textChanged.connect(self.changed)
            row.addWidget(self.password)
        elif kind is Path:
            edit.setPlaceholderText(_("not set"))
            browse = QPushButton(_("Browse…"))
            browse.clicked.connect(lambda: spawn(self._browse()))
            row.addWidget(browse)
            self.browse = browse
        elif self.optional:
            edit.setPlaceholderText(_("not set"))
        return edit

    async def _browse(self) -> None:
        assert isinstance(self.editor, QLineEdit)
        current = self.editor.text() or str(Path.home())
        if self.name in FOLDERS:
            chosen = await choose_folder(self, _("Choose a folder"), current)
        else:
            files = await choose_files(self, _("Choose a file"), current, "")
            chosen = files[0] if files else None
        if chosen:
            self.editor.setText(chosen)

    # -- value -----------------------------------------------------------------------------

    def value(self) -> Any:
        editor = self.editor
        if isinstance(editor, QComboBox):
            return editor.currentData()
        if isinstance(editor, QCheckBox):
            return editor.isChecked()
        if isinstance(editor, RangeSpinBox | RangeDoubleSpinBox):
            typed = editor.typed()  # out of range: judged (and refused) as typed
            if typed is not None:
                return int(typed) if isinstance(editor, QSpinBox) and typed.is_integer() else typed
            return editor.value()
        if isinstance(editor, QSpinBox | QDoubleSpinBox):
            return editor.value()
        assert isinstance(editor, QLineEdit)
        text = editor.text().strip()
        if self.password is not None and text:
            text = join_uri_password(text, self.password.text())
        return None if self.optional and not text else text

    def set_value(self, value: Any) -> None:
        editor = self.editor
        if self.locked and self.kind is SecretStr:
            return  # an environment secret is not copied into a widget
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        if isinstance(value, Enum):
            value = value.value
        if isinstance(editor, QComboBox):
            editor.setCurrentIndex(max(0, editor.findData(value)))
        elif isinstance(editor, QCheckBox):
            editor.setChecked(bool(value))
        elif isinstance(editor, QSpinBox):
            editor.setValue(int(value))
        elif isinstance(editor, QDoubleSpinBox):
            editor.setValue(float(value))
        else:
            assert isinstance(editor, QLineEdit)
            text = "" if value is None else str(value)
            if self.password is not None:
                text, password = split_uri_password(text)
                self.password.setText("" if self.locked else password or "")
            editor.setText(text)

    # -- state -----------------------------------------------------------------------------

    def _secret_note(self) -> str:
        """Where a secret typed here goes: the operator must know, as it differs
        between a desktop and a server."""
        if system_keyring() is not None:
            return _("Stored in the system keyring, never in the settings file.")
        if uses_file():  # the file is named once, at the top of the page
            return _("Stored in the encrypted file named at the top, never in the settings file.")
        return _(
            "No keyring on this computer: it cannot be stored; set {variable} in the environment."
        ).format(variable=self.variable)

    def set_note(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def set_error(self, reason: str | None) -> None:
        """Mark the field (red border) and say why under it; None clears."""
        self.error.setText(reason or "")
        self.error.setVisible(bool(reason))
        if reason:
            self.editor.setStyleSheet("border: 1px solid #c62828; border-radius: 3px;")
        else:
            self.editor.setStyleSheet("")

    @property
    def has_error(self) -> bool:
        return bool(self.error.text())

    def lock_to_environment(self) -> None:
        """The environment sets this one: show it, but edit it there."""
        self.locked = True
        for widget in (self.editor, self.password, getattr(self, "browse", None)):
            if isinstance(widget, QLineEdit):
                widget.setReadOnly(True)
            elif widget is not None:
                widget.setEnabled(False)
        if self.kind is SecretStr and isinstance(self.editor, QLineEdit):
            self.editor.clear()  # an environment secret is not copied into a widget
            self.editor.setPlaceholderText(_("set (hidden)"))
        if self.password is not None:
            self.password.clear()
            self.password.hide()
        self.set_note(
            _("Set by the environment variable {variable}; change it there.").format(
                variable=self.variable
            )
        )
