"""What the fake Anthropic server answers: request parsing, answers, token counts.

Kept apart from the HTTP plumbing in ``anthropic_server`` so that tests can compute
exactly what the fake will say (``expected_documents``) without starting a server,
and so the answer rules stay readable on their own.

The fake "model" is the project's offline extractor run on the page texts the request
carries. That makes every answer deterministic and plausible (real doc types, real
fields) while the code under test still goes through the real SDK and the real
wire format.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import math
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from PIL import Image, UnidentifiedImageError

from docbatch_gui.config.profile import Profile, load_profile
from docbatch_gui.domain.lines import Line
from docbatch_gui.pipeline.offline import PageText, extract_documents
from docbatch_gui.pipeline.tables import TableRead, read_table
from docbatch_gui.pipeline.words import Word

__all__ = [
    "ParsedRequest",
    "PromptCache",
    "RequestInvalid",
    "TokenCount",
    "answer_for",
    "count_tokens",
    "expected_documents",
    "parse_request",
    "starts_document",
    "table_of",
    "wire_document",
    "wire_fields",
    "wire_line",
    "words_from_layout",
]

# One page of a request: ``<page index="K" source_page="P">\n...text...\n</page>``,
# with ``kind="text"`` or ``kind="text+small_image"`` for a page sent as text.
_PAGE_RE = re.compile(
    r'<page index="(?P<k>\d+)" source_page="(?P<p>\d+)"(?: kind="(?P<kind>[^"]*)")?>'
    r"\n?(?P<text>.*?)\n?</page>",
    re.DOTALL,
)
_FILE_NAME_RE = re.compile(r"^File name: (?P<name>.*?)\s*$", re.MULTILINE)
_REQUEST_ID_RE = re.compile(r"^Request id: (?P<id>\S+)\s*$", re.MULTILINE)

# API limits that DocBatch must respect (FINDINGS.md); breaking one is a 400, as on the API.
MAX_IMAGE_B64 = 5 * 1024 * 1024
MAX_IMAGES = 100
MAX_SIDE = 8000
MAX_SIDE_MANY = 2000  # when a request carries more than 20 images
# A page of prose without a title or page cue: it never opens a document, so whatever
# follows it in a two-page run opens one only if it would open one anywhere.
_FILLER = "and the remaining text of the page before, which carries no title of its own"


class RequestInvalid(ValueError):
    """The request breaks an API rule; the server turns it into a 400."""


@cache
def _profile() -> Profile:
    return load_profile()


# ------------------------------------------------------------------ request parsing


@dataclass(frozen=True)
class ParsedRequest:
    """What DocBatch put into ``messages[0].content``: file name, marker, pages."""

    file_name: str
    request_id: str | None  # the "Request id: ..." marker (sync custom id), if any
    pages: list[tuple[int, int, str]] = field(default_factory=list)  # (K, source_page, text)


def _blocks(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _texts(body: Mapping[str, Any]) -> list[str]:
    """Every text block of the request: the system prompt, then the messages."""
    texts = [b.get("text", "") for b in _blocks(body.get("system"))]
    for message in body.get("messages") or []:
        if isinstance(message, dict):
            texts.extend(b.get("text", "") for b in _blocks(message.get("content")))
    return [t for t in texts if isinstance(t, str)]


def parse_request(body: Mapping[str, Any]) -> ParsedRequest:
    """Read the first user message; anything not in DocBatch's format is just ignored."""
    messages = body.get("messages") or []
    first = messages[0] if messages and isinstance(messages[0], dict) else {}
    texts = [b.get("text", "") for b in _blocks(first.get("content")) if b.get("type") == "text"]
    header = next((t for t in texts if "<page " not in t), "")
    name = _FILE_NAME_RE.search(header)
    marker = _REQUEST_ID_RE.search(header)
    pages = [
        (int(m["k"]), int(m["p"]), m["text"]) for text in texts for m in _PAGE_RE.finditer(text)
    ]
    return ParsedRequest(
        file_name=name["name"] if name else "",
        request_id=marker["id"] if marker else None,
        pages=pages,
    )


# -------------------------------------------------------------------------- answers


def starts_document(text: str, file_name: str = "", profile: Profile | None = None) -> bool:
    """Whether a page opens a document of its own (a title, or a "page 1 of N" cue).

    The offline extractor keeps its title detection private, so ask its public
    splitter instead: put a title-less filler page in front and see whether the page
    is split off from it. That is exactly the splitter's rule, including "a page with
    no text continues the document before it".
    """
    profile = profile or _profile()
    pages = [PageText(1, _FILLER), PageText(2, text)]
    return len(extract_documents(0, file_name, pages, profile)) > 1


