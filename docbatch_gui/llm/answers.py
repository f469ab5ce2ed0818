"""Claude's answers: validate against the schema, map pages back, stitch documents.

An answer that is not JSON, names a type the profile does not have, or names pages
the request did not hold is an errored request (``InvalidAnswer``, retryable up to a
bound), never a crash. Values are normalised and checked: one that does not parse
becomes null with confidence 0 (null over wrong).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.errors import RetryableError
from docbatch_gui.domain.lines import Line
from docbatch_gui.domain.models import Document
from docbatch_gui.domain.normalize import normalize_amount, normalize_date
from docbatch_gui.domain.reasons import ReviewCode
from docbatch_gui.domain.text import clean_value
from docbatch_gui.llm.prompt import doc_type_keys
from docbatch_gui.pipeline.review import review_reasons
from docbatch_gui.pipeline.tables import line_number, line_rate

NORMALISERS: dict[str, Callable[[object], str | None]] = {
    "date": normalize_date,
    "amount": normalize_amount,
    "vat_amount": normalize_amount,
}


class InvalidAnswer(RetryableError):
    """The model's answer does not follow the schema; the request is sent again."""


@dataclass(frozen=True)
class RawDocument:
    """One document of one request group, with source page numbers."""

    page_from: int
    page_to: int
    continues_previous: bool
    doc_type: str
    fields: dict[str, str | None]
    confidence: dict[str, float]
    filename_fields: dict[str, str | None]
    handwritten_numbers: list[str] = field(default_factory=list)
    notes: list[ReviewCode] = field(default_factory=list)
    #: the rows of goods on these pages, in order (source page numbers)
    lines: list[Line] = field(default_factory=list)
    printed_rows: int | None = None
    #: the table runs on past the group's last page
    table_open: bool = False

    @classmethod
    def from_body(cls, body: dict[str, Any]) -> RawDocument:
        """A stored answer (``dataclasses.asdict``); notes saved as text stay notes,
        and an answer stored before lines existed has none."""
        notes = [
            ReviewCode.from_dict(n) if isinstance(n, dict) else ReviewCode.note(str(n))
            for n in body.get("notes") or []
        ]
        lines = [Line.from_dict(item) for item in body.get("lines") or [] if isinstance(item, dict)]
        return cls(**{**body, "notes": notes, "lines": lines})


#: a field value longer than this is not a value a document holds (a title page, a
#: repeated string): the answer is invalid and asked again
MAX_VALUE_CHARS = 1000
MAX_HANDWRITTEN = 100
#: rows of goods one group's document may hold (8 pages of a dense table is ~400)
MAX_LINES = 5000


def _require(condition: bool, problem: str) -> None:
    if not condition:
        raise InvalidAnswer.coded("claude_invalid_answer", {"problem": problem})


def parse_answer(
    answer: str | dict[str, Any], pages: Sequence[int], profile: Profile
) -> list[RawDocument]:
    """Validate one group's answer; ``pages`` are the source pages the request held."""
    if isinstance(answer, str):
        try:
            data = json.loads(answer)
        except json.JSONDecodeError as exc:
            problem = f"not JSON ({exc.msg} at {exc.pos})"
            raise InvalidAnswer.coded("claude_invalid_answer", {"problem": problem}) from None
    else:
        data = answer
    _require(
        isinstance(data, dict) and isinstance(data.get("documents"), list), "no documents list"
    )
    types = set(doc_type_keys(profile))
    keys = list(profile.field_keys)
    documents = []
    for n, item in enumerate(data["documents"], start=1):
        _require(isinstance(item, dict), f"document {n} is not an object")
        first, last = item.get("page_from"), item.get("page_to")
        _require(
            _is_page(first) and _is_page(last) and 1 <= first <= last <= len(pages),
            f"document {n} names pages {first!r}-{last!r}, but the request held {len(pages)}",
        )
        doc_type = item.get("doc_type")
        _require(doc_type in types, f"document {n} has unknown type {doc_type!r}")
        fields, confidence, notes = _fields(item.get("fields"), keys, n)
        filename = _filename_fields(item.get("filename_fields"), keys, types, n)
        handwritten = item.get("handwritten_numbers") or []
        _require(
            isinstance(handwritten, list)
            and len(handwritten) <= MAX_HANDWRITTEN
            and all(len(str(h)) <= MAX_VALUE_CHARS for h in handwritten),
            f"document {n} handwritten_numbers is not a short list of numbers",
        )
        lines = _lines(item.get("lines"), pages, profile, n)
        documents.append(
            RawDocument(
                page_from=pages[first - 1],
                page_to=pages[last - 1],
                continues_previous=bool(item.get("continues_previous")),
                doc_type=str(doc_type),
                fields=fields,
                confidence=confidence,
                filename_fields=filename,
                handwritten_numbers=[str(h) for h in handwritten if str(h).strip()],
                notes=notes,
                lines=lines,
                printed_rows=_count(item.get("printed_row_count")),
                table_open=item.get("table_continues") is True,
            )
        )
    _require_apart(documents)
    return documents


