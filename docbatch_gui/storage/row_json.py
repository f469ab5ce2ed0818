"""An imported registry row as the store keeps it: its three views as JSON text.

One encoder for every writer of registry rows, so a row encoded where it is parsed
(the calamine child, ``registry.rows.RowFilter.encoded``) is the same text the store
would have written from the record. An import hands the store these tuples
(``EncodedRow``) instead of records: building three dicts per row in the importer
only to encode them there was two fifths of its time (``bench/registry_import.py``).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from docbatch_gui.domain.registry import RegistryRowRecord

__all__ = ["EncodedRow", "dumps", "dumps_row", "encode_record"]

#: a kept row's number and its ``raw_data``, ``mapped_data`` and ``normalized`` as JSON
EncodedRow = tuple[int, str, str, str]

# One encoder: json.dumps with options builds a new one per call, three per imported row.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def dumps(value: Any) -> str:
    """Compact JSON, non-ASCII as it is: the text of every JSON column."""
    return _ENCODER.encode(value)


def dumps_row(view: dict[str, Any]) -> str:
    """``dumps`` for one view of an imported row, 300,000 calls for a big registry:
    orjson, a third of json's C encoder's time, the same JSON but for how a float
    is spelt (``1e16``, not ``1e+16``); json's for what orjson refuses (an integer
    past 64 bits, a lone surrogate)."""
    try:
        return orjson.dumps(view).decode()
    except orjson.JSONEncodeError:
        return dumps(view)


def encode_record(record: RegistryRowRecord) -> EncodedRow:
    """A record's views as the store keeps them."""
    return (
        record.row,
        dumps_row(record.raw_data),
        dumps_row(record.mapped_data),
        dumps_row(record.normalized),
    )
