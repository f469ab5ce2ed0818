"""A page's notes in every store: the English text, the code and the parameters.

``Page.render_error`` and ``Page.orientation_note`` (and the OCR cache's note) are
messages (``domain.messages.Message``). A store keeps each as three fields, as a job
keeps its error: ``<name>`` (the English text scripts and older versions read),
``<name>_code`` and ``<name>_params``. A row written before codes were kept has only
its text and reads back as that text (a message without a code).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from typing import Any

from docbatch_gui.domain.messages import Message, stored

#: the fields of a page and of an OCR cache record that are messages
PAGE_NOTES = ("render_error", "orientation_note")
OCR_NOTES = ("orientation_note",)


def note_fields(item: object, names: Iterable[str], *, as_json: bool = False) -> dict[str, Any]:
    """``item``'s notes ``names`` as stored fields; ``as_json``: the parameters as JSON
    text (an SQL column), else as a mapping (a document store)."""
    out: dict[str, Any] = {}
    for name in names:
        note: Message | None = getattr(item, name)
        text, code, params = note.columns() if note is not None else ("", None, None)
        out[name] = text
        out[f"{name}_code"] = code
        out[f"{name}_params"] = (
            json.dumps(params, ensure_ascii=False) if as_json and params is not None else params
        )
    return out


def notes_of(row: Mapping[str, Any], names: Iterable[str]) -> dict[str, Message | None]:
    """The notes ``names`` a stored row holds, as messages (None when empty). Broken
    parameters (a row damaged by hand) leave the note as its stored text."""
    out: dict[str, Message | None] = {}
    for name in names:
        params = row.get(f"{name}_params")
        code = row.get(f"{name}_code")
        if code and isinstance(params, str) and _wordable(code, params):
            out[name] = Message(code, json.loads(params))
            continue
        if isinstance(params, str):
            try:
                params = json.loads(params)
            except ValueError:
                params = None
        out[name] = stored(
            row.get(name) or "", code, params if isinstance(params, Mapping) else None
        )
    return out


@functools.lru_cache(maxsize=1024)
def _wordable(code: str, params: str) -> bool:
    """Whether a note's code and parameters (JSON text) read back as that message
    (``messages.stored``), worked out once per distinct note: every page of a scan
    holds the same few, and a job's pages are read back several times."""
    try:
        values = json.loads(params)
    except ValueError:
        return False
    return isinstance(values, Mapping) and stored("", code, values) is not None
