"""Finding DocBatch's own English words in what the command line printed in Russian.

What a Russian run may still show in Latin letters is not DocBatch's words: names
(DocBatch, SQLite, Tesseract, Claude), settings (``WEBHOOK_URL``), commands quoted in
backticks, model ids, codes, paths and file names, and the values read from the
documents. Everything else in Latin letters is an English word the catalogue missed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: names and values that stay as they are in every language
NAMES = frozenset(
    {
        "DocBatch", "docbatch", "SQLite", "PyMuPDF", "Tesseract", "tesseract", "OCR",
        "Claude", "Anthropic", "Haiku", "Sonnet", "Opus", "MongoDB", "MinIO", "Redis",
        "Celery", "Google", "Cloud", "Vision", "README", "Configuration", "Ctrl", "TLS",
        "API", "INN", "VAT", "RUB", "USD", "eng", "rus", "osd", "ru", "en", "quick_check",
        # an API's effort levels, the layout named "all", the schema's "v"
        "low", "medium", "high", "max", "default", "all", "v", "s",
    }
)  # fmt: skip
#: a backticked command, a path, a setting, an id with digits or dashes, a file name
_NOT_WORDS = re.compile(
    r"`[^`]*`"
    r"|(?:[A-Za-z]:)?[\\/][^\s:;,()]+"
    r"|\b[A-Z][A-Z0-9_]*=\S*"
    r"|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b"
    r"|--[a-z-]+"
    r"|\b[\w.-]*\d[\w.-]*\b"
    r"|\b\w+\.(?:pdf|jpg|jpeg|png|tiff?|xlsx|csv|json|xml)\b"
    r"|\b[a-z]+_[a-z_]+\b"
)
_LATIN = re.compile(r"[A-Za-z]+")


def english_words(text: str, data: Iterable[str] = ()) -> list[str]:
    """The Latin words of ``text`` that are not names, settings or ``data`` (the
    values and file names a run read, which are shown as they are)."""
    for value in sorted(data, key=len, reverse=True):
        text = text.replace(value, " ")
    text = _NOT_WORDS.sub(" ", text)
    return [w for w in _LATIN.findall(text) if w not in NAMES]
