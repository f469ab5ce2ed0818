"""The registry configuration JSON, validated.

The wizard writes this JSON and a person may edit it by hand, so every mistake must
be reported with the key path that holds it (``rules[0].subrules[1].comparator``)
instead of surfacing later as a wrong match. Columns are accepted both as Excel
letters, which is what people see, and as 0-based ints, which older configurations hold;
both become 0-based ints here so that nothing downstream has to care.

Old single-column configurations, as the first registry search stored them
(``{"column_index": 2, "mapping_id": "number"}`` at the top level), are migrated on
load: ``mapping_id`` names the registry field read from ``column_index``, it is added
to ``mapping`` and, when no ``rules`` are given, becomes one rule with one required
subrule comparing that field with ``from_content.<mapping_id>``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from docbatch_gui.domain.errors import ConfigError, NotFound

__all__ = [
    "DEFAULT_RULE",
    "Column",
    "RegistryConfig",
    "Rule",
    "SubRule",
    "column_index",
    "column_letter",
    "load_config",
]

_LETTERS_RE = re.compile(r"^[A-Za-z]{1,3}$")
_DOCUMENT_FIELD_RE = re.compile(r"^(?:from_content|from_filename)\.[A-Za-z_]\w*$")
_MAX_COLUMN = 16384  # Excel's last column, XFD.


def column_index(value: str | int) -> int:
    """Turn an Excel letter ("AA") or a 0-based int into a 0-based index ("AA" → 26)."""
    if isinstance(value, bool):
        raise ValueError("a column must be an Excel letter like 'C' or a 0-based index")
    if isinstance(value, int):
        index = value
    elif isinstance(value, str) and value.strip().isdigit():
        index = int(value.strip())
    elif isinstance(value, str) and _LETTERS_RE.match(value.strip()):
        # deferred: 0.4 s of the window's first show (openpyxl imports numpy, lxml, PIL)
        from openpyxl.utils import column_index_from_string

        try:
            index = column_index_from_string(value.strip().upper()) - 1
        except ValueError:  # three letters past XFD
            index = _MAX_COLUMN
    else:
        raise ValueError(
            f"{value!r} is not a column: use an Excel letter like 'C' or a 0-based index"
        )
    if not 0 <= index < _MAX_COLUMN:
        raise ValueError(f"column {value!r} is outside Excel's columns A..XFD")
    return index


def column_letter(index: int) -> str:
    """Inverse of :func:`column_index` for 0-based ints (26 → "AA")."""
    # deferred: 0.4 s of the window's first show (openpyxl imports numpy, lxml, PIL)
    from openpyxl.utils import get_column_letter

    return get_column_letter(index + 1)


Column = Annotated[int, BeforeValidator(column_index)]
Row = Annotated[int, Field(ge=1)]
Comparator = Literal["exact", "fuzzy", "number", "date", "amount"]

_PARAMS_BY_COMPARATOR: dict[str, set[str]] = {
    "exact": set(),
    "number": {"threshold"},  # similarity of the digit strings, 0..100
    "fuzzy": {"threshold"},
    "date": {"tolerance_days"},
    "amount": {"tolerance"},
}


class SubRule(BaseModel):
    """One comparison between a registry field and a document field."""

    model_config = ConfigDict(extra="forbid")

    field: str = Field(min_length=1)
    document_field: str
    comparator: Comparator
    threshold: float | None = Field(default=None, ge=0, le=100)
    tolerance_days: int | None = Field(default=None, ge=0)
    tolerance: float | None = Field(default=None, ge=0)
    weight: float = Field(default=1.0, gt=0)
    required: bool = False

    @field_validator("document_field")
    @classmethod
    def _check_document_field(cls, value: str) -> str:
        if value == "handwritten_numbers" or _DOCUMENT_FIELD_RE.match(value):
            return value
        raise ValueError(
            "must be 'from_content.<field>', 'from_filename.<field>' or 'handwritten_numbers'"
        )

    @model_validator(mode="after")
    def _parameters_fit_comparator(self) -> SubRule:
        # A tolerance on a fuzzy comparison is almost certainly a typo'd comparator;
        # silently ignoring it would make the rule stricter or looser than intended.
        allowed = _PARAMS_BY_COMPARATOR[self.comparator]
        for name in ("threshold", "tolerance_days", "tolerance"):
            if getattr(self, name) is not None and name not in allowed:
                raise ValueError(f"{name} does not apply to comparator {self.comparator!r}")
        if self.comparator in ("fuzzy", "number") and self.threshold is None:
            self.threshold = 85.0
        if self.comparator == "date" and self.tolerance_days is None:
            self.tolerance_days = 0
        if self.comparator == "amount" and self.tolerance is None:
            self.tolerance = 0.01
        return self


class Rule(BaseModel):
    """A named group of subrules whose weighted scores are combined."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    subrules: list[SubRule] = Field(min_length=1)


