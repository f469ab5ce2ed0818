"""The codes behind a page's notes, kept beside their English texts in every store.

``Page.render_error`` and ``Page.orientation_note`` (and the OCR cache's note) are
stored as the English text scripts and older versions read; when the text words a
message (a ``domain.messages.Worded``), its code and parameters go to one JSON field,
``said`` (``{"orientation_note": {"code", "params"}, …}``), so the window can word it
again in its language. A row written before the field existed, or a note that was
never a message, has none and reads back as its plain text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from docbatch_gui.domain.messages import said_of, with_said

#: the fields of a page and of an OCR cache record that may word a message
PAGE_SAID = ("render_error", "orientation_note")
OCR_SAID = ("orientation_note",)


def said_body(item: object, names: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The codes of ``item``'s fields ``names`` that word a message (a Mongo field)."""
    return said_of({name: getattr(item, name) for name in names})


def said_text(item: object, names: Iterable[str]) -> str:
    """The same as JSON text for an SQL column; empty when no field words a message."""
    body = said_body(item, names)
    return json.dumps(body, ensure_ascii=False) if body else ""


def plain_texts(item: object, names: Iterable[str]) -> dict[str, str]:
    """``item``'s fields ``names`` as plain ``str``: a driver that serialises a ``str``
    subclass by its pickle (or refuses it) gets only the text."""
    return {name: str(getattr(item, name)) for name in names}


def worded_again(fields: Mapping[str, Any], said: str | Mapping[str, Any] | None) -> dict[str, Any]:
    """``fields`` read from a store, each text with a stored code a ``Worded`` again.
    An unreadable ``said`` (damaged by hand) leaves the texts as they are."""
    if isinstance(said, str):
        try:
            said = json.loads(said) if said else None
        except ValueError:
            said = None
    return with_said(fields, said if isinstance(said, Mapping) else None)
