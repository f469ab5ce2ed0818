"""The five-task prompt and the output schema, both built from the document profile.

The profile (document types and fields) is data; the offline extractor and Claude
read the same one, so a type added to the profile is both recognised offline and
offered to the model.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from docbatch_gui.pipeline.profile import Profile
from docbatch_gui.resources import resources_dir

TOOL_NAME = "record_documents"
UNKNOWN = "unknown"


def prompt_path() -> Path:
    return resources_dir() / "prompts" / "extraction_system.md"


@cache
def _template(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def doc_type_keys(profile: Profile) -> list[str]:
    keys = [t.key for t in profile.doc_types if t.key != UNKNOWN]
    return [*keys, UNKNOWN]


def system_prompt(profile: Profile, group_size: int) -> str:
    descriptions = "\n".join(
        f"   - `{t.key}`: {' / '.join(t.labels.values())}"
        for t in profile.doc_types
        if t.key != UNKNOWN
    )
    return _template(prompt_path()).format(
        group_size=group_size,
        doc_types=", ".join(f"`{k}`" for k in doc_type_keys(profile)),
        type_descriptions=descriptions,
        field_list=", ".join(f"`{k}`" for k in profile.field_keys),
    )


def output_schema(profile: Profile) -> dict[str, Any]:
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
    keys = list(profile.field_keys)
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
        {
            "key": {"type": "string", "enum": [*keys, "doc_type"]},
            "value": {"type": "string"},
        }
    )
    document = strict_object(
        {
            "page_from": {
                "type": "integer",
                "description": "first page index in this request, from 1",
            },
            "page_to": {"type": "integer", "description": "last page index in this request"},
            "continues_previous": {"type": "boolean"},
            "doc_type": {"type": "string", "enum": doc_type_keys(profile)},
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
        }
    )
    return strict_object({"documents": {"type": "array", "items": document}})


def strict_object(properties: dict[str, Any]) -> dict[str, Any]:
    """Every key required, nothing extra: what structured outputs require of objects."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def system_blocks(profile: Profile, group_size: int) -> list[dict[str, Any]]:
    """System prompt plus schema, marked for prompt caching: the only prefix that
    every request shares (each page image differs), and caching stacks with the batch
    discount."""
    schema_text = json.dumps(output_schema(profile), ensure_ascii=False, sort_keys=True)
    return [
        {"type": "text", "text": system_prompt(profile, group_size)},
        {
            "type": "text",
            "text": "The answer must match this JSON schema:\n" + schema_text,
            "cache_control": {"type": "ephemeral"},
        },
    ]
