"""The window's language: DocBatch's words come from the gettext catalogue
(:mod:`docbatch_gui.i18n`), Qt's own dialogs from Qt's base translations.

The language is the one chosen in Settings, else the system locale; English is the
source language and needs no file. Installing a language sets the catalogue's
language, the default locale (number formats) and Qt's translators; widgets built
afterwards are worded in it.
"""

from __future__ import annotations

from PySide6.QtCore import QLibraryInfo, QLocale, QObject, QSettings, QTranslator
from PySide6.QtWidgets import QApplication

from docbatch_gui._qt.qt_words import QT_CONTEXTS
from docbatch_gui._qt.queue.jobs_model import refresh_labels
from docbatch_gui.i18n import LANGUAGES, set_language, translation

#: where the Settings tab stores the choice ("" = the system's language)
LANGUAGE_KEY = "ui/language"
_installed: list[QTranslator] = []


class CatalogueTranslator(QTranslator):
    """Answers Qt's own strings that Qt's catalogue lacks (``_qt/qt_words.py``) from
    the gettext catalogue, the Qt context being the message context; anything else
    is left to the next translator.

    "Left" is a null string (``None``), not an empty one: Qt takes an empty string as
    the translation, so every Qt string neither catalogue has was blanked in Russian
    (a progress bar's "%p%": the bar showed no text)."""

    def __init__(self, language: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._catalogue = translation(language)

    def translate(  # None: a null QString, "no answer"
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str | None:
        if context not in QT_CONTEXTS:
            return None
        worded = self._catalogue.pgettext(context, source)
        return None if worded == source else worded

    def isEmpty(self) -> bool:
        return False


def system_language() -> str:
    name = QLocale.system().name().split("_")[0]
    return name if name in LANGUAGES else "en"


def chosen_language(qsettings: QSettings, override: str | None = None) -> str:
    """The language to start in: ``--lang``, else Settings' choice, else the system's."""
    choice = override or str(qsettings.value(LANGUAGE_KEY, "") or "")
    return choice if choice in LANGUAGES else system_language()


def install_translator(app: QApplication, language: str = "") -> str:
    """Word the window in ``language`` (or the system's) from now on; return it."""
    language = set_language(language if language in LANGUAGES else system_language())
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
    ours = CatalogueTranslator(language, app)
    app.installTranslator(ours)
    _installed.append(ours)
    qt_base = QTranslator(app)  # Qt's own dialogs (file dialogs, message box buttons)
    if qt_base.load(
        f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    ):
        app.installTranslator(qt_base)  # asked first: the one installed last
        _installed.append(qt_base)
