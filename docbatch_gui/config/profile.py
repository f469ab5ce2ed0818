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
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from docbatch_gui.config import answer_schema
from docbatch_gui.config.page_plan import PagePlan, PlanMode
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


# ---------------------------------------------------------------- runtime model


@dataclass(frozen=True)
class Keyword:
    """A weighted pattern matched against ``normalize_text`` output."""

    source: str
    pattern: re.Pattern[str]
    weight: float


@dataclass(frozen=True)
class DocTypeProfile:
    key: str
    labels: Mapping[str, str]
    title: tuple[Keyword, ...]
    keywords: tuple[Keyword, ...]
    filename: tuple[Keyword, ...]
    required_fields: tuple[str, ...]


@dataclass(frozen=True)
class FieldProfile:
    """Label phrases of one field; ``*_re`` are compiled for raw (case-folded) lines."""

    key: str
    kind: FieldKind
    labels: Mapping[str, str]
    keywords: tuple[str, ...]
    weak_keywords: tuple[str, ...]
    exclude: tuple[str, ...]
    party: str | None
    keyword_re: tuple[re.Pattern[str], ...]
    weak_keyword_re: tuple[re.Pattern[str], ...]
    exclude_re: tuple[re.Pattern[str], ...]


#: what a line column holds: the table reader normalises numbers and rates, keeps text
LineKind = Literal["text", "number", "rate"]


@dataclass(frozen=True)
class LineFieldProfile:
    """One column of a table of goods (``domain.lines``): its key, its labels in
    each language, the header phrases that find it in a printed table, and whether a
    line must have it (a required column left empty is a ``line_arithmetic`` finding
    on that row)."""

    key: str
    kind: LineKind
    labels: Mapping[str, str]
    headers: tuple[str, ...]
    required: bool
    header_re: tuple[re.Pattern[str], ...]


@dataclass(frozen=True)
class CurrencyProfile:
    code: str
    markers: tuple[str, ...]
    marker_re: tuple[re.Pattern[str], ...]


@dataclass(frozen=True)
class RoutingModels:
    """Which Claude models read this profile's documents (routing by difficulty).

    ``first`` reads every document (None: the settings' ``ANTHROPIC_MODEL``);
    ``escalation`` reads again, once, a document whose first answer is unsure,
    incomplete, fails a check or contradicts the page (None: no routing). The ids are
    checked against the model catalogue where the engine starts (``engine.routing``):
    the catalogue lives a layer above the profile.
    """

    first: str | None = None
    escalation: str | None = None


@dataclass(frozen=True)
class Profile:
    source: Path
    version: int
    review_threshold: float
    title_region_lines: int
    strong_title_region_lines: int
    title_weight: float
    min_type_score: float
    min_page_chars: int
    doc_types: tuple[DocTypeProfile, ...]
    fields: tuple[FieldProfile, ...]
    currencies: tuple[CurrencyProfile, ...]
    #: confirmed documents of a known seller shown to Claude with its pages (0–2)
    counterparty_examples: int = 0
    #: first and escalation models (routing by difficulty); both None: single model
    models: RoutingModels = RoutingModels()
    #: how each page goes to Claude (``pipeline/page_plan.py``)
    page_plan: PagePlan = dataclass_field(default_factory=PagePlan)
    #: the languages the documents are written in (ISO 639-1): the only ones a written
    #: date's month is read in (``pipeline/written_dates.py``)
    languages: tuple[str, ...] = ("ru", "en")
    #: lines from the top of a document where a labelled number or date is looked for
    #: (0: ``strong_title_region_lines``); a header block of 25 lines is not enough
    #: for invoices whose labels sit under the addresses
    label_region_lines: int = 0
    #: the columns of a table of goods; empty: lines are not read
    line_fields: tuple[LineFieldProfile, ...] = ()

    @property
    def line_keys(self) -> tuple[str, ...]:
        return tuple(f.key for f in self.line_fields)

    def line_label(self, key: str, language: str) -> str:
        """A line column as a person reads it in ``language`` (English, else its key)."""
        spec = next((f for f in self.line_fields if f.key == key), None)
        return (spec.labels.get(language) or spec.labels.get("en") or key) if spec else key

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
        """Cross process boundaries as the file it came from (compiled patterns and
        read-only mappings do not pickle); the receiving process reloads it."""
        return load_profile, (self.source,)


