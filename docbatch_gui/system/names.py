"""File names every file system takes, by Windows' rules (the strictest DocBatch meets).

Windows refuses ``< > : " / \\ | ? *`` and control characters in a name, reserves the
device names (``CON``, ``PRN``, ``AUX``, ``NUL``, ``COM1``–``COM9``, ``LPT1``–``LPT9``,
with any extension: ``con.pdf`` is the console too), and silently drops trailing dots
and spaces (``report.`` becomes ``report``). A name DocBatch makes itself (a file
downloaded from Yandex.Disk into its intake folder, a saved layout) is made portable
on every platform (``portable_name``), so that it means the same file on a Windows
share; a name an operator chose for an export is refused on Windows with the reason
(``check_writable_name``), instead of Windows' own "invalid argument" or a file under
another name. Learn.microsoft.com: "Naming Files, Paths, and Namespaces".
"""

from __future__ import annotations

import errno
import re
import sys
from pathlib import Path

__all__ = ["check_writable_name", "name_problem", "portable_name", "safe_name"]

_DEVICES = frozenset(
    {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"}
    | {f"{port}{n}" for port in ("COM", "LPT") for n in [*"123456789", "¹", "²", "³"]}
)
_FORBIDDEN = re.compile(r'[<>:"/\\|?*\x00-\x1f\x7f]')
#: a name's length DocBatch keeps (Windows allows 255 UTF-16 units per name)
MAX_NAME = 200


def _device(name: str) -> bool:
    """Whether Windows reads ``name`` as a device: its part before the first dot,
    trailing spaces dropped, is a reserved name in any case."""
    return name.split(".", 1)[0].rstrip(" ").upper() in _DEVICES


def name_problem(name: str) -> str | None:
    """Why Windows cannot hold a file named ``name``, in a few words; None when it can."""
    if not name or name in (".", ".."):
        return "an empty name"
    if bad := sorted(set(_FORBIDDEN.findall(name))):
        shown = " ".join(repr(c) if c.isprintable() else f"\\x{ord(c):02x}" for c in bad)
        return f"the characters {shown}"
    if name[-1] in ". ":
        return "a dot or space at the end"
    if _device(name):
        return f"the device name {name.split('.', 1)[0].rstrip(' ').upper()}"
    return None


def portable_name(name: str, fallback: str = "file") -> str:
    """``name`` as a file name every file system takes: its last path part, forbidden
    characters as ``_``, no trailing dots or spaces, a device name prefixed with ``_``,
    at most ``MAX_NAME`` characters with the extension kept; ``fallback`` when
    nothing is left."""
    base = re.split(r"[\\/]", name)[-1]
    base = re.sub(r"[\x00-\x1f\x7f]", "", base)
    base = _FORBIDDEN.sub("_", base).strip(" ").rstrip(". ")
    if len(base) > MAX_NAME:
        _stem, dot, suffix = base.rpartition(".")
        keep = dot + suffix if dot and len(suffix) <= 16 else ""
        base = base[: MAX_NAME - len(keep)].rstrip(". ") + keep
    if not base or base in (".", ".."):
        return fallback
    return f"_{base}" if _device(base) else base


def safe_name(name: str) -> str:
    """One harmless file name for what came from outside (a download, a mail's
    attachment or subject): last path part, no control characters, no leading dot,
    and one that Windows takes too (no ``a:b.pdf``, ``CON``, trailing dots)."""
    return portable_name(portable_name(name).lstrip("."))


def check_writable_name(path: Path, platform: str | None = None) -> None:
    """Refuse, on Windows (``platform``, by default this one), an output file whose
    name Windows cannot hold, as an ``OSError`` naming the file and why (``EINVAL``);
    elsewhere every name the file system takes is written as given."""
    if (platform or sys.platform) != "win32":
        return
    problem = name_problem(Path(path).name)
    if problem is not None:
        raise OSError(errno.EINVAL, f"Windows cannot name a file with {problem}", str(path))
