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
    """JSON schema of the answer: strict (every key required, nothing extra), as
    structured outputs require."""
    keys = list(profile.field_keys)
    nullable_string = {"type": ["string", "null"]}

    def strict_object(properties: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": properties,
            "required": list(properties),
            "additionalProperties": False,
        }

    document = strict_object(
        {
            "page_from": {"type": "integer", "minimum": 1},
            "page_to": {"type": "integer", "minimum": 1},
            "continues_previous": {"type": "boolean"},
            "doc_type": {"type": "string", "enum": doc_type_keys(profile)},
            "fields": strict_object({k: nullable_string for k in keys}),
            "confidence": strict_object(
                {k: {"type": "number", "minimum": 0, "maximum": 1} for k in keys}
            ),
            "filename_fields": strict_object({k: nullable_string for k in [*keys, "doc_type"]}),
            "handwritten_numbers": {"type": "array", "items": {"type": "string"}},
        }
    )
    return strict_object({"documents": {"type": "array", "items": document}})


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
