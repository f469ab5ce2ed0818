"""Qt's own strings that Qt's Russian catalogue (``qtbase_ru.qm``, shipped with
PySide6) lacks for the running Qt version: the non-native file dialog says
"&Look in:" and "Files of &type:" where the catalogue knows "Look in:" and "Files of
type:" (the accelerators were added in Qt 6), and the file list's sizes.

They are in DocBatch's gettext catalogue under Qt's context names, so that the
translator ``_qt.i18n`` installs answers them when Qt's does not. The list marks
them for extraction; their ``%1`` is Qt's placeholder, filled by Qt.
"""

from __future__ import annotations

from docbatch_gui.i18n import NP_

QT_STRINGS = [
    NP_("QFileDialog", "&Look in:"),
    NP_("QFileDialog", "Files of &type:"),
    NP_("QFileDialog", "Save &as:"),
    NP_("QFileDialog", "Confirm Replace? "),
    NP_("QFileSystemModel", "%1 bytes"),
    NP_("QFileSystemModel", "%1 byte(s)"),
]
#: the Qt contexts DocBatch's catalogue answers
QT_CONTEXTS = frozenset({"QFileDialog", "QFileSystemModel"})
