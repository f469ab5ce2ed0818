"""What a file really is, from its first bytes, checked against its extension.

An operator's folder holds renamed files, zero-byte copies and Office documents; each
gets a message naming the file and what to do, before any child process is started.
"""

from __future__ import annotations

from pathlib import Path

from docbatch_gui.domain.errors import UnsupportedInput
from docbatch_gui.domain.messages import coded

#: extension → the content kind it must hold
SUPPORTED_EXTENSIONS: dict[str, str] = {
    ".pdf": "pdf",
    ".tif": "tiff",
    ".tiff": "tiff",
    ".jpg": "jpeg",
    ".jpeg": "jpeg",
    ".jpe": "jpeg",
    ".png": "png",
    # documents that arrive as data (УПД, CII, UBL) and ЭДО packages of them
    ".xml": "xml",
    ".zip": "zip",
}

_MAGIC: list[tuple[bytes, str]] = [
    (b"%PDF-", "pdf"),
    (b"II*\x00", "tiff"),
    (b"MM\x00*", "tiff"),
    (b"II+\x00", "tiff"),  # BigTIFF
    (b"MM\x00+", "tiff"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"PK\x03\x04", "zip"),
    (b"\xd0\xcf\x11\xe0", "ole"),
    (b"GIF8", "gif"),
    (b"RIFF", "riff"),
    (b"<", "markup"),
]

#: how a kind that is not a format name is said to the operator, in their language
_KIND_WORDS = {
    "zip": "kind_zip",
    "ole": "kind_old_office",
    "riff": "kind_riff",
    "markup": "kind_markup",
}

#: files an operator never means to process; skipped silently in folders
IGNORED_NAMES = frozenset({"thumbs.db", "desktop.ini", ".ds_store"})


def sniff(head: bytes) -> str | None:
    """The kind of content from its first bytes; PDF may start after junk bytes."""
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    if b"%PDF-" in head[:1024]:
        return "pdf"
    return None


def stored_kind(path: Path) -> str:
    """The kind of a file already accepted (its stored copy): what to render it as."""
    with open(path, "rb") as handle:
        return sniff(handle.read(2048)) or "pdf"


def check_file(path: Path, *, max_bytes: int) -> str:
    """Return the content kind, or raise UnsupportedInput naming the file and a fix."""
    name = path.name
    extension = path.suffix.lower()
    expected = SUPPORTED_EXTENSIONS.get(extension)
    if expected is None:
        if not extension:
            raise UnsupportedInput.coded("file_no_extension", {"file": name}, file=str(path))
        raise UnsupportedInput.coded("file_type", {"file": name, "type": extension}, file=str(path))
    size = path.stat().st_size
    if size == 0:
        raise UnsupportedInput.coded("file_empty", {"file": name}, file=str(path))
    if size > max_bytes:
        raise UnsupportedInput.coded(
            "file_too_big",
            {"file": name, "size_mb": size / 2**20, "max_mb": max_bytes / 2**20},
            file=str(path),
        )
    with open(path, "rb") as handle:
        head = handle.read(2048)
    if expected == "xml" and head.lstrip(b"\xef\xbb\xbf\xff\xfe \t\r\n").startswith((b"<", b"<\0")):
        return expected
    if expected == "zip" and head.startswith(b"PK\x03\x04"):
        return expected
    actual = sniff(head)
    if actual != expected:
        params: dict[str, object] = {"file": name, "expected": expected.upper()}
        code = "file_looks_like" if actual else "file_unrecognised"
        if actual:
            params["actual"] = coded(_KIND_WORDS[actual]) if actual in _KIND_WORDS else actual
        raise UnsupportedInput.coded(code, params, file=str(path))
    return actual
