"""What ``calamine_child`` and the importer share: the frame that carries each message
between them, and calamine's rows brought to the values openpyxl gives.

A module of its own so that neither side imports the other: the child imports the
importer (to parse there), and the importer starts the child.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from datetime import date, datetime
from typing import Any

import python_calamine

__all__ = ["FRAME", "calamine_rows"]

#: each frame: this 4-byte little-endian length, then a pickled ``(kind, value)``
FRAME = struct.Struct("<I")
_EXACT = 1e15  # Excel keeps 15 significant digits; larger whole floats stay floats


def calamine_rows(sheet: python_calamine.CalamineSheet) -> Iterator[tuple[Any, ...]]:
    """Rows from row 1 and column A with openpyxl's values: an empty cell is None,
    not ""; a whole number is an int (calamine has only floats for .xlsx); a date is
    a ``datetime``."""
    start = sheet.start
    if start is None:
        return
    pad = [None] * start[1]  # iter_rows starts at row 1 but at the first used column
    value: Any  # narrowed by the class checks below, which mypy cannot follow
    for values in sheet.iter_rows():
        row: list[Any] = pad.copy()
        append = row.append
        for value in values:
            kind = value.__class__
            if kind is str:
                append(value or None)
            elif kind is float:
                whole = value.is_integer() and -_EXACT < value < _EXACT
                append(int(value) if whole else value)
            elif kind is date:
                append(datetime(value.year, value.month, value.day))
            else:
                append(value)
        yield tuple(row)
