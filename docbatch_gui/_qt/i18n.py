"""Qt translations: ``docbatch_gui/resources/i18n/docbatch_<lang>.qm``, made from
``.ts`` sources.

The language is the one chosen in Settings, else the system locale; English is the
source language and needs no file.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QLibraryInfo, QLocale, QSettings, QTranslator
from PySide6.QtWidgets import QApplication

from docbatch_gui._qt.queue.jobs_model import refresh_labels
from docbatch_gui.resources import resources_dir

log = logging.getLogger(__name__)

LANGUAGES = {"en": "English", "ru": "Русский"}
#: where the Settings tab stores the choice ("" = the system's language)
LANGUAGE_KEY = "ui/language"
_installed: list[QTranslator] = []


def system_language() -> str:
    name = QLocale.system().name().split("_")[0]
    return name if name in LANGUAGES else "en"


def chosen_language(qsettings: QSettings, override: str | None = None) -> str:
    """The language to start in: ``--lang``, else Settings' choice, else the system's."""
    choice = override or str(qsettings.value(LANGUAGE_KEY, "") or "")
    return choice if choice in LANGUAGES else system_language()


def install_translator(app: QApplication, language: str = "") -> str:
    """Install the translators for ``language`` (or the system's); return it."""
    language = language if language in LANGUAGES else system_language()
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    # Number formats and document-type labels follow the chosen language too.
    QLocale.setDefault(
        QLocale(QLocale.Language.Russian if language == "ru" else QLocale.Language.English)
    )
    if language != "en":
        _load(app, language)
    # Labels kept between calls (job states) are read again in the new language.

    refresh_labels()
    return language


def _load(app: QApplication, language: str) -> None:
    ours = QTranslator(app)
    path = resources_dir() / "i18n" / f"docbatch_{language}.qm"
    if ours.load(str(path)):
        app.installTranslator(ours)
        _installed.append(ours)
    else:
        log.warning("no translation file %s; the interface stays in English", str(path))
    qt_base = QTranslator(app)  # Qt's own dialogs (file dialogs, message box buttons)
    if qt_base.load(
        f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    ):
        app.installTranslator(qt_base)
        _installed.append(qt_base)