def _lines(raw: object, pages: Sequence[int], profile: Profile, n: int) -> list[Line]:
    """The rows of goods of one answer's document, with source page numbers; the
    repeated headers, "carried forward" and totals rows the answer marks are not
    goods. A value is normalised as the table reader does it, "" is not printed."""
    if raw is None or not profile.line_fields:
        return []  # an answer to a schema without lines, or stored before them
    items = _items(raw, "lines", n)
    _require(len(items) <= MAX_LINES, f"document {n} has {len(items)} lines")
    lines = []
    for item in items:
        if item.get("row_kind", "goods") != "goods":
            continue
        page = item.get("page")
        index = page if isinstance(page, int) and not isinstance(page, bool) else 0
        line = Line(page=pages[index - 1] if 1 <= index <= len(pages) else None)
        for spec in profile.line_fields:
            value = item.get(spec.key)
            _require(
                value is None
                or (isinstance(value, str | int | float) and not isinstance(value, bool)),
                f"document {n} line column {spec.key} is a {type(value).__name__}",
            )
            text = clean_value(str(value)).strip() if value is not None else ""
            _require(len(text) <= MAX_VALUE_CHARS, f"document {n} line column {spec.key} is long")
            if spec.kind == "number":
                read: str | None = line_number(text)
            elif spec.kind == "rate":
                read = line_rate(text)
            else:
                read = text or None
            line = line.with_value(spec.key, read)
        lines.append(line)
    return lines


def _count(value: object) -> int | None:
    """A printed row count the answer gives as text ("120"); None when not printed."""
    digits = str(value or "").strip()
    return int(digits) if digits.isdigit() and int(digits) > 0 else None


def _is_page(value: object) -> bool:
    """A page number: an int, and not a bool (``True`` is an int in Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _require_apart(documents: Sequence[RawDocument]) -> None:
    """Two documents cannot share a page: one of them is invented or duplicated."""
    ordered = sorted(documents, key=lambda d: (d.page_from, d.page_to))
    for before, after in itertools.pairwise(ordered):
        _require(
            after.page_from > before.page_to,
            f"documents on pages {before.page_from}-{before.page_to} and "
            f"{after.page_from}-{after.page_to} overlap",
        )


def _clean(key: str, value: object) -> tuple[str | None, ReviewCode | None]:
    """(normalised value, note) — a value that does not parse is dropped, with a note."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None, None
    text = clean_value(str(value)).strip()
    normaliser = NORMALISERS.get(key)
    if normaliser is None:
        return text, None
    normalised = normaliser(text)
    if normalised is None:
        return None, ReviewCode("unreadable_value", key, {"value": text})
    return normalised, None


def _items(raw: object, what: str, n: int) -> list[dict[str, Any]]:
    _require(isinstance(raw, list), f"document {n} {what} is not a list")
    assert isinstance(raw, list)
    _require(all(isinstance(i, dict) for i in raw), f"document {n} {what} holds a non-object")
    return raw


