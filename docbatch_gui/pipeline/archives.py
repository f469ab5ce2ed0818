"""Zip archives from outside (a mail attachment, an ЭДО operator's package), opened
with bounds: a zip bomb is refused from its directory, before anything is inflated.

A zip's directory states each member's size; a hostile one may lie, so a member is
also read with a cap on what it really inflates to. What is refused names why, as a
message code and its parameters (``texts_data``).
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from typing import IO

from docbatch_gui.domain.errors import UnsupportedInput


@dataclass(frozen=True)
class ZipLimits:
    max_members: int = 1000
    #: what all members may inflate to together, and one member alone
    max_total_bytes: int = 512 * 2**20
    max_member_bytes: int = 100 * 2**20
    #: inflated size over compressed size, for the whole archive
    max_ratio: int = 200


class ArchiveRefused(UnsupportedInput):
    """A zip that is damaged, encrypted, nested, or would inflate past its bounds."""


def open_zip(data: bytes | IO[bytes], name: str, limits: ZipLimits) -> zipfile.ZipFile:
    """The archive, its directory checked against ``limits``; raises ArchiveRefused."""
    stream = io.BytesIO(data) if isinstance(data, bytes) else data
    try:
        archive = zipfile.ZipFile(stream)
        members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise ArchiveRefused.coded("zip_damaged", {"file": name, "error": str(exc)}) from None
    files = [m for m in members if not m.is_dir()]
    if len(files) > limits.max_members:
        raise ArchiveRefused.coded(
            "zip_too_many", {"file": name, "count": len(files), "most": limits.max_members}
        )
    inflated = sum(m.file_size for m in files)
    packed = max(1, sum(m.compress_size for m in files))
    biggest = max((m.file_size for m in files), default=0)
    if (
        inflated > limits.max_total_bytes
        or biggest > limits.max_member_bytes
        or inflated / packed > limits.max_ratio
    ):
        raise ArchiveRefused.coded(
            "zip_bomb",
            {
                "file": name,
                "size_mb": round(inflated / 2**20, 1),
                "ratio": round(inflated / packed),
            },
        )
    for member in files:
        if member.flag_bits & 0x1:
            raise ArchiveRefused.coded("zip_encrypted", {"file": name, "member": member.filename})
        if member.filename.lower().endswith((".zip", ".rar", ".7z")):
            raise ArchiveRefused.coded("zip_nested", {"file": name, "member": member.filename})
    return archive


def read_member(archive: zipfile.ZipFile, member: zipfile.ZipInfo, name: str, most: int) -> bytes:
    """A member's bytes, never more than ``most`` whatever its directory entry said."""
    try:
        with archive.open(member) as handle:
            data = handle.read(most + 1)
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError) as exc:
        raise ArchiveRefused.coded("zip_damaged", {"file": name, "error": str(exc)}) from None
    if len(data) > most:
        raise ArchiveRefused.coded(
            "zip_bomb", {"file": name, "size_mb": round(len(data) / 2**20, 1), "ratio": "?"}
        )
    return data
