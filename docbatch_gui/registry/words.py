"""The registry's keys in an operator's words: a filtered row's reason and detail, a
sub-rule's comparator and document field.

A registry configuration speaks in keys (``from_content.number``, ``fuzzy``) and a
filtered row keeps its detail as the English text the importer wrote ("contains
'ИТОГО'"), so rows stored by any version read the same. Here both become messages
(``domain.texts_registry``) that the window and the command line word in their
language.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from docbatch_gui.domain.messages import Message, word
from docbatch_gui.domain.registry import FilteredRowRecord
from docbatch_gui.i18n import current_language, translation
from docbatch_gui.registry.config import DEFAULT_RULE

_SKIP_WORD = re.compile(r"^contains (?P<word>.+)$")
_REQUIRED = re.compile(r"^required column (?P<column>\S+) is empty$")
_TOO_FEW = re.compile(r"^(?P<filled>\d+) filled cells, fewer than (?P<minimum>\d+)$")


def filter_message(record: FilteredRowRecord) -> Message | None:
    """The message a filtered row's detail words, read back from that English text;
    None for a detail of another form (it is then shown as it is)."""
    detail = record.detail
    if record.reason == "empty_row" and detail == "empty row":
        return Message("filter_empty_row")
    if record.reason == "skip_word" and (found := _SKIP_WORD.match(detail)):
        try:
            text = ast.literal_eval(found["word"])
        except (ValueError, SyntaxError):
            return None
        return Message("filter_skip_word", {"word": str(text)})
    if record.reason == "required_empty" and (found := _REQUIRED.match(detail)):
        return Message("filter_required_empty", {"column": found["column"]})
    if record.reason == "too_few_cells" and (found := _TOO_FEW.match(detail)):
        return Message(
            "filter_too_few_cells",
            {"filled": int(found["filled"]), "minimum": int(found["minimum"])},
        )
    return None


def filter_reason(reason: str, language: str = "en") -> str:
    """A filter reason code (``rows.REASON_*``) as a short label."""
    return word(f"reason_{reason}", {}, language, fallback=reason)


def filter_detail(record: FilteredRowRecord, language: str = "en") -> str:
    """Why this row was filtered, in ``language`` (the stored text when unknown)."""
    message = filter_message(record)
    if message is None:
        return record.detail
    return word(message.code, message.params, language, fallback=record.detail)


def comparator_words(comparator: str, language: str = "en") -> str:
    """How a sub-rule compares ("similar text" for ``fuzzy``)."""
    return word(f"comparator_{comparator}", {}, language, fallback=comparator)


def document_field_words(path: str, label: Callable[[str], str] = str, language: str = "en") -> str:
    """A sub-rule's document field, e.g. ``from_content.number`` → "Number (from the
    document)"; ``label`` gives a field's label (its key when it has none)."""
    if path == "handwritten_numbers":
        return word("source_handwritten", {}, language)
    source, _, key = path.partition(".")
    code = {"from_content": "source_content", "from_filename": "source_filename"}.get(source)
    if code is None or not key:
        return path
    return word(code, {"field": label(key)}, language)


def rule_words(name: str, language: str | None = None) -> str:
    """A rule's name as the operator reads it: the rule DocBatch made is named in
    ``language`` (the current one when None: the window's), a name the operator gave
    is their own."""
    if name != DEFAULT_RULE:
        return name
    return translation(language or current_language()).pgettext("registry rule name", "default")
