"""Whether a PDF carries an invoice as an attachment (Factur-X, ZUGFeRD, XRechnung),
told from its bytes without opening it with a PDF library.

Intake asks this of every PDF it queues, in its own process: a hostile PDF must not
crash or hang it there, so MuPDF is never called here (it runs only in the render
child). An embedded file's specification is a dictionary with an ``/EF`` key and its
name in ``/F`` or ``/UF``; the PDF strings near each ``/EF`` are decoded (literal
strings with their escapes, hex strings, UTF-16 with its byte-order mark) and
compared with the known names. Such a dictionary may sit in a compressed object
stream (PDF 1.5), so those are inflated too, within fixed bounds. The answer only
chooses the reader: a PDF said to carry an invoice that does not is refused by the
data reader in one sentence; one whose attachment is hidden (encrypted strings) is
rendered and read as pictures.
"""

from __future__ import annotations

import mmap
import re
import zlib
from collections.abc import Iterator
from pathlib import Path

#: the attachment names of the invoice in Factur-X / ZUGFeRD / XRechnung PDFs
EMBEDDED_NAMES = frozenset(
    {"factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml", "zugferd_invoice.xml"}
)
#: how far around an ``/EF`` key its file specification's strings are looked for
WINDOW = 1024
#: at most this many ``/EF`` keys and object streams are looked at, and this much
#: inflated from the streams in all: a file made to be slow stays quick
MAX_KEYS = 2000
MAX_STREAMS = 500
MAX_INFLATED = 32 * 2**20

#: what may follow the ``/EF`` key (a dictionary, a reference, a space): not ``/EFF``
_AFTER_EF = frozenset(b" \t\r\n\f\x00/<[(")
_STREAM = re.compile(rb"stream\r?\n")
_LITERAL = re.compile(rb"\(((?:[^()\\]|\\.|\\\n){1,256})\)", re.DOTALL)
_HEX = re.compile(rb"<([0-9A-Fa-f\s]{2,512})>")
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}
_ESCAPE = re.compile(rb"\\([0-7]{1,3}|\n|.)", re.DOTALL)


def has_embedded_invoice(path: Path) -> bool:
    """A PDF whose attachments include one of ``EMBEDDED_NAMES``; False for a file
    that cannot be read (the renderer then says why)."""
    try:
        with path.open("rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return any(_names_invoice(text) for text in _texts(data))
    except (OSError, ValueError):  # unreadable, or empty (mmap refuses a 0-byte file)
        return False


def _texts(data: mmap.mmap) -> Iterator[bytes | mmap.mmap]:
    """The file, then each object stream's inflated content."""
    yield data
    budget = MAX_INFLATED
    for found in _found(data, b"/ObjStm", MAX_STREAMS):
        if budget <= 0:
            return
        start = _STREAM.search(data, found, found + WINDOW)
        if start is None:
            continue
        inflated = _inflate(data, start.end(), budget)
        budget -= len(inflated)
        yield inflated


def _found(text: bytes | mmap.mmap, needle: bytes, most: int) -> Iterator[int]:
    """Where ``needle`` starts in ``text``, at most ``most`` times (``find`` runs at
    memory speed; a regular expression over a large scan would not)."""
    at = text.find(needle)
    for _ in range(most):
        if at < 0:
            return
        yield at
        at = text.find(needle, at + len(needle))


def _inflate(data: mmap.mmap, at: int, limit: int) -> bytes:
    """At most ``limit`` bytes of the Flate stream starting at ``at`` (b"" when it is
    not one)."""
    inflater = zlib.decompressobj()
    out = b""
    try:
        for offset in range(at, len(data), 2**16):
            out += inflater.decompress(data[offset : offset + 2**16], limit - len(out))
            if inflater.eof or inflater.unconsumed_tail or len(out) >= limit:
                break
    except zlib.error:
        pass
    return out


def _names_invoice(text: bytes | mmap.mmap) -> bool:
    for at in _found(text, b"/EF", MAX_KEYS):
        if text[at + 3 : at + 4] and text[at + 3] not in _AFTER_EF:
            continue  # another name (/EFF)
        window = bytes(text[max(0, at - WINDOW) : at + 3 + WINDOW])
        if _strings(window) & EMBEDDED_NAMES:
            return True
    return False


def _strings(window: bytes) -> set[str]:
    """The PDF strings in ``window``, decoded and in lower case."""
    raw = [_unescape(m.group(1)) for m in _LITERAL.finditer(window)]
    for m in _HEX.finditer(window):
        digits = re.sub(rb"\s", b"", m.group(1))
        raw.append(bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode()))
    return {_text(value).lower() for value in raw}


def _unescape(body: bytes) -> bytes:
    def one(match: re.Match[bytes]) -> bytes:
        code = match.group(1)
        if code == b"\n":
            return b""  # a line continued
        if code[:1].isdigit():
            return bytes([int(code, 8) & 0xFF])
        return _ESCAPES.get(code, code)

    return _ESCAPE.sub(one, body)


def _text(value: bytes) -> str:
    if value.startswith(b"\xfe\xff"):
        return value[2:].decode("utf-16-be", "replace")
    if value.startswith(b"\xef\xbb\xbf"):
        return value[3:].decode("utf-8", "replace")
    return value.decode("latin-1")
