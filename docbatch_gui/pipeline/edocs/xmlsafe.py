"""XML from outside, parsed with bounds: an XML bomb is refused before it is parsed
whole, and nothing is fetched from the network.

- size: a file over ``MAX_XML_BYTES`` is refused unread;
- entities: a document type declaration (``<!DOCTYPE``, where entities are declared:
  the "billion laughs") is refused outright, since neither the tax service's formats
  nor CII or UBL have one; lxml is also told never to resolve entities, load a DTD or
  use the network, and to keep its own limits on text size (``huge_tree`` off);
- depth: elements are counted as they open and parsing stops at ``MAX_DEPTH``.
"""

from __future__ import annotations

import io
import re

from lxml import etree

from docbatch_gui.domain.errors import UnsupportedInput

MAX_XML_BYTES = 50 * 2**20
MAX_DEPTH = 64
_DECLARATION = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)


class XmlRefused(UnsupportedInput):
    """An XML file that is damaged, hostile, or not of a kind DocBatch reads."""


def parse_bounded(data: bytes, name: str) -> etree._Element:
    """The root element of ``data``; raises XmlRefused with one sentence."""
    if len(data) > MAX_XML_BYTES:
        raise XmlRefused.coded(
            "xml_too_big",
            {
                "file": name,
                "size_mb": round(len(data) / 2**20, 1),
                "most_mb": MAX_XML_BYTES // 2**20,
            },
        )
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        data = data.decode("utf-16").encode("utf-8")  # the check below reads bytes
        data = re.sub(rb"^(<\?xml[^>]*?)encoding=['\"][^'\"]*['\"]", rb"\1", data)
    if _DECLARATION.search(data):
        raise XmlRefused.coded("xml_declares_entities", {"file": name})
    depth = 0
    events = etree.iterparse(
        io.BytesIO(data),
        events=("start", "end"),
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )
    try:
        for event, _element in events:
            depth += 1 if event == "start" else -1
            if depth > MAX_DEPTH:
                raise XmlRefused.coded("xml_too_deep", {"file": name, "most": MAX_DEPTH})
    except etree.XMLSyntaxError as exc:
        line = exc.lineno or (exc.position[0] if exc.position else "?")
        raise XmlRefused.coded(
            "xml_malformed", {"file": name, "line": line, "error": str(exc.msg or exc)}
        ) from None
    root = events.root
    if root is None:
        raise XmlRefused.coded("xml_malformed", {"file": name, "line": 1, "error": "empty"})
    return root


def local(tag: object) -> str:
    """An element's name without its namespace."""
    return etree.QName(tag).localname if isinstance(tag, str) else ""
