"""Requests to Claude: pages grouped by ``group_size``, within the API's limits.

Each group is one request, usable as it is in sync mode (``messages.create``) and in
a batch (``params`` of one batch entry). Its id, ``job_{job_id}_batch_{n}``, maps a
result back to its job and group in either mode.
"""

from __future__ import annotations

import base64
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from PIL import Image

from docbatch_gui.config.profile import Profile
from docbatch_gui.llm.prompt import TOOL_NAME, output_schema, system_blocks
from docbatch_gui.pipeline.jpeg import encode_image
from docbatch_gui.pipeline.page_plan import PageKind
from docbatch_gui.pipeline.small_image import jpeg_size, small_jpeg


class OutputMode(StrEnum):
    """How the answer's shape is enforced: structured outputs, or forced tool use."""

    JSON_SCHEMA = "json_schema"
    TOOL = "tool"


# API limits (docs/claude-api-contract.md); a little headroom under each.
MAX_IMAGE_BASE64 = 5_242_880 - 4096
MAX_REQUEST_BYTES = 32 * 2**20 - 256 * 1024
MAX_SIDE = 8000
MAX_SIDE_MANY_IMAGES = 2000  # when a request holds more than 20 images
MANY_IMAGES = 20
MAX_IMAGES = 100
CUSTOM_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
NO_TEXT = "(no text layer on this page: read the image)"
NO_IMAGE = "(this page could not be rendered: no image; read its text only)"


@dataclass(frozen=True)
class PagePayload:
    page_no: int  # 1-based page of the source file
    jpeg: bytes
    text: str = ""
    #: how the page goes (``page_plan.page_kind``): a full image, text and a small
    #: image, or text only
    kind: PageKind = PageKind.IMAGE


@dataclass(frozen=True)
class ExtractionRequest:
    custom_id: str
    job_id: int
    group: int  # 1-based group number within the job
    pages: tuple[int, ...]  # source pages, in request order (index K ↔ pages[K-1])
    params: dict[str, Any] = field(repr=False)
    image_pixels: tuple[tuple[int, int], ...] = ()
    text_chars: int = 0
    #: the part of ``text_chars`` that is confirmed examples of the seller (their cost)
    example_chars: int = 0
    #: each page's kind, in request order (what the plan sent; the forecast's input)
    kinds: tuple[PageKind, ...] = ()

    @property
    def size_bytes(self) -> int:
        return sum(len(b["source"]["data"]) for b in _image_blocks(self.params)) + self.text_chars


def custom_id(job_id: int, group: int) -> str:
    value = f"job_{job_id}_batch_{group}"
    if not CUSTOM_ID.match(value):
        raise ValueError(f"request id {value!r} breaks the API's custom_id rules")
    return value


def parse_custom_id(value: str) -> tuple[int, int]:
    """(job, group) of a request id; an escalated request's ``_esc`` suffix included."""
    match = re.fullmatch(r"job_(\d+)_batch_(\d+)(?:_esc)?", value)
    if match is None:
        raise ValueError(f"not a DocBatch request id: {value!r}")
    return int(match.group(1)), int(match.group(2))


def _image_blocks(params: dict[str, Any]) -> list[dict[str, Any]]:
    content = params["messages"][0]["content"]
    return [b for b in content if b.get("type") == "image"]


def fit_image(jpeg: bytes, *, max_side: int, max_base64: int) -> tuple[bytes, int, int]:
    """The page JPEG as it is when within limits, else re-encoded smaller.

    Pages are rendered at ~1.15 MP, far under the limits; this guards photos and
    future settings, and a request with more than 20 images (2000 px per side).
    """
    known = jpeg_size(jpeg)  # most pages are within limits: not opened with Pillow
    if known is not None and max(known) <= max_side and _b64_len(len(jpeg)) <= max_base64:
        return jpeg, *known
    with Image.open(io.BytesIO(jpeg)) as image:
        width, height = image.size
        if max(width, height) <= max_side and _b64_len(len(jpeg)) <= max_base64:
            return jpeg, width, height
        gray = image.convert("L")
    scale = min(1.0, max_side / max(width, height))
    quality = 80
    while True:
        size = (max(1, int(width * scale)), max(1, int(height * scale)))
        shrunk = encode_image(gray.resize(size, Image.Resampling.LANCZOS), quality)
        if _b64_len(len(shrunk)) <= max_base64:
            return shrunk, size[0], size[1]
        if quality > 50:
            quality -= 10
        else:
            scale *= 0.8


