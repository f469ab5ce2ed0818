"""The document-type profile: what the offline extractor looks for, kept as data.

Keywords, label phrases and required fields change with every customer's document
mix; keeping them in ``docbatch_gui/resources/profiles/*.json`` lets an administrator
tune them without a release. The JSON is validated once at load time, so a typo stops the
start with one clear message instead of silently weakening extraction later.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal, TypeVar

from pydantic import AfterValidator, Field, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from docbatch_gui.config import answer_schema
from docbatch_gui.config.page_plan import PagePlan
from docbatch_gui.config.part import Part
from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.domain.normalize import normalize_text
from docbatch_gui.resources import resources_dir

__all__ = [
    "CurrencyProfile",
    "DocTypeProfile",
    "FieldProfile",
    "Keyword",
    "LineFieldProfile",
    "Profile",
    "RoutingModels",
    "default_profile_path",
    "label_regex",
    "load_profile",
]

UNKNOWN = "unknown"
#: what a field holds; the offline extractor reads the first seven, the checks
#: (``docbatch_gui.checks``) judge every kind they know, whichever reader filled it
FieldKind = Literal[
    "number",
    "date",
    "amount",
    "currency",
    "vat",
    "party",
    "tax_id",
    "kpp",
    "ogrn",
    "bik",
    "account",
]


# ------------------------------------------------------------------ the profile


def label_regex(phrase: str) -> re.Pattern[str]:
    """Compile a label phrase for one raw line (lower-cased, ё folded to е).

    Words may be separated by any punctuation, so "в т ч ндс" also matches
    "в т.ч. НДС" and "р с" matches "р/с"; a symbol label such as "№" or "$" matches
    literally. Whole words only: "ндс" must not fire inside another word.
    """
    tokens = re.findall(r"\w+|[^\w\s]", phrase.lower().replace("ё", "е"))
    if not tokens:
        raise ValueError(f"empty label phrase {phrase!r}")
    parts: list[str] = []
    for i, token in enumerate(tokens):
        if i:
            parts.append(r"[^\w\n]+" if token[0].isalnum() or token == "_" else r"[^\w\n]*")
        parts.append(re.escape(token))
    body = "".join(parts)
    prefix = r"(?<!\w)" if tokens[0][0].isalnum() else ""
    suffix = r"(?!\w)" if tokens[-1][-1].isalnum() else ""
    return re.compile(prefix + body + suffix)


def _read_only(labels: Mapping[str, str]) -> Mapping[str, str]:
    return MappingProxyType(dict(labels))


def _given(items: tuple[Any, ...]) -> tuple[Any, ...]:
    """At least one item, checked once the items are valid (a tuple's ``min_length``
    would also report an array whose items all failed as empty)."""
    if not items:
        raise PydanticCustomError(
            "too_short", "List should have at least 1 item after validation, not 0"
        )
    return items


_T = TypeVar("_T")
#: a key of a type, field or column, as answers and exports name it
Key = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
#: a name in each language, read-only once loaded
Labels = Annotated[Mapping[str, str], AfterValidator(_read_only)]
#: a JSON array that must not be empty
NonEmpty = Annotated[tuple[_T, ...], AfterValidator(_given)]


class Keyword(Part):
    """A weighted phrase or regex matched against ``normalize_text`` output."""

    phrase: str | None = None
    regex: str | None = None
    weight: float = Field(default=1.0, gt=0)

    @model_validator(mode="after")
    def _one_of(self) -> Keyword:
        if (self.phrase is None) == (self.regex is None):
            raise ValueError("give exactly one of 'phrase' or 'regex'")
        if self.regex is not None:
            try:
                re.compile(self.regex)
            except re.error as exc:
                raise ValueError(f"bad regex {self.regex!r}: {exc}") from exc
        return self

    @cached_property
    def source(self) -> str:
        return self.regex if self.regex is not None else self.phrase or ""

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        if self.regex is not None:
            return re.compile(self.regex)
        return re.compile(rf"(?<!\w){re.escape(normalize_text(self.phrase))}(?!\w)")


class DocTypeProfile(Part):
    """A document type; ``filename_re`` finds each ``filename`` phrase in a
    normalised file name, between letters."""

    patterns = ("filename_re",)
    key: Key
    labels: Labels
    title: tuple[Keyword, ...]
    keywords: tuple[Keyword, ...]
    filename: tuple[str, ...] = ()
    required_fields: tuple[str, ...] = ()

    @cached_property
    def filename_re(self) -> tuple[re.Pattern[str], ...]:
        folded = (normalize_text(phrase) for phrase in self.filename)
        return tuple(re.compile(rf"(?<![^\W\d_]){re.escape(f)}(?![^\W\d_])") for f in folded)


class FieldProfile(Part):
    """Label phrases of one field; ``*_re`` are compiled for raw (case-folded) lines."""

    patterns = ("keyword_re", "weak_keyword_re", "exclude_re")
    key: Key
    kind: FieldKind
    labels: Labels
    keywords: tuple[str, ...] = ()
    weak_keywords: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    party: Literal["seller", "buyer"] | None = None

    @cached_property
    def keyword_re(self) -> tuple[re.Pattern[str], ...]:
        return tuple(label_regex(k) for k in self.keywords)

    @cached_property
    def weak_keyword_re(self) -> tuple[re.Pattern[str], ...]:
        return tuple(label_regex(k) for k in self.weak_keywords)

    @cached_property
    def exclude_re(self) -> tuple[re.Pattern[str], ...]:
        return tuple(label_regex(k) for k in self.exclude)


#: what a line column holds: the table reader normalises numbers and rates, keeps text
LineKind = Literal["text", "number", "rate"]


class LineFieldProfile(Part):
    """One column of a table of goods (``domain.lines``): its key, its labels in
    each language, the header phrases that find it in a printed table, and whether a
    line must have it (a required column left empty is a ``line_arithmetic`` finding
    on that row)."""

    patterns = ("header_re",)
    key: Key
    kind: LineKind = "text"
    labels: Labels
    #: the grid's column title where the label is wider than the column's numbers
    #: ("Кол-во" for "Количество"; the label is its tooltip)
    short: Labels = Field(default_factory=dict)
    headers: tuple[str, ...] = ()
    required: bool = False

    @cached_property
    def header_re(self) -> tuple[re.Pattern[str], ...]:
        return tuple(label_regex(h) for h in self.headers)


class CurrencyProfile(Part):
    patterns = ("marker_re",)
    code: str = Field(pattern=r"^[A-Z]{3}$")
    markers: NonEmpty[str]

    @cached_property
    def marker_re(self) -> tuple[re.Pattern[str], ...]:
        return tuple(label_regex(m) for m in self.markers)


class RoutingModels(Part):
    """Which Claude models read this profile's documents (routing by difficulty).

    ``first`` reads every document (None: the settings' ``ANTHROPIC_MODEL``);
    ``escalation`` reads again, once, a document whose first answer is unsure,
    incomplete, fails a check or contradicts the page (None: no routing). The ids are
    checked against the model catalogue where the engine starts (``engine.routing``):
    the catalogue lives a layer above the profile.
    """

    first: str | None = Field(default=None, min_length=1)
    escalation: str | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _distinct(self) -> RoutingModels:
        if self.first is not None and self.first == self.escalation:
            raise ValueError(
                f"models.first and models.escalation are both {self.first!r}: escalating "
                "to the same model pays twice for the same answer; name a stronger "
                "escalation model or leave it out"
            )
        return self


class Profile(Part):
    #: the file it was read from: set by ``load_profile``, never read from the file
    #: (the alias no JSON key has keeps "source" an unknown key there)
    source: Path = Field(default=Path(), validation_alias="\0source")
    version: int = Field(ge=1)
    description: str = ""
    review_threshold: float = Field(ge=0, le=1)
    title_region_lines: int = Field(default=8, ge=1, le=100)
    #: at least ``title_region_lines`` once loaded
    strong_title_region_lines: int = Field(default=25, ge=1, le=200)
    title_weight: float = Field(default=3.0, gt=0)
    min_type_score: float = Field(default=2.0, ge=0)
    min_page_chars: int = Field(default=5, ge=0)
    #: confirmed documents of a known seller shown to Claude with its pages (0–2)
    counterparty_examples: int = Field(default=0, ge=0, le=2)
    #: first and escalation models (routing by difficulty); both None: single model
    models: RoutingModels = RoutingModels()
    #: how each page goes to Claude (``pipeline/page_plan.py``)
    page_plan: PagePlan = PagePlan()
    doc_types: NonEmpty[DocTypeProfile]
    fields: NonEmpty[FieldProfile]
    currencies: tuple[CurrencyProfile, ...] = ()
    #: the languages the documents are written in (ISO 639-1): the only ones a written
    #: date's month is read in (``pipeline/written_dates.py``)
    languages: tuple[str, ...] = ("ru", "en")
    #: lines from the top of a document where a labelled number or date is looked for
    #: (0 in the file: the file's ``strong_title_region_lines``); a header block of 25
    #: lines is not enough for invoices whose labels sit under the addresses
    label_region_lines: int = Field(default=0, ge=0, le=400)
    #: the columns of a table of goods; empty: lines are not read
    line_fields: tuple[LineFieldProfile, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> Profile:
        type_keys = [t.key for t in self.doc_types]
        field_keys = [f.key for f in self.fields]
        line_keys = [f.key for f in self.line_fields]
        if line_keys and not {"name", "net"} <= set(line_keys):
            raise ValueError("line_fields must include 'name' and 'net' (the goods and their sum)")
        reserved = sorted({"page", "box", "extra"} & set(line_keys))
        if reserved:
            raise ValueError(f"line_fields keys {', '.join(reserved)} are reserved")
        for name, keys in (
            ("doc_types", type_keys),
            ("fields", field_keys),
            ("line_fields", line_keys),
        ):
            dupes = sorted({k for k in keys if keys.count(k) > 1})
            if dupes:
                raise ValueError(f"duplicate {name} keys: {', '.join(dupes)}")
        if UNKNOWN not in type_keys:
            raise ValueError(f"doc_types must contain the {UNKNOWN!r} fallback type")
        if "doc_type" in field_keys:
            raise ValueError("'doc_type' is reserved for the file-name hint")
        for doc_type in self.doc_types:
            missing = sorted(set(doc_type.required_fields) - set(field_keys))
            if missing:
                raise ValueError(
                    f"doc type {doc_type.key!r} requires unknown fields: {', '.join(missing)}"
                )
        for fld in self.fields:
            if fld.kind == "tax_id" and fld.party is None:
                raise ValueError(f"tax_id field {fld.key!r} needs 'party': seller or buyer")
        return self

    @property
    def line_keys(self) -> tuple[str, ...]:
        return tuple(f.key for f in self.line_fields)

    def line_label(self, key: str, language: str) -> str:
        """A line column as a person reads it in ``language`` (English, else its key)."""
        spec = next((f for f in self.line_fields if f.key == key), None)
        return (spec.labels.get(language) or spec.labels.get("en") or key) if spec else key

    def line_title(self, key: str, language: str) -> str:
        """A line column's title in a narrow grid: its short form, else its label."""
        spec = next((f for f in self.line_fields if f.key == key), None)
        short = spec.short.get(language) if spec else None
        return short or self.line_label(key, language)

    @property
    def field_keys(self) -> tuple[str, ...]:
        return tuple(f.key for f in self.fields)

    def field(self, key: str) -> FieldProfile | None:
        return next((f for f in self.fields if f.key == key), None)

    def doc_type(self, key: str) -> DocTypeProfile | None:
        return next((t for t in self.doc_types if t.key == key), None)

    def field_label(self, key: str, language: str) -> str:
        """A field as a person reads it in ``language`` (English, else its key)."""
        spec = self.field(key)
        return (spec.labels.get(language) or spec.labels.get("en") or key) if spec else key

    def doc_type_label(self, key: str, language: str) -> str:
        """A document type as a person reads it in ``language`` (English, else its key)."""
        kind = self.doc_type(key)
        return (kind.labels.get(language) or kind.labels.get("en") or key) if kind else key

    def __reduce__(self) -> tuple[Any, tuple[Path]]:
        """Cross process boundaries as the file it came from (read-only mappings do
        not pickle); the receiving process reloads it."""
        return load_profile, (self.source,)


def _schema_problems(profile: Profile) -> None:
    problems = answer_schema.limit_problems(
        list(profile.field_keys),
        [t.key for t in profile.doc_types if t.key != UNKNOWN] + [UNKNOWN],
        list(profile.line_keys),
    )
    if problems:
        raise ValueError(
            "its answer schema breaks the Claude API's structured-output limits: "
            + "; ".join(problems)
        )


def default_profile_path() -> Path:
    return resources_dir() / "profiles" / "default.json"


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:5]:
        where = ".".join(str(p) for p in item["loc"]) or "(top level)"
        parts.append(f"{where}: {item['msg']}")
    more = len(error.errors()) - 5
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def load_profile(path: Path | None = None) -> Profile:
    """Load and validate a profile; every failure is a ``ConfigError`` naming the file."""
    source = Path(path) if path is not None else default_profile_path()
    try:
        text = source.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(
            f"Cannot read profile {source}: {exc.strerror or exc}", file=str(source)
        ) from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"Profile {source} is not valid JSON: {exc.msg} at line {exc.lineno}, "
            f"column {exc.colno}",
            file=str(source),
        ) from exc
    try:
        read = Profile.model_validate(data)
        _schema_problems(read)
    except ValidationError as exc:
        raise ConfigError(f"Invalid profile {source}: {_describe(exc)}", file=str(source)) from exc
    except ValueError as exc:
        raise ConfigError(f"Invalid profile {source}: {exc}", file=str(source)) from exc
    return read.model_copy(
        update={
            "source": source,
            "strong_title_region_lines": max(
                read.strong_title_region_lines, read.title_region_lines
            ),
            "label_region_lines": read.label_region_lines or read.strong_title_region_lines,
        }
    )
