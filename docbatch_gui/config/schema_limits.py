"""The structured-output limits the Claude API puts on an answer schema.

The API refuses a schema that breaks them with ``400 invalid_request_error``, so a
schema is checked here before it is ever sent: the bundled profiles by a unit test,
any profile at load. The rules and their source are listed in
``docs/claude-api-contract.md``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

#: keywords the API refuses in a structured-output schema (numeric, length and
#: count constraints, and composition it does not compile)
UNSUPPORTED_KEYWORDS = frozenset(
    {
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "maxItems",
        "uniqueItems",
        "minProperties",
        "maxProperties",
        "patternProperties",
        "propertyNames",
        "dependentRequired",
        "dependentSchemas",
        "if",
        "then",
        "else",
        "not",
        "contains",
    }
)
MAX_UNION_PARAMETERS = 16
MAX_OPTIONAL_PARAMETERS = 24


@dataclass(frozen=True)
class SchemaProblem:
    """One broken limit: ``limit`` names it, ``where`` is a JSON pointer."""

    limit: str
    where: str
    detail: str

    def __str__(self) -> str:
        return f"{self.where or '/'}: {self.detail} ({self.limit})"


def _walk(schema: Any, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if not isinstance(schema, dict):
        return
    yield where, schema
    for name, sub in (schema.get("properties") or {}).items():
        yield from _walk(sub, f"{where}/properties/{name}")
    if isinstance(schema.get("items"), dict):
        yield from _walk(schema["items"], f"{where}/items")
    for keyword in ("anyOf", "allOf", "oneOf", "prefixItems"):
        for index, sub in enumerate(schema.get(keyword) or []):
            yield from _walk(sub, f"{where}/{keyword}/{index}")
    for keyword in ("$defs", "definitions"):
        for name, sub in (schema.get(keyword) or {}).items():
            yield from _walk(sub, f"{where}/{keyword}/{name}")


def _is_union(node: dict[str, Any]) -> bool:
    kinds = node.get("type")
    return (isinstance(kinds, list) and len(kinds) > 1) or bool(node.get("anyOf"))


def schema_problems(schema: dict[str, Any]) -> list[SchemaProblem]:
    """Every limit the schema breaks; empty when the API would accept it."""
    problems: list[SchemaProblem] = []
    unions = optional = 0
    for where, node in _walk(schema):
        for keyword in sorted(UNSUPPORTED_KEYWORDS & node.keys()):
            problems.append(
                SchemaProblem(
                    "unsupported keyword", where, f"'{keyword}' is not supported in a schema"
                )
            )
        if node.get("minItems", 0) not in (0, 1):
            problems.append(SchemaProblem("array constraint", where, "minItems other than 0 or 1"))
        ref = node.get("$ref")
        if isinstance(ref, str) and not ref.startswith("#"):
            problems.append(SchemaProblem("external $ref", where, f"external reference {ref!r}"))
        if isinstance(ref, str) and ref.startswith("#") and where.startswith(ref[1:]):
            # a reference to the node itself or to one of its ancestors
            problems.append(SchemaProblem("recursive schema", where, f"recursive {ref!r}"))
        if node.get("type") == "object" or "properties" in node:
            if node.get("additionalProperties") is not False:
                problems.append(
                    SchemaProblem(
                        "additionalProperties",
                        where,
                        "every object needs additionalProperties: false",
                    )
                )
            required = set(node.get("required") or [])
            optional += sum(1 for name in node.get("properties") or {} if name not in required)
        if _is_union(node):
            unions += 1
    if unions > MAX_UNION_PARAMETERS:
        problems.append(
            SchemaProblem(
                "union-typed parameters",
                "",
                f"{unions} union-typed parameters, at most {MAX_UNION_PARAMETERS} are allowed",
            )
        )
    if optional > MAX_OPTIONAL_PARAMETERS:
        problems.append(
            SchemaProblem(
                "optional parameters",
                "",
                f"{optional} optional parameters, at most {MAX_OPTIONAL_PARAMETERS} are allowed",
            )
        )
    return problems
