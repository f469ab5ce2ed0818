"""A page as an SQLite row and back: its columns, its notes as text, code and parameters.

Kept out of ``sqlite.py`` (the jobs' store) so the page's columns are listed once,
for the insert and the read alike.
"""

from __future__ import annotations

import sqlite3
from dataclasses import fields
from typing import Any

from docbatch_gui.domain.models import Page
from docbatch_gui.storage.notes import PAGE_NOTES, note_fields, notes_of

#: the page's fields stored as 0/1
_FLAGS = frozenset({"deliverable", "ocr_cached", "orientation_uncertain"})
#: the page's own fields, in their order
_FIELDS = tuple(f.name for f in fields(Page))
PAGE_COLUMNS = (
    *_FIELDS,
    *(f"{name}_{part}" for name in PAGE_NOTES for part in ("code", "params")),
)
INSERT_PAGE = (
    f"INSERT OR REPLACE INTO pages ({', '.join(PAGE_COLUMNS)})"
    f" VALUES ({','.join('?' * len(PAGE_COLUMNS))})"
)


def page_values(page: Page) -> tuple[Any, ...]:
    """The row of ``page`` in ``PAGE_COLUMNS`` order (``storage.notes``)."""
    values: dict[str, Any] = {name: getattr(page, name) for name in _FIELDS}
    values.update(note_fields(page, PAGE_NOTES, as_json=True))
    values.update({name: int(values[name]) for name in _FLAGS})
    return tuple(values[name] for name in PAGE_COLUMNS)


def page_of(row: sqlite3.Row) -> Page:
    """The page a row holds, its notes as messages again."""
    columns = dict(zip(row.keys(), tuple(row), strict=True))
    values: dict[str, Any] = {name: columns[name] for name in _FIELDS}
    values.update({name: bool(values[name]) for name in _FLAGS})
    values.update(notes_of(columns, PAGE_NOTES))
    return Page(**values)
