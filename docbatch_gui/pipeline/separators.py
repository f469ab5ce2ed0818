"""Separator sheets: a page carrying a separator barcode (Code 128 or QR whose value is
``SEPARATOR_VALUE``, PATCHT by default, as paperless-ngx's) ends one document and
starts the next. The sheet itself is no document and is never sent to Claude.

Barcodes are read with zxing-cpp from the page images the render step made anyway.
A barcode whose value matches ``ASN_PATTERN`` names its document (an archive serial
number). The split is decided before any request is built: request groups never
cross a separator (``groups_between``), and whatever a reader returns is cut to the
sheets' segments afterwards (``split_documents``), so a model can never join two
documents an operator separated.

A person moves a split in Review by taking a sheet into a document; the job's split
keeps that (``moved``), and a file processed again keeps those pages as pages.
"""

from __future__ import annotations

import io
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import zxingcpp
from PIL import Image

from docbatch_gui.domain.models import Document
from docbatch_gui.domain.reasons import ReviewCode

P = TypeVar("P")


@dataclass(frozen=True)
class Split:
    """Where a file is split: its separator pages, its documents' page ranges, and
    the archive serial number found on each (None where there is none)."""

    separators: list[int] = field(default_factory=list)
    segments: list[tuple[int, int]] = field(default_factory=list)
    asn: list[str | None] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"separators": self.separators, "segments": [list(s) for s in self.segments],
                "asn": self.asn}  # fmt: skip

    @classmethod
    def from_dict(cls, body: Mapping[str, Any] | None) -> Split | None:
        """The split recorded; None when no sheet splits the file (any more)."""
        if not body or not body.get("separators"):
            return None
        return cls(
            list(body.get("separators") or []),
            [(int(a), int(b)) for a, b in body.get("segments") or []],
            list(body.get("asn") or []),
        )


def page_barcodes(image: bytes) -> list[str]:
    """The values of the Code 128 and QR codes on a page image."""
    with Image.open(io.BytesIO(image)) as picture:
        found = zxingcpp.read_barcodes(
            picture.convert("L"),
            formats=zxingcpp.barcode_formats_from_str("QRCode,Code128"),
            try_invert=False,  # sheets are printed dark on light; a tenth of the time
        )
    return [code.text for code in found if code.text]


def plan_split(
    codes: Mapping[int, Sequence[str]],
    pages: Sequence[int],
    value: str,
    asn_pattern: str = "",
    not_sheets: Collection[int] = (),
) -> Split | None:
    """The split of a file whose pages carry ``codes``; None when no page is a
    separator (the file is read as it is). ``not_sheets``: pages a person took into
    a document, never a sheet again."""
    separators = [
        p for p in pages if value and value in codes.get(p, ()) and p not in not_sheets
    ]  # fmt: skip
    if not separators:
        return None
    segments: list[tuple[int, int]] = []
    current: list[int] = []
    for page in pages:
        if page in separators:
            if current:
                segments.append((current[0], current[-1]))
            current = []
        else:
            current.append(page)
    if current:
        segments.append((current[0], current[-1]))
    pattern = re.compile(asn_pattern) if asn_pattern else None
    asn = []
    for first, last in segments:
        found = [
            text for p in range(first, last + 1) for text in codes.get(p, ())
            if pattern is not None and pattern.search(text)
        ]  # fmt: skip
        asn.append(found[0] if found else None)
    return Split(separators, segments, asn)


def moved_pages(body: Mapping[str, Any] | None) -> set[int]:
    """The pages a person took into a document (``moved`` of a job's split)."""
    return {int(entry["page"]) for entry in (body or {}).get("moved") or []}


def recorded(split: Split | None, before: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """What a job's split holds: the sheets found, and what a person moved before."""
    moved = list((before or {}).get("moved") or [])
    if split is None and not moved:
        return None
    body = split.as_dict() if split is not None else {"separators": [], "segments": [], "asn": []}
    return {**body, "moved": moved} if moved else body


def groups_between(pages: Sequence[P], size: int, separators: Collection[int]) -> list[list[P]]:
    """Request groups of at most ``size`` pages that never hold or cross a separator
    page (pages are ``Page``-like, with ``page_no``)."""
    groups: list[list[P]] = []
    run: list[P] = []
    for page in pages:
        if getattr(page, "page_no") in separators:  # noqa: B009 - any page-like object
            groups += [run[i : i + size] for i in range(0, len(run), size)]
            run = []
        else:
            run.append(page)
    groups += [run[i : i + size] for i in range(0, len(run), size)]
    return groups


def split_documents(
    job_id: int, documents: Sequence[Document], split: Split | None
) -> list[Document]:
    """The documents cut to the split's segments: each segment holds what the reader
    found on its pages (a document across a sheet is cut; the part after it keeps no
    values), an empty segment gets an ``unknown`` document for a person to type, and
    nothing stands on a separator page."""
    if split is None:
        return list(documents)
    out: list[Document] = []
    claimed: set[int] = set()  # documents whose values went to an earlier segment
    for first, last in split.segments:
        inside = [d for d in documents if d.page_from <= last and d.page_to >= first]
        if not inside:
            out.append(_typed_by_hand(job_id, first, last))
            continue
        for document in inside:
            piece = replace(document, page_from=max(first, document.page_from),
                            page_to=min(last, document.page_to))  # fmt: skip
            if id(document) in claimed:
                piece = _typed_by_hand(job_id, piece.page_from, piece.page_to)
            claimed.add(id(document))
            out.append(piece)
    return [replace(d, doc_index=index) for index, d in enumerate(out)]


def _typed_by_hand(job_id: int, first: int, last: int) -> Document:
    return Document(
        job_id, 0, "unknown", first, last, needs_review=True,
        review_codes=[ReviewCode("type_unknown")],
    )  # fmt: skip