def expected_documents(file_name: str, pages: Sequence[tuple[int, str]]) -> dict[str, Any]:
    """The answer object the fake gives for one group of pages.

    ``pages`` are ``(source_page, text)`` in request order; page K of the answer is
    the K-th of them (1-based), as in the ``<page index="K">`` tags.
    """
    profile = _profile()
    keys = profile.field_keys
    docs = extract_documents(
        0, file_name, [PageText(k, text) for k, (_p, text) in enumerate(pages, 1)], profile
    )
    out: list[dict[str, Any]] = []
    for i, doc in enumerate(docs):
        continues = False
        if i == 0 and pages:
            source_page, text = pages[0]
            continues = source_page > 1 and not starts_document(text, file_name, profile)
        table = table_of(
            [(k, pages[k - 1][1]) for k in range(doc.page_from, doc.page_to + 1)], profile
        )
        out.append(
            wire_document(
                doc.page_from,
                doc.page_to,
                doc.doc_type,
                {k: doc.fields.get(k) for k in keys},
                confidence={k: float(doc.confidence.get(k, 0.0)) for k in keys},
                filename_fields=dict(doc.filename_fields),
                continues_previous=continues,
                handwritten_numbers=list(doc.handwritten_numbers),
                lines=[wire_line(line, profile) for line in table.lines],
                printed_row_count=str(table.printed_rows or ""),
                table_continues=table.table_open,
            )
        )
    return {"documents": out}


def words_from_layout(text: str) -> list[Word]:
    """A page's text as words with boxes: a character's column across the page and
    its line down it. Text laid out as printed (``tables.layout_text``, what
    DocBatch sends for a page with a table of goods) keeps its columns this way."""
    words: list[Word] = []
    for row, line in enumerate(text.splitlines()):
        for found in re.finditer(r"\S+", line):
            top = row * 0.012
            words.append((found[0], found.start() / 300, top, found.end() / 300, top + 0.01))
    return words


def table_of(pages: Sequence[tuple[int, str]], profile: Profile) -> TableRead:
    """The rows of goods the fake "model" reads from the text of a document's pages
    (``(K, text)``): the project's table reader on the text's columns, as a model
    reads a table from an exact text layer."""
    return read_table([(k, words_from_layout(text)) for k, text in pages], profile)


def wire_line(
    line: Line, profile: Profile | None = None, row_kind: str = "goods"
) -> dict[str, Any]:
    """One line as the answer schema spells it: every column, "" when not printed."""
    keys = (profile or _profile()).line_keys
    return {
        **{key: line.value(key) or "" for key in keys},
        "page": line.page or 1,
        "row_kind": row_kind,
    }


def wire_document(
    page_from: int,
    page_to: int,
    doc_type: str,
    fields: Mapping[str, str | None],
    *,
    confidence: Mapping[str, float] | float = 0.9,
    filename_fields: Mapping[str, str | None] | None = None,
    continues_previous: bool = False,
    handwritten_numbers: Sequence[str] = (),
    lines: Sequence[Mapping[str, Any]] = (),
    printed_row_count: str = "",
    table_continues: bool = False,
) -> dict[str, Any]:
    """One document as the answer schema spells it: every field listed once, a field
    not found as ``found: false``; only the file-name values that were found."""

    def score(key: str) -> float:
        return float(confidence if isinstance(confidence, float) else confidence.get(key, 0.0))

    return {
        "page_from": page_from,
        "page_to": page_to,
        "continues_previous": continues_previous,
        "doc_type": doc_type,
        "fields": [
            {
                "key": key,
                "found": value is not None,
                "value": value or "",
                "confidence": score(key) if value is not None else 0.0,
            }
            for key, value in fields.items()
        ],
        "filename_fields": [
            {"key": key, "value": value}
            for key, value in (filename_fields or {}).items()
            if value is not None
        ],
        "handwritten_numbers": list(handwritten_numbers),
        "lines": [dict(line) for line in lines],
        "printed_row_count": printed_row_count,
        "table_continues": table_continues,
    }


def wire_fields(document: Mapping[str, Any]) -> dict[str, str | None]:
    """The values of a wire document's fields by key (None when not found)."""
    return {f["key"]: f["value"] if f["found"] else None for f in document["fields"]}


def answer_for(parsed: ParsedRequest) -> dict[str, Any]:
    """The default "model": the offline extractor on the request's pages."""
    return expected_documents(parsed.file_name, [(p, text) for _k, p, text in parsed.pages])


