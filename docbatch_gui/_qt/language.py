"""The interface language, for everything that words text outside Qt's translator:
core messages, document-type and field labels, exports."""

from __future__ import annotations

from PySide6.QtCore import QLocale

from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.domain.messages import LANGUAGES


def interface_language() -> str:
    """The interface language ("en", "ru"): the translator installs it as the locale
    (English for a locale messages are not written in, such as "C")."""
    name = QLocale().name().split("_")[0]
    return name if name in LANGUAGES else "en"


def error_text(error: BaseException) -> str:
    """An error as the window shows it: a core error in the interface language (from
    its message code when it has one), anything else as it describes itself."""
    if isinstance(error, DocBatchError):
        return error.words(interface_language())
    return str(error)
