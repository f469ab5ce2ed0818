"""The interface language, for everything that words text outside the window's own
strings: core messages, document-type and field labels, exports."""

from __future__ import annotations

from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.i18n import current_language


def interface_language() -> str:
    """The interface language ("en", "ru"): the one ``_qt.i18n`` installed."""
    return current_language()


def error_text(error: BaseException) -> str:
    """An error as the window shows it: a core error in the interface language (from
    its message code when it has one), anything else as it describes itself."""
    if isinstance(error, DocBatchError):
        return error.words(interface_language())
    return str(error)
