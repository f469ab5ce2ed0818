"""Where a file dialog opens: the folder this dialog used last, else the last folder
the operator used in any DocBatch dialog (the files just added, another export), and
only then the home folder. A first export used to open in the home folder although
the operator had just added files from elsewhere.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

#: the last folder used by any dialog
ANY_KEY = "folders/last"


def remembered_folder(qsettings: QSettings, key: str) -> str:
    for name in (key, ANY_KEY):
        folder = str(qsettings.value(name, "") or "")
        if folder and Path(folder).is_dir():
            return folder
    return str(Path.home())


def remember_folder(qsettings: QSettings, key: str, folder: Path | str) -> None:
    qsettings.setValue(key, str(folder))
    qsettings.setValue(ANY_KEY, str(folder))