# -------------------------------------------------------------------- JSON schema


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _KeywordIn(_Strict):
    phrase: str | None = None
    regex: str | None = None
    weight: float = Field(default=1.0, gt=0)

    @model_validator(mode="after")
    def _one_of(self) -> _KeywordIn:
        if (self.phrase is None) == (self.regex is None):
            raise ValueError("give exactly one of 'phrase' or 'regex'")
        if self.regex is not None:
            try:
                re.compile(self.regex)
            except re.error as exc:
                raise ValueError(f"bad regex {self.regex!r}: {exc}") from exc
        return self


class _DocTypeIn(_Strict):
    key: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    labels: dict[str, str]
    title: list[_KeywordIn]
    keywords: list[_KeywordIn]
    filename: list[str] = []
    required_fields: list[str] = []


class _FieldIn(_Strict):
    key: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    kind: FieldKind
    labels: dict[str, str]
    keywords: list[str] = []
    weak_keywords: list[str] = []
    exclude: list[str] = []
    party: Literal["seller", "buyer"] | None = None


class _LineFieldIn(_Strict):
    key: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    kind: Literal["text", "number", "rate"] = "text"
    labels: dict[str, str]
    headers: list[str] = []
    required: bool = False


class _CurrencyIn(_Strict):
    code: str = Field(pattern=r"^[A-Z]{3}$")
    markers: list[str] = Field(min_length=1)


class _ModelsIn(_Strict):
    first: str | None = Field(default=None, min_length=1)
    escalation: str | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _distinct(self) -> _ModelsIn:
        if self.first is not None and self.first == self.escalation:
            raise ValueError(
                f"models.first and models.escalation are both {self.first!r}: escalating "
                "to the same model pays twice for the same answer; name a stronger "
                "escalation model or leave it out"
            )
        return self


class _PagePlanIn(_Strict):
    mode: Literal["image", "auto", "text"] = "image"
    min_text_chars: int = Field(default=200, ge=0)
    max_image_cover: float = Field(default=0.5, ge=0, le=1)
    min_fields: int = Field(default=1, ge=0)
    image_tasks: dict[str, int] = {}

    @model_validator(mode="after")
    def _sizes(self) -> _PagePlanIn:
        for task, edge in self.image_tasks.items():
            if not 28 <= edge <= 2576:
                raise ValueError(
                    f"image_tasks.{task}: a long edge of {edge} px; give 28 to 2576 "
                    "(the largest the API reads without downscaling)"
                )
        return self


class _ProfileIn(_Strict):
    version: int = Field(ge=1)
    description: str = ""
    review_threshold: float = Field(ge=0, le=1)
    title_region_lines: int = Field(default=8, ge=1, le=100)
    strong_title_region_lines: int = Field(default=25, ge=1, le=200)
    title_weight: float = Field(default=3.0, gt=0)
    min_type_score: float = Field(default=2.0, ge=0)
    min_page_chars: int = Field(default=5, ge=0)
    counterparty_examples: int = Field(default=0, ge=0, le=2)
    models: _ModelsIn = _ModelsIn()
    page_plan: _PagePlanIn = _PagePlanIn()
    doc_types: list[_DocTypeIn] = Field(min_length=1)
    fields: list[_FieldIn] = Field(min_length=1)
    currencies: list[_CurrencyIn] = []
    languages: list[str] = Field(default=["ru", "en"])
    label_region_lines: int = Field(default=0, ge=0, le=400)
    line_fields: list[_LineFieldIn] = []

    @model_validator(mode="after")
    def _consistent(self) -> _ProfileIn:
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


