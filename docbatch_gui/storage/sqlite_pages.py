"""A page as an SQLite row and back: its columns, and its notes worded again.

Kept out of ``sqlite.py`` (the jobs' store) so the page's columns are listed once,
for the insert and the read alike.
"""

from __future__ import annotations

import sqlite3
from dataclasses import fields
from typing import Any

from docbatch_gui.domain.models import Page
from docbatch_gui.storage.said_fields import PAGE_SAID, plain_texts, said_text, worded_again

#: the page's fields stored as 0/1
_FLAGS = frozenset({"deliverable", "ocr_cached", "orientation_uncertain"})
PAGE_COLUMNS = (*(f.name for f in fields(Page)), "said")
INSERT_PAGE = (
    f"INSERT OR REPLACE INTO pages ({', '.join(PAGE_COLUMNS)})"
    f" VALUES ({','.join('?' * len(PAGE_COLUMNS))})"
)


def page_values(page: Page) -> tuple[Any, ...]:
    """The row of ``page`` in ``PAGE_COLUMNS`` order: its notes as plain text, their
    codes in ``said``."""
    values: dict[str, Any] = {f.name: getattr(page, f.name) for f in fields(Page)}
    values.update(plain_texts(page, PAGE_SAID))
    values.update({name: int(values[name]) for name in _FLAGS})
    values["said"] = said_text(page, PAGE_SAID)
    return tuple(values[name] for name in PAGE_COLUMNS)


def page_of(row: sqlite3.Row) -> Page:
    """The page a row holds, its notes ``Worded`` again when they have a code."""
    values: dict[str, Any] = {f.name: row[f.name] for f in fields(Page)}
    values.update({name: bool(values[name]) for name in _FLAGS})
    return Page(**worded_again(values, row["said"]))
