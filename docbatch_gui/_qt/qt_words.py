"""Qt's own strings that Qt's Russian catalogue (``qtbase_ru.qm``, shipped with
PySide6) lacks for the running Qt version: the non-native file dialog says
"&Look in:" and "Files of &type:" where the catalogue knows "Look in:" and "Files of
type:" (the accelerators were added in Qt 6), and the file list's sizes.

They are translated in DocBatch's own ``.ts`` under Qt's context names, so the
translator ``i18n`` installs answers them when Qt's does not. Nothing calls this
function: it exists so that ``lupdate`` (``scripts/i18n.py``) finds the strings.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def qt_strings() -> list[str]:
    translate = QCoreApplication.translate
    return [
        translate("QFileDialog", "&Look in:"),
        translate("QFileDialog", "Files of &type:"),
        translate("QFileDialog", "Save &as:"),
        translate("QFileDialog", "Confirm Replace? "),
        translate("QFileSystemModel", "%1 bytes"),
        translate("QFileSystemModel", "%1 byte(s)"),
    ]
