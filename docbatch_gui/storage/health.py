"""The data folder's health: private permissions, leftovers, database integrity.

The data folder holds scanned documents, their text and the extracted fields: other
users of the machine must not read it. DocBatch makes it owner-only when it opens it
(``make_private``: ``0700`` and files ``0600`` on POSIX, an owner-only ACL on Windows,
through ``system.privacy``); ``docbatch doctor`` reports anything that drifted (a copy
made with ``cp -r``, a backup restored by another user).
"""

from __future__ import annotations

import contextlib
import errno
import sqlite3
from pathlib import Path

from docbatch_gui.domain.errors import DocBatchError, StorageError, StoreBusy
from docbatch_gui.storage.atomic import atomic_output
from docbatch_gui.system import privacy

#: folders whose files are checked one by one (the blob tree is checked at its root:
#: its files are written 0600 by ``mkstemp`` and can number in the millions); the
#: webhook outbox holds the results it posts, the watch ledger the scanned paths
FILE_FOLDERS = (".", "logs", "webhooks/pending", "webhooks/failed", "watch", "export_layouts")


def make_private(data_dir: Path) -> None:
    """Owner-only permissions on the folder, its subfolders and the files it keeps at
    its top (the database, logs); best effort: a folder we cannot change is reported
    by ``permission_problems``, not fatal."""
    data_dir = Path(data_dir)
    for path in [*_folders(data_dir), *_files(data_dir)]:
        with contextlib.suppress(OSError):
            privacy.make_private(path)


def private_folder(folder: Path) -> Path:
    """``folder`` (and missing parents) created owner-only, or made so: a part of the
    data folder made after ``make_private`` ran keeps the same rule."""
    folder.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        privacy.make_private(folder)
    return folder


def private_file(path: Path) -> Path:
    """``path`` made owner-only (best effort, as ``make_private``)."""
    with contextlib.suppress(OSError):
        privacy.make_private(path)
    return path


def write_private(path: Path, text: str) -> None:
    """``text`` to ``path`` (UTF-8), whole or not at all and owner-only from its first
    byte (``atomic_output``: ``mkstemp`` creates it 0600, never through a link)."""
    with atomic_output(path, private=True) as partial:
        partial.write_text(text, encoding="utf-8")


def permission_problems(data_dir: Path) -> list[str]:
    """What other users could read or write, as ``path (mode)`` (on Windows, ``path
    (the other accounts)``)."""
    problems = []
    for path in [*_folders(Path(data_dir)), *_files(Path(data_dir))]:
        try:
            exposed = privacy.exposure(path)
        except OSError:
            continue
        if exposed:
            problems.append(f"{path} ({exposed})")
    return problems


def _folders(data_dir: Path) -> list[Path]:
    names = ("", "logs", "blobs", "blobs/.incoming", "blob-cache", "webhooks",
             "webhooks/pending", "webhooks/failed", "watch", "export_layouts")  # fmt: skip
    return [data_dir / name for name in names if (data_dir / name).is_dir()]


def _files(data_dir: Path) -> list[Path]:
    found = []
    for name in FILE_FOLDERS:
        folder = data_dir / name
        if folder.is_dir():
            found += [p for p in folder.iterdir() if p.is_file() and not p.is_symlink()]
    return found


def quick_check(db_path: Path) -> str | None:
    """SQLite's ``PRAGMA quick_check`` on the database file: None when it is sound,
    else its first finding. Read-only: it never repairs or replaces the file."""
    uri = f"file:{db_path}?mode=ro"
    try:
        with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=5)) as db:
            rows = db.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    findings = [str(r[0]) for r in rows if r and r[0] != "ok"]
    return findings[0] if findings else None


def storage_error(exc: BaseException, path: Path, *, busy_timeout: float = 30) -> DocBatchError:
    """One sentence for what went wrong with the database or a folder at ``path``:
    which file, and what to do. Anything unrecognised keeps its own words."""
    text = str(exc).lower()
    where = str(path)
    if (isinstance(exc, OSError) and exc.errno == errno.ENOSPC) or "disk is full" in text:
        return StorageError.coded("storage_disk_full", {"path": where})
    if "locked" in text or "busy" in text:
        return StoreBusy.coded("storage_locked", {"path": where, "seconds": f"{busy_timeout:g}"})
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return StorageError.coded("storage_damaged", {"path": where, "detail": str(exc)})
    if isinstance(exc, PermissionError) or "readonly" in text or "read-only" in text:
        return StorageError.coded("storage_unwritable", {"path": where, "detail": str(exc)})
    if isinstance(exc, FileNotFoundError) or "unable to open" in text:
        return StorageError.coded("storage_unreachable", {"path": where, "detail": str(exc)})
    return StorageError.coded("storage_other", {"path": where, "detail": str(exc)})


def check_not_empty(db_path: Path) -> None:
    """A database file cut to 0 bytes (a full disk, a bad copy) would open as a new,
    empty database and hide every job: it is reported, never silently replaced."""
    if db_path.is_file() and db_path.stat().st_size == 0:
        raise StorageError.coded("storage_empty", {"path": str(db_path)})
