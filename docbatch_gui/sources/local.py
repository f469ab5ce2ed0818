"""Expand the paths an operator gives (files and folders) into files, in a stable order.

Only what was asked for is read. Inside a folder, a symbolic link is followed only to
a regular file inside that same folder (``FOLLOW_SYMLINKS_OUT`` allows other places),
and never into ``/proc``, ``/sys`` or ``/dev``: a link to ``/proc/self/environ``
dropped in a watched folder must not put the process's secrets into the store. Named
pipes, sockets and devices are never opened (reading a pipe would wait forever). A
link loop is passed over. Each of these is reported with a reason instead of
vanishing or raising. So is a name that is not valid UTF-8 (bytes a Windows share or
an old archive left): it cannot be stored or shown as it is, so it is named escaped
and passed over, and the files beside it are read.

The same rules hold for a folder added by hand and for a watched folder: both ask
``refusal`` and ``ignored_name``.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.domain.text import printable
from docbatch_gui.pipeline.formats import IGNORED_NAMES

#: places whose files are the system's, never a document
SYSTEM_ROOTS = (Path("/proc"), Path("/sys"), Path("/dev"))


@dataclass(frozen=True)
class Found:
    path: Path
    explicit: bool  # the operator named it, rather than a folder holding it
    problem: Message | None = None  # why it is not read (a note for the operator)


def ignored_name(name: str) -> bool:
    """A name that is never a document: hidden, an Office lock file (``~$…``; other
    names starting with ``~`` are documents), or the system's (``Thumbs.db``…)."""
    return name.startswith((".", "~$")) or name.lower() in IGNORED_NAMES


def undecodable(path: Path) -> bool:
    """Whether the name holds bytes that are not UTF-8 (kept by Python as surrogates)."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def refusal(path: Path, folder: Path | None, *, links_out: bool = False) -> Message | None:
    """Why ``path`` (found in ``folder``, or named when None) must not be read."""
    if undecodable(path):
        return coded("refused_name_not_utf8", name=printable(path.name))
    try:
        target = path.resolve(strict=True)
    except RuntimeError:
        return coded("refused_link_loop")
    except OSError:
        return coded("refused_link_broken") if path.is_symlink() else None  # missing: intake says
    if any(_inside(target, root) for root in SYSTEM_ROOTS):
        return coded("refused_system_file", target=str(target))
    try:
        mode = os.stat(target).st_mode
    except OSError as exc:
        return coded("refused_unreadable", error=exc.strerror or str(exc))
    if stat.S_ISDIR(mode):
        return None
    if not stat.S_ISREG(mode):
        return coded("refused_not_regular")
    leaves = folder is not None and not _inside(target, folder.resolve())
    if path.is_symlink() and leaves and not links_out:
        return coded("refused_link_out", target=str(target))
    return None


def iter_files(
    paths: Iterable[Path | str], *, links_out: bool = False, folder: Path | None = None
) -> Iterator[Found]:
    """Files as given, and every file below a folder (sorted, hidden ones skipped),
    each with whether the operator named it explicitly and any reason not to read it.

    A path that does not exist is yielded as it is, so intake can report it by name
    instead of it silently disappearing. With ``folder`` (a watched folder), each path
    is a file found in it: the folder's rules apply (links out, ignored names), as
    when the folder itself was added.
    """
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw).expanduser()
        if folder is not None:
            if not ignored_name(path.name) and _key(path) not in seen:
                seen.add(_key(path))
                yield Found(path, False, refusal(path, folder, links_out=links_out))
            continue
        problem = refusal(path, None)
        if problem is None and path.is_dir():
            yield from _walk(path, seen, links_out)
            continue
        key = _key(path)
        if key not in seen:
            seen.add(key)
            yield Found(path, True, problem)


def _walk(folder: Path, seen: set[Path], links_out: bool) -> Iterator[Found]:
    """Folders linked to are not entered (``os.walk`` does not follow them)."""
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            child = Path(root) / name
            if ignored_name(name):
                continue
            key = _key(child)
            if key in seen:
                continue
            seen.add(key)
            yield Found(child, False, refusal(child, folder, links_out=links_out))


def _key(path: Path) -> Path:
    """The file a path names, for "seen"; a loop or a broken link is its own key."""
    try:
        return path.resolve(strict=True)
    except (OSError, RuntimeError):
        return path.absolute()
