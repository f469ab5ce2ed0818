"""Expand the paths an operator gives (files and folders) into files, in a stable order."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from docbatch_gui.pipeline.formats import IGNORED_NAMES


def _ignored(path: Path) -> bool:
    return path.name.startswith((".", "~$")) or path.name.lower() in IGNORED_NAMES


def iter_files(paths: Iterable[Path | str]) -> Iterator[tuple[Path, bool]]:
    """Files as given, and every file below a folder (sorted, hidden ones skipped),
    each with whether the operator named it explicitly.

    A path that does not exist is yielded as it is, so intake can report it by name
    instead of it silently disappearing.
    """
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw).expanduser()
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    child = Path(root) / name
                    if not _ignored(child) and child.resolve() not in seen:
                        seen.add(child.resolve())
                        yield child, False
        elif path.resolve() not in seen:
            seen.add(path.resolve())
            yield path, True