# ------------------------------------------------------------------ compilation


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


def _keyword(item: _KeywordIn) -> Keyword:
    if item.regex is not None:
        return Keyword(item.regex, re.compile(item.regex), item.weight)
    phrase = normalize_text(item.phrase)
    return Keyword(item.phrase or "", re.compile(rf"(?<!\w){re.escape(phrase)}(?!\w)"), item.weight)


def _filename_keyword(phrase: str) -> Keyword:
    folded = normalize_text(phrase)
    return Keyword(phrase, re.compile(rf"(?<![^\W\d_]){re.escape(folded)}(?![^\W\d_])"), 1.0)


def _compile(raw: _ProfileIn, source: Path) -> Profile:
    doc_types = tuple(
        DocTypeProfile(
            key=t.key,
            labels=MappingProxyType(dict(t.labels)),
            title=tuple(_keyword(k) for k in t.title),
            keywords=tuple(_keyword(k) for k in t.keywords),
            filename=tuple(_filename_keyword(p) for p in t.filename),
            required_fields=tuple(t.required_fields),
        )
        for t in raw.doc_types
    )
    fields = tuple(
        FieldProfile(
            key=f.key,
            kind=f.kind,
            labels=MappingProxyType(dict(f.labels)),
            keywords=tuple(f.keywords),
            weak_keywords=tuple(f.weak_keywords),
            exclude=tuple(f.exclude),
            party=f.party,
            keyword_re=tuple(label_regex(k) for k in f.keywords),
            weak_keyword_re=tuple(label_regex(k) for k in f.weak_keywords),
            exclude_re=tuple(label_regex(k) for k in f.exclude),
        )
        for f in raw.fields
    )
    currencies = tuple(
        CurrencyProfile(c.code, tuple(c.markers), tuple(label_regex(m) for m in c.markers))
        for c in raw.currencies
    )
    line_fields = tuple(
        LineFieldProfile(
            key=f.key,
            kind=f.kind,
            labels=MappingProxyType(dict(f.labels)),
            headers=tuple(f.headers),
            required=f.required,
            header_re=tuple(label_regex(h) for h in f.headers),
        )
        for f in raw.line_fields
    )
    problems = answer_schema.limit_problems(
        [f.key for f in fields],
        [t.key for t in doc_types if t.key != UNKNOWN] + [UNKNOWN],
        [f.key for f in line_fields],
    )
    if problems:
        raise ValueError(
            "its answer schema breaks the Claude API's structured-output limits: "
            + "; ".join(problems)
        )
    return Profile(
        source=source,
        version=raw.version,
        review_threshold=raw.review_threshold,
        title_region_lines=raw.title_region_lines,
        strong_title_region_lines=max(raw.strong_title_region_lines, raw.title_region_lines),
        title_weight=raw.title_weight,
        min_type_score=raw.min_type_score,
        min_page_chars=raw.min_page_chars,
        doc_types=doc_types,
        fields=fields,
        currencies=currencies,
        counterparty_examples=raw.counterparty_examples,
        models=RoutingModels(raw.models.first, raw.models.escalation),
        page_plan=PagePlan(
            mode=PlanMode(raw.page_plan.mode),
            min_text_chars=raw.page_plan.min_text_chars,
            max_image_cover=raw.page_plan.max_image_cover,
            min_fields=raw.page_plan.min_fields,
            image_tasks=tuple(sorted(raw.page_plan.image_tasks.items())),
        ),
        languages=tuple(raw.languages),
        label_region_lines=raw.label_region_lines or raw.strong_title_region_lines,
        line_fields=line_fields,
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
        raw = _ProfileIn.model_validate(data)
        return _compile(raw, source)
    except ValidationError as exc:
        raise ConfigError(f"Invalid profile {source}: {_describe(exc)}", file=str(source)) from exc
    except ValueError as exc:
        raise ConfigError(f"Invalid profile {source}: {exc}", file=str(source)) from exc
