"""Text from outside (file names, scanned values, model answers, spreadsheets) made
safe to store, show and export.

A value may carry control characters (a PDF text layer, a 1C export, a model echoing
them) or Unicode direction overrides (a file named to look like another). Stored
values lose them (``clean_value``); file names keep their bytes but are shown with
the characters escaped (``printable``), so a terminal or log line cannot be rewritten
by an escape sequence and ``invoice\u202efdp.exe`` does not pass for a PDF.
"""

from __future__ import annotations

import unicodedata

#: direction embeddings, overrides and isolates, and the marks: invisible, and able
#: to make a text read as something else
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")
KEPT_CONTROLS = frozenset("\n\t")


def _unsafe(ch: str) -> bool:
    if ch in KEPT_CONTROLS:
        return False
    return ch in BIDI_CONTROLS or unicodedata.category(ch) in ("Cc", "Cs") or ch in "\ufffe\uffff"


def clean_value(text: str) -> str:
    """The text without control, surrogate or direction characters (newlines and tabs
    stay): what is stored as a field or registry value, and what Excel accepts."""
    if text.isprintable():
        return text
    return "".join(ch for ch in text if not _unsafe(ch))


def printable(text: str, *, lines: bool = False) -> str:
    """The text for one terminal or log line: control and direction characters (a
    newline too, unless ``lines``) shown as escapes instead of acting."""
    if text.isprintable():
        return text
    kept = KEPT_CONTROLS if lines else frozenset()
    return "".join(
        _escape(ch) if (_unsafe(ch) or ch in KEPT_CONTROLS) and ch not in kept else ch
        for ch in text
    )


def _escape(ch: str) -> str:
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (a file name's): the byte
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