def shrink_image(jpeg: bytes, long_edge: int) -> bytes:
    """The page JPEG at ``long_edge`` px on its long side (``page_plan.small_size``),
    for a text page whose image only has to show stamps and handwriting; the page as
    it is when it is no larger. A page rendered for Claude comes with it made already
    (``pipeline.small_image``): then it is passed as it is and returned unchanged."""
    return small_jpeg(jpeg, long_edge)


def _b64_len(raw: int) -> int:
    return 4 * ((raw + 2) // 3)


def _text_only(index: int, page: PagePayload) -> str | None:
    """The block of a page that goes without an image: a reliable text layer whose
    tasks need no image, or a page the renderer gave up (its text is all there is);
    None for a page that goes with its image."""
    if page.kind is PageKind.TEXT:
        return (
            f'<page index="{index}" source_page="{page.page_no}" kind="text">\n'
            f"{page.text.strip()}\n</page>"
        )
    if not page.jpeg:
        return (
            f'<page index="{index}" source_page="{page.page_no}">\n{NO_IMAGE}\n'
            f"{page.text.strip()}\n</page>"
        )
    return None


def build_request(
    job_id: int,
    file_name: str,
    number: int,
    group: Sequence[PagePayload],
    profile: Profile,
    *,
    total_pages: int,
    model: str,
    group_size: int,
    max_tokens: int,
    output_mode: OutputMode = OutputMode.JSON_SCHEMA,
    options: Mapping[str, Any] | None = None,
    examples: str = "",
    cache_ttl: str | None = "5m",
) -> ExtractionRequest:
    """One group's request; the caller reads only this group's images into memory.

    ``options`` carries the model's ``thinking`` and ``output_config.effort`` (see
    ``llm.thinking``); the answer format is merged into the same ``output_config``.
    ``examples`` (``prompt.counterparty_examples``) follow the header in the user
    message, after the cached prefix, so the prefix stays the same for every request.
    ``cache_ttl`` marks that prefix (``caching.cache_ttl``).
    """
    request_id = custom_id(job_id, number)
    max_side = MAX_SIDE_MANY_IMAGES if len(group) > MANY_IMAGES else MAX_SIDE
    budget = min(MAX_IMAGE_BASE64, MAX_REQUEST_BYTES // max(1, len(group)))
    header = (
        f"File name: {file_name}\nRequest id: {request_id}\n"
        f"This request holds {len(group)} page(s): source pages "
        f"{group[0].page_no}-{group[-1].page_no} of {total_pages}."
    )
    content: list[dict[str, Any]] = [{"type": "text", "text": header}]
    if examples:
        content.append({"type": "text", "text": examples})
    sizes = []
    kinds = []
    chars = len(header) + len(examples)
    for index, page in enumerate(group, start=1):
        only_text = _text_only(index, page)
        if only_text is not None:
            content.append({"type": "text", "text": only_text})
            sizes.append((0, 0))
            kinds.append(PageKind.TEXT)
            chars += len(only_text)
            continue
        kinds.append(page.kind)
        jpeg = page.jpeg
        if page.kind is PageKind.TEXT_SMALL_IMAGE:
            jpeg = shrink_image(jpeg, profile.page_plan.small_long_edge)
        jpeg, width, height = fit_image(jpeg, max_side=max_side, max_base64=budget)
        marked = "" if page.kind is PageKind.IMAGE else f' kind="{page.kind.value}"'
        text = (
            f'<page index="{index}" source_page="{page.page_no}"{marked}>\n'
            f"{page.text.strip() or NO_TEXT}\n</page>"
        )
        content.append({"type": "text", "text": text})
        content.append(
            {
                "type": "image",
                "source": {
                    "type": "base64",
                    "media_type": "image/jpeg",
                    "data": base64.b64encode(jpeg).decode("ascii"),
                },
            }
        )
        sizes.append((width, height))
        chars += len(text)
    params: dict[str, Any] = {
        "model": model,
        "max_tokens": max_tokens,
        "system": system_blocks(profile, group_size, cache_ttl),
        "messages": [{"role": "user", "content": content}],
    }
    for key, value in (options or {}).items():
        params[key] = dict(value) if isinstance(value, Mapping) else value
    schema = output_schema(profile)
    if output_mode is OutputMode.TOOL:
        params["tools"] = [
            {
                "name": TOOL_NAME,
                "description": "Record the documents found in these pages.",
                "input_schema": schema,
            }
        ]
        params["tool_choice"] = {"type": "tool", "name": TOOL_NAME}
    else:
        params.setdefault("output_config", {})["format"] = {"type": "json_schema", "schema": schema}
    pages = tuple(p.page_no for p in group)
    return ExtractionRequest(
        request_id, job_id, number, pages, params, tuple(sizes), chars, len(examples), tuple(kinds)
    )