class RegistryConfig(BaseModel):
    """Where the registry table is on the sheet, what to skip, and how to match it.

    Rows are 1-based as Excel shows them; columns are 0-based ints after validation.
    """

    model_config = ConfigDict(extra="forbid")

    sheet: str | None = None  # None: the first sheet
    header_row: Row = 1
    data_start_row: Row | None = None  # None: the row after header_row
    #: the top row of a header written over several rows (None: one row); the texts
    #: from it down to header_row are joined per column (``layout.header_names``)
    header_top_row: Row | None = None
    column_header_row: dict[Column, Row] = Field(default_factory=dict)
    fill_down_columns: list[Column] = Field(default_factory=list)
    skip_rows_containing: list[Annotated[str, Field(min_length=1)]] = Field(default_factory=list)
    required_column_index: Column | None = None
    min_filled_cells: int = Field(default=1, ge=0)
    mapping: dict[Annotated[str, Field(min_length=1)], Column] = Field(default_factory=dict)
    rules: list[Rule] = Field(default_factory=list)
    threshold: float = Field(default=0.7, ge=0, le=1)

    @model_validator(mode="before")
    @classmethod
    def _migrate_and_default(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if "column_index" in data or "mapping_id" in data:
            field = data.pop("mapping_id", None) or "number"
            column = data.pop("column_index", None)
            if column is None:
                raise ValueError("column_index: required by the old single-column format")
            data["mapping"] = {field: column, **(data.get("mapping") or {})}
            if "rules" not in data:
                data["rules"] = [_migrated_rule(str(field))]
        if "rules" not in data and isinstance(data.get("mapping"), dict):
            data["rules"] = default_rules(list(data["mapping"]))
        return data

    @model_validator(mode="after")
    def _cross_checks(self) -> RegistryConfig:
        if self.data_start_row is None:
            self.data_start_row = self.header_row + 1
        if self.data_start_row <= self.header_row:
            raise ValueError(
                f"data_start_row: {self.data_start_row} must be after header_row {self.header_row}"
            )
        if self.header_top_row is not None and self.header_top_row > self.header_row:
            raise ValueError(
                f"header_top_row: {self.header_top_row} must not be below header_row "
                f"{self.header_row}"
            )
        for column, row in self.column_header_row.items():
            if row >= self.data_start_row:
                raise ValueError(
                    f"column_header_row.{column_letter(column)}: row {row} must be before "
                    f"data_start_row {self.data_start_row}"
                )
        for i, rule in enumerate(self.rules):
            for j, sub in enumerate(rule.subrules):
                if sub.field not in self.mapping:
                    raise ValueError(
                        f"rules[{i}].subrules[{j}].field: {sub.field!r} is not in mapping "
                        f"(mapped fields: {', '.join(sorted(self.mapping)) or 'none'})"
                    )
        return self

    @property
    def first_data_row(self) -> int:
        """``data_start_row`` after defaulting (never None once validated)."""
        return self.data_start_row or self.header_row + 1


#: the name of the rule DocBatch makes; stored as it is, shown in the operator's
#: language (``registry.words.rule_words``)
DEFAULT_RULE = "default"


#: the subrule of each field the default rule compares: comparator and its parameter,
#: weight, required
_DEFAULT_SUBRULES: dict[str, tuple[Comparator, dict[str, Any], float, bool]] = {
    "number": ("number", {"threshold": 85}, 0.5, True),
    "date": ("date", {"tolerance_days": 0}, 0.25, False),
    "amount": ("amount", {"tolerance": 0.01}, 0.25, False),
}


def _subrule(
    field: str, comparator: str, params: dict[str, Any], weight: float, required: bool
) -> dict[str, Any]:
    return {"field": field, "document_field": f"from_content.{field}", "comparator": comparator,
            "weight": weight, "required": required, **params}  # fmt: skip


def default_rules(fields: list[str]) -> list[dict[str, Any]]:
    """The rule used when the JSON has none: number first, then date and amount.

    The number is compared as digits ("СЧ-1001" and "1001" agree); a fuzzy text
    comparison would fail every registry that leaves out the document's prefix.
    """
    subrules = [_subrule(f, *spec) for f, spec in _DEFAULT_SUBRULES.items() if f in fields]
    return [{"name": DEFAULT_RULE, "subrules": subrules}] if subrules else []


def _migrated_rule(field: str) -> dict[str, Any]:
    comparator, params, _, _ = _DEFAULT_SUBRULES.get(field, ("exact", {}, 1.0, True))
    return {
        "name": "migrated single column",
        "subrules": [_subrule(field, comparator, params, 1.0, True)],
    }


def _key_path(loc: tuple[int | str, ...]) -> str:
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        elif part in ("[key]",) or part.startswith(("function-", "lax-", "json-or-python")):
            continue
        else:
            path += f".{part}" if path else str(part)
    return path


def _format_errors(exc: ValidationError) -> str:
    messages = []
    for error in exc.errors():
        message = error["msg"].removeprefix("Value error, ")
        path = _key_path(error["loc"])
        if error["type"] == "extra_forbidden":
            message = "unknown key"
        messages.append(f"{path}: {message}" if path else message)
    return "; ".join(messages)


def load_config(source: str | Path | dict[str, Any]) -> RegistryConfig:
    """Load and validate a registry configuration from a JSON file or a dict.

    Raises ConfigError with one line per problem, each starting with its key path.
    """
    name: str | None = None
    if isinstance(source, dict):
        data: Any = source
    else:
        path = Path(source)
        name = str(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8-sig"))
        except FileNotFoundError as exc:
            raise NotFound("file", path, f"{path}: no such registry config file") from exc
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read the registry config: {exc}", file=name) from exc
        except UnicodeDecodeError as exc:
            raise ConfigError(
                f"{path}: the registry config is not UTF-8 JSON text (is it the workbook "
                "instead of its config?)",
                file=name,
            ) from exc
        except json.JSONDecodeError as exc:
            raise ConfigError(
                f"{path}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}",
                file=name,
            ) from exc
    if not isinstance(data, dict):
        raise ConfigError("registry config must be a JSON object", file=name)
    try:
        return RegistryConfig.model_validate(data)
    except ValidationError as exc:
        prefix = f"{name}: " if name else ""
        raise ConfigError(prefix + _format_errors(exc), file=name) from exc