def _fields(
    raw: object, keys: list[str], n: int
) -> tuple[dict[str, str | None], dict[str, float], list[ReviewCode]]:
    """``[{key, found, value, confidence}]`` into values and confidences per key.

    A key the answer leaves out is not found. A key given twice with two different
    values is ambiguous: it stays empty, with a note (null over wrong).
    """
    fields: dict[str, str | None] = dict.fromkeys(keys)
    confidence: dict[str, float] = dict.fromkeys(keys, 0.0)
    notes: list[ReviewCode] = []
    seen: dict[str, str | None] = {}
    for item in _items(raw, "fields", n):
        key = item.get("key")
        if key not in fields:
            continue  # not a field of this profile; structured outputs never send one
        raw = item.get("value")
        _require(
            raw is None or (isinstance(raw, str | int | float) and not isinstance(raw, bool)),
            f"document {n} field {key} is a {type(raw).__name__}, not a value",
        )
        _require(
            len(str(raw or "")) <= MAX_VALUE_CHARS,
            f"document {n} field {key} is {len(str(raw))} characters long",
        )
        value, note = _clean(key, raw) if item.get("found") else (None, None)
        if note:
            notes.append(note)
        if key in seen:
            if seen[key] != value and value is not None and seen[key] is not None:
                notes.append(ReviewCode("read_twice", key, {"first": seen[key], "second": value}))
                fields[key], confidence[key] = None, 0.0
            continue
        seen[key] = value
        fields[key] = value
        confidence[key] = 0.0 if value is None else _score(item.get("confidence"))
    return fields, confidence, notes


def _filename_fields(
    raw: object, keys: list[str], types: set[str], n: int
) -> dict[str, str | None]:
    filename: dict[str, str | None] = dict.fromkeys([*keys, "doc_type"])
    for item in _items(raw, "filename_fields", n):
        key = item.get("key")
        if key == "doc_type":
            hint = item.get("value")
            filename["doc_type"] = hint if hint in types else None
        elif key in filename and filename[key] is None:
            filename[key] = _clean(key, item.get("value"))[0]
    return filename


def _score(value: object) -> float:
    try:
        score = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 0.0
    return min(1.0, max(0.0, score)) if score == score else 0.0  # NaN is no score


def stitch(
    job_id: int, groups: Sequence[Sequence[RawDocument]], profile: Profile
) -> list[Document]:
    """Join the groups' documents in page order into the job's documents.

    A document marked ``continues_previous`` that starts right after the previous one
    is merged into it: a contract on pages 7-10 arrives as 7-8 (group 1) and 9-10
    (group 2). Values already found win; the continuation only fills gaps.
    """
    merged: list[RawDocument] = []
    for group in groups:
        for doc in group:
            previous = merged[-1] if merged else None
            if doc.continues_previous and previous and previous.page_to + 1 == doc.page_from:
                merged[-1] = _merge(previous, doc)
            else:
                merged.append(doc)
    documents = []
    for index, doc in enumerate(merged):
        reasons = review_reasons(doc.doc_type, doc.fields, doc.confidence, profile) + doc.notes
        documents.append(
            Document(
                job_id=job_id,
                doc_index=index,
                doc_type=doc.doc_type,
                page_from=doc.page_from,
                page_to=doc.page_to,
                fields=doc.fields,
                confidence=doc.confidence,
                filename_fields=doc.filename_fields,
                handwritten_numbers=doc.handwritten_numbers,
                needs_review=bool(reasons),
                review_codes=reasons,
                lines=doc.lines,
                printed_rows=doc.printed_rows,
                table_open=doc.table_open,
            )
        )
    return documents


def _merge(first: RawDocument, second: RawDocument) -> RawDocument:
    fields = dict(first.fields)
    confidence = dict(first.confidence)
    for key, value in second.fields.items():
        if fields.get(key) is None and value is not None:
            fields[key] = value
            confidence[key] = second.confidence.get(key, 0.0)
    doc_type = first.doc_type if first.doc_type != "unknown" else second.doc_type
    handwritten = first.handwritten_numbers + [
        h for h in second.handwritten_numbers if h not in first.handwritten_numbers
    ]
    return replace(
        first,
        page_to=second.page_to,
        doc_type=doc_type,
        fields=fields,
        confidence=confidence,
        handwritten_numbers=handwritten,
        notes=first.notes + second.notes,
        # the table goes on across the request boundary: its rows in page order
        lines=first.lines + second.lines,
        printed_rows=first.printed_rows or second.printed_rows,
        table_open=second.table_open,
    )