# --------------------------------------------------------------------------- tokens


@dataclass(frozen=True)
class TokenCount:
    """Input tokens of a request; ``cacheable`` is the part inside the cached prefix."""

    total: int
    cacheable: int
    cache_key: str | None  # identifies the cached prefix (model + system blocks)
    cache_ttl: str = "5m"


def _text_tokens(text: str) -> int:
    return (len(text) + 3) // 4


def _visual_tokens(width: int, height: int, model: str) -> int:
    """build-with-claude/vision: ⌈w/28⌉·⌈h/28⌉ after the API's own downscale: long
    edge 2576 px and 4784 tokens on Claude 4.7 and later models, 1568 and 1568 on
    older ones (Haiku 4.5 here)."""
    edge, cap = (1568, 1568) if model.startswith("claude-haiku-4-5") else (2576, 4784)
    scale = min(1.0, edge / max(width, height, 1))
    w, h = width * scale, height * scale
    while math.ceil(w / 28) * math.ceil(h / 28) > cap:
        w, h = w * 0.98, h * 0.98
    return math.ceil(w / 28) * math.ceil(h / 28)


def _image_tokens(block: Mapping[str, Any], many: bool, model: str) -> int:
    """Tokens of one base64 image, enforcing the API's image limits."""
    source = block.get("source") or {}
    if source.get("type") != "base64":
        return 0  # URL and file sources are not read by the fake
    data = source.get("data") or ""
    if len(data) > MAX_IMAGE_B64:
        raise RequestInvalid("image exceeds 5 MB maximum")
    try:
        with Image.open(io.BytesIO(base64.b64decode(data, validate=True))) as image:
            width, height = image.size
    except (binascii.Error, UnidentifiedImageError, ValueError, OSError) as exc:
        raise RequestInvalid("Could not process image") from exc
    limit = MAX_SIDE_MANY if many else MAX_SIDE
    if max(width, height) > limit:
        raise RequestInvalid(f"image dimensions exceed max allowed size: {limit} pixels")
    return _visual_tokens(width, height, model)


def count_tokens(body: Mapping[str, Any]) -> TokenCount:
    """Deterministic input tokens: text chars/4 per block plus ⌈w/28⌉·⌈h/28⌉ per image.

    The cached prefix follows the API's rule: the system blocks up to and including
    the last one carrying ``cache_control``.
    """
    system = _blocks(body.get("system"))
    images = [
        b
        for m in body.get("messages") or []
        if isinstance(m, dict)
        for b in _blocks(m.get("content"))
        if b.get("type") == "image"
    ]
    if len(images) > MAX_IMAGES:
        raise RequestInvalid(f"too many images: {len(images)} > {MAX_IMAGES}")
    total = sum(_text_tokens(t) for t in _texts(body))
    model = str(body.get("model") or "")
    total += sum(_image_tokens(b, len(images) > 20, model) for b in images)
    marked = [i for i, b in enumerate(system) if b.get("cache_control")]
    if not marked:
        return TokenCount(total, 0, None)
    prefix = system[: marked[-1] + 1]
    cacheable = sum(_text_tokens(str(b.get("text", ""))) for b in prefix)
    key = json.dumps([body.get("model"), prefix], sort_keys=True, ensure_ascii=False)
    ttl = str((prefix[-1].get("cache_control") or {}).get("ttl") or "5m")
    return TokenCount(total, cacheable, key, ttl)


class PromptCache:
    """The first request with a given cached prefix writes it; later ones read it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: set[str] = set()

    def clear(self) -> None:
        with self._lock:
            self._seen.clear()

    def usage(self, tokens: TokenCount, output_tokens: int, service_tier: str) -> dict[str, Any]:
        """The ``usage`` object of a Message: input excludes cache writes and reads."""
        written = read = 0
        if tokens.cache_key is not None and tokens.cacheable:
            with self._lock:
                if tokens.cache_key in self._seen:
                    read = tokens.cacheable
                else:
                    self._seen.add(tokens.cache_key)
                    written = tokens.cacheable
        one_hour = tokens.cache_ttl == "1h"
        return {
            "input_tokens": tokens.total - written - read,
            "output_tokens": output_tokens,
            "cache_creation_input_tokens": written,
            "cache_read_input_tokens": read,
            "cache_creation": {
                "ephemeral_5m_input_tokens": 0 if one_hour else written,
                "ephemeral_1h_input_tokens": written if one_hour else 0,
            },
            "service_tier": service_tier,
        }
