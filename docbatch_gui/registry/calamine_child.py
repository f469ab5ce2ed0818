"""A worksheet read by python-calamine in a process of its own, streamed to the importer.

``python -m docbatch_gui.registry.calamine_child PATH SHEET MEMORY_CAP`` writes frames to
stdout: a 4-byte little-endian length, then a pickled ``(kind, value)``. The first
frame is ``("width", n)`` once the sheet is loaded, or ``("error", message)`` when
calamine cannot read it. Then it reads one pickled command on stdin: ``("rows",
None)`` is answered with ``("rows", [row, ...])`` frames of value tuples from row 1
and column A, then ``("end", None)``; ``("parse", plan)`` runs the importer's
``_parse`` here and answers with ``("items", (headers, [item, ...]))`` frames, then
``("end", headers)`` or ``("raise", (headers, exception))``.

Why a process: calamine parses the whole sheet before giving a row, with the
interpreter lock released, and a sheet too big for it makes it abort, so it may run
only after the byte scan has bounded the sheet. In a process of its own it can start
at once, next to the scan, and be killed when the scan refuses the sheet; and with
its address space capped (``MEMORY_CAP`` bytes more than it starts with, 0 for no
cap), an allocation too big fails there instead of taking memory from the machine.
Parsing the rows here too (filters, fill-down, the three views) gives the import a
second processor: the importer stores one batch while this process parses the next.

Until calamine is done this module needs no more than python-calamine, so the child
starts in a fraction of a second; the parser is imported meanwhile.
"""

from __future__ import annotations

import contextlib
import pickle
import sys
import threading
from pathlib import Path
from typing import IO, Any

import python_calamine

from docbatch_gui.pipeline.child_bounds import cap_memory, die_with_parent
from docbatch_gui.registry.calamine_rows import FRAME, calamine_rows
from docbatch_gui.system.bounds import lowest_thread_priority, widen_pipe

__all__ = ["main"]

_BATCH = 500  # rows per frame
_PIPE_BYTES = 1 << 20  # what Linux lets a process ask for


def _send(out: IO[bytes], kind: str, value: Any) -> None:
    data = pickle.dumps((kind, value), protocol=pickle.HIGHEST_PROTOCOL)
    out.write(FRAME.pack(len(data)))
    out.write(data)


def _widen_pipe(fd: int) -> None:
    """Let a few batches queue in the pipe (64 KiB by default is a third of one), so
    parsing does not wait while the importer stores the batch before."""
    widen_pipe(fd, _PIPE_BYTES)


def main(argv: list[str]) -> int:
    path, name, cap = argv[0], argv[1], int(argv[2])
    die_with_parent()  # the importer's process died mid-load: so do we
    _widen_pipe(sys.stdout.fileno())
    cap_memory(cap)
    out = sys.stdout.buffer
    threading.Thread(target=_preload, daemon=True).start()
    try:
        sheet = python_calamine.CalamineWorkbook.from_path(path).get_sheet_by_name(name)
    except BaseException as exc:  # a Rust panic arrives as a BaseException
        if not isinstance(exc, Exception) and type(exc).__name__ != "PanicException":
            raise
        _send(out, "error", str(exc) or type(exc).__name__)
        out.flush()
        return 0
    end = sheet.end
    width = end[1] + 1 if end else 0
    _send(out, "width", width)
    out.flush()
    try:
        kind, plan = pickle.load(sys.stdin.buffer)  # what the importer wants of the sheet
    except EOFError:  # it wants nothing more
        return 0
    if kind == "parse":
        _parse_here(sheet, name, width, plan, out)
    else:
        _send_rows(sheet, out)
    out.flush()
    return 0


def _send_rows(sheet: python_calamine.CalamineSheet, out: IO[bytes]) -> None:
    batch: list[tuple[Any, ...]] = []
    for row in calamine_rows(sheet):
        batch.append(row)
        if len(batch) >= _BATCH:
            _send(out, "rows", batch)
            batch = []
    if batch:
        _send(out, "rows", batch)
    _send(out, "end", None)


def _parse_here(
    sheet: python_calamine.CalamineSheet, name: str, width: int, plan: Any, out: IO[bytes]
) -> None:
    """The importer's parse over the rows, sent in batches: a kept row as its views'
    values (``RowFilter.views``, or ``stored_views``; the importer builds the dicts) or
    as the store writes it (``encoded``), a filtered one as it is; an error as the
    exception, after the rows before it."""
    # deferred: the importer (openpyxl, pydantic: most of a second) loads in _preload's thread
    #   while calamine parses
    from docbatch_gui.registry.excel import OpenedSheet
    from docbatch_gui.registry.importer import ImportStats, parse_rows
    from docbatch_gui.registry.limits import bounded_rows
    from docbatch_gui.registry.rows import RowFilter

    path, limits = Path(plan["path"]), plan["limits"]
    rows = bounded_rows(path, name, calamine_rows(sheet), limits)
    opened = OpenedSheet(name, [name], rows, width, plan["scan"], "calamine", None, limits)
    stats = ImportStats()
    step = getattr(RowFilter, plan["step"])  # views, stored_views or encoded
    batch: list[Any] = []
    try:
        for item in parse_rows(opened, plan["config"], stats, path, step):
            batch.append(item)
            if len(batch) >= _BATCH:
                _send(out, "items", (stats.headers, batch))
                batch = []
    except Exception as exc:
        if batch:
            _send(out, "items", (stats.headers, batch))
        _send(out, "raise", (stats.headers, _portable(exc)))
        return
    if batch:
        _send(out, "items", (stats.headers, batch))
    _send(out, "end", stats.headers)


def _portable(exc: Exception) -> Exception:
    """The exception itself when it survives pickling (the import's own errors do)."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


def _preload() -> None:
    """Import the parser while calamine parses (it releases the interpreter lock), at
    the lowest priority: the import takes most of a second, which the importer's byte
    scan and calamine need more; after the scan the importer's processor is idle."""
    lowest_thread_priority()
    # openpyxl (for the config's column letters) imports numpy when it is installed,
    # only to know its number types; this process never sees one, and numpy's import
    # is a tenth of a second and its thread pool a hundred MB of address space.
    sys.modules.setdefault("numpy", None)  # type: ignore[arg-type]
    with contextlib.suppress(Exception):  # imported again, and failing, where used
        # deferred: the importer (openpyxl, pydantic: most of a second) loads in this thread while
        #   calamine parses
        import docbatch_gui.registry.importer  # noqa: F401


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError):  # the importer stopped reading: done
        sys.exit(main(sys.argv[1:]))
