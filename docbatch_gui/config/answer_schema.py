"""The answer schema Claude fills in, built from the profile's keys alone.

It is kept apart from the prompt so that the profile can build and check it at load
(``profile`` cannot import the prompt, which reads the profile).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from docbatch_gui.config.schema_limits import schema_problems

UNKNOWN = "unknown"
#: what a row of a printed table is; only ``goods`` rows become lines
ROW_KINDS = ("goods", "header", "carried_forward", "subtotal")


def answer_schema(
    field_keys: Sequence[str], doc_types: Sequence[str], line_keys: Sequence[str] = ()
) -> dict[str, Any]:
    """JSON schema of the answer, inside the API's structured-output limits by shape.

    Fields are a list of ``{key, found, value, confidence}`` items whose ``key`` is an
    enum of the profile's fields, not one property per field: a profile may add any
    number of fields and the schema keeps zero union-typed and zero optional
    parameters, with no numeric or length constraints (the API refuses those). "Not
    found" is spelled out (``found: false``) instead of a nullable string, so the
    model says so instead of leaving a gap. Ranges the API cannot enforce
    (confidence 0..1, pages within the group) are in descriptions and checked when
    the answer is parsed.
    """
    keys = list(field_keys)
    field_item = strict_object(
        {
            "key": {"type": "string", "enum": keys},
            "found": {
                "type": "boolean",
                "description": "false when the value is not printed or not legible",
            },
            "value": {"type": "string", "description": "the value as read; empty when not found"},
            "confidence": {
                "type": "number",
                "description": "0..1: how sure the value is printed and read right; 0 if not found",
            },
        }
    )
    filename_item = strict_object(
        {"key": {"type": "string", "enum": [*keys, "doc_type"]}, "value": {"type": "string"}}
    )
    document = strict_object(
        {
            "page_from": {
                "type": "integer",
                "description": "first page index in this request, from 1",
            },
            "page_to": {"type": "integer", "description": "last page index in this request"},
            "continues_previous": {"type": "boolean"},
            "doc_type": {"type": "string", "enum": list(doc_types)},
            "fields": {
                "type": "array",
                "description": "every field of the list exactly once",
                "items": field_item,
            },
            "filename_fields": {
                "type": "array",
                "description": "only what the file name says",
                "items": filename_item,
            },
            "handwritten_numbers": {"type": "array", "items": {"type": "string"}},
            **(_line_properties(line_keys) if line_keys else {}),
        }
    )
    return strict_object({"documents": {"type": "array", "items": document}})


def _line_properties(line_keys: Sequence[str]) -> dict[str, Any]:
    """The table of goods: every property required, ``""`` for a value not printed,
    no unions and no numeric or length constraints, so a long table adds no
    optional or union-typed parameter however many columns the profile has."""
    row = strict_object(
        {
            **{
                key: {"type": "string", "description": "as printed; empty when not printed"}
                for key in line_keys
            },
            "page": {"type": "integer", "description": "page index in this request"},
            "row_kind": {
                "type": "string",
                "enum": list(ROW_KINDS),
                "description": "goods for a row of goods; header for a repeated column "
                "header; carried_forward for a 'carried forward' or page total line",
            },
        }
    )
    return {
        "lines": {
            "type": "array",
            "description": "every row of the table of goods on these pages, in order",
            "items": row,
        },
        "printed_row_count": {
            "type": "string",
            "description": "the number of rows the document prints ('Всего наименований 120'); "
            "empty when not printed",
        },
        "table_continues": {
            "type": "boolean",
            "description": "true when the table runs on past the last page of this request",
        },
    }


def strict_object(properties: dict[str, Any]) -> dict[str, Any]:
    """Every key required, nothing extra: what structured outputs require of objects."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def limit_problems(
    field_keys: Sequence[str], doc_types: Sequence[str], line_keys: Sequence[str] = ()
) -> list[str]:
    """What the API would refuse in the schema of these keys, one line per limit."""
    by_limit: dict[str, list[str]] = {}
    for problem in schema_problems(answer_schema(field_keys, doc_types, line_keys)):
        by_limit.setdefault(problem.limit, []).append(str(problem))
    return [
        lines[0] + (f" and {len(lines) - 1} more like it" if len(lines) > 1 else "")
        for lines in by_limit.values()
    ]
