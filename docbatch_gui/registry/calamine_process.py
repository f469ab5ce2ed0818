"""The importer's side of ``calamine_child``: start it, take its rows, stop it.

``open_sheet`` starts the child before the byte scan, so calamine's parse (seconds for
a big sheet, and none of the importer's interpreter time) runs next to the scan
instead of after it; when the scan refuses the sheet the child is killed. That is
safe only where the child's address space can be capped (Linux), and pays only for a
sheet big enough (``CHILD_FROM``): otherwise calamine runs in the importer's process
after the scan, as ``xlsx_read.open_calamine``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import queue
import subprocess
import tempfile
import threading
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docbatch_gui.domain.errors import RetryableError
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.domain.registry import FilteredRowRecord, RegistryRowRecord
from docbatch_gui.domain.said import cause
from docbatch_gui.frozen import child_command, is_frozen
from docbatch_gui.registry.calamine_rows import FRAME
from docbatch_gui.registry.rows import RowFilter
from docbatch_gui.system.bounds import can_cap_memory

if TYPE_CHECKING:  # the importer imports this module
    from docbatch_gui.registry.config import RegistryConfig
    from docbatch_gui.registry.importer import ImportStats, Made
    from docbatch_gui.registry.limits import SheetLimits
    from docbatch_gui.registry.xlsx_scan import SheetScan
    from docbatch_gui.storage.row_json import EncodedRow

__all__ = ["CHILD_FROM", "IN_CHILD", "MEMORY_CAP", "CalamineProcess", "ReaderStopped"]

#: where the child runs calamine: where its memory can be capped (Linux, Windows)
IN_CHILD = can_cap_memory()
#: sheet XML bytes from which a child pays: under them the scan takes less than a
#: child takes to start (a tenth of a second), and calamine runs after it, in process
CHILD_FROM = 16 << 20
#: address space the child may add to what it starts with: three times what the scan
#: lets calamine take (``CALAMINE_BUDGET``) for calamine, the parser's imports and its
#: buffers (the bench's sheet adds 340 MB); what the scan refuses is gigabytes
MEMORY_CAP = 768 << 20
_MODULE = "docbatch_gui.registry.calamine_child"
#: parsed frames read ahead of the importer (500 rows each, some 470 KB as JSON): the
#: child parses on while the importer writes a chunk to the store
_AHEAD = 16
_log = logging.getLogger("docbatch_gui.registry.xlsx_read")  # where calamine's fate is told
Rows = Iterator[tuple[Any, ...]]


def _environment() -> dict[str, str] | None:
    """From source, the child imports the same ``docbatch_gui`` as this process, not
    whatever an installed copy points at."""
    if is_frozen():
        return None
    root = str(Path(__file__).resolve().parents[2])
    paths = [root, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


class ReaderStopped(RetryableError):
    """The child reading the sheet ended before its last row (killed, or out of
    memory): the import stops there, and saying so is all it can do."""


class _Ahead:
    """The child's frames read and unpickled in a thread of their own, up to
    ``_AHEAD`` ahead of the importer: while the importer's thread writes a chunk (the
    store gives up the interpreter lock to write), this one empties the pipe, so the
    child never waits for the store. None in the queue is the end of the stream."""

    def __init__(self, read: Callable[[], tuple[str, Any] | None]) -> None:
        self._read = read
        self._queue: queue.Queue[tuple[str, Any] | None] = queue.Queue(_AHEAD)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="calamine-frames", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        frame: tuple[str, Any] | None = None
        try:
            while not self._stop.is_set():
                frame = self._read()
                self._queue.put(frame)
                if frame is None or frame[0] in ("end", "raise"):
                    return
        except Exception:  # the pipe closed under it, or a frame cut short: the end
            self._queue.put(None)

    def get(self) -> tuple[str, Any] | None:
        return self._queue.get()

    def stop(self) -> None:
        """Stop reading (the child is killed first, so a read ends at once)."""
        self._stop.set()
        while self._thread.is_alive():
            with contextlib.suppress(queue.Empty):  # frees a put that waits for room
                self._queue.get_nowait()
            self._thread.join(0.05)


class CalamineProcess:
    """One sheet read by calamine in a child process; ``close`` kills it if it runs."""

    def __init__(self, path: Path, name: str) -> None:
        self.path = path
        # stderr to a file, not a pipe: a chatty child can never block on it
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        self._ahead: _Ahead | None = None
        try:
            self._process = subprocess.Popen(
                [*child_command(_MODULE), str(path), name, str(MEMORY_CAP)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                env=_environment(),
            )
        except BaseException:
            self._stderr.close()
            raise

    @classmethod
    def start(cls, path: Path, name: str) -> CalamineProcess | None:
        """The child reading ``name``; None when no process can be started (calamine
        then runs in this process, after the scan)."""
        try:
            return cls(path, name)
        except OSError as exc:
            _log.info("%s: calamine in this process (no child: %s)", path.name, exc)
            return None

    def open(self) -> tuple[int, Rows] | None:
        """The sheet's width and rows once calamine has parsed it; None when calamine
        cannot read it (the reason is logged, as for calamine in this process)."""
        frame = self._frame()
        if frame is not None and frame[0] == "width":
            return frame[1], self._rows()
        reason = frame[1] if frame is not None else self._ended()
        _log.info(
            "%s: streamed by openpyxl (%s)",
            self.path.name,
            coded("log_reason_calamine_failed", error=cause(reason)).english,
        )
        self.close()
        return None

    def close(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
        if self._ahead is not None:
            self._ahead.stop()
        self._process.wait()
        for pipe in (self._process.stdin, self._process.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):  # a killed child's unread stdin
                    pipe.close()
        self._stderr.close()

    def parse(
        self,
        scan: SheetScan,
        config: RegistryConfig,
        stats: ImportStats,
        path: Path,
        *,
        made: Made,
        limits: SheetLimits,
    ) -> Generator[RegistryRowRecord | EncodedRow | FilteredRowRecord, None, None]:
        """``importer._parse`` run in the child over its rows, each kept row ``made``
        as ``RowFilter``'s method of that name makes it: the same rows, the same counts
        in ``stats`` and the same errors, raised here. The child sends a record's views
        (the dicts are built here), and an encoded row as it is."""
        encoded = made == "encoded"
        step = made if encoded else "stored_views" if made == "stored" else "views"
        plan = {"scan": scan, "config": config, "path": str(path), "step": step,
                "limits": limits}  # fmt: skip
        self._command("parse", plan)
        views: RowFilter | None = None  # builds the records: the child sends their views
        self._ahead = ahead = _Ahead(self._frame)
        while (frame := ahead.get()) is not None:
            kind, value = frame
            if kind == "end":
                stats.headers = value
                return
            if kind == "raise":
                stats.headers, error = value
                raise error
            headers, items = value
            if encoded:
                stats.headers = headers
                for item in items:
                    stats.count(item)
                yield from items
                continue
            if views is None:
                stats.headers = headers
                views = RowFilter(config, headers, limits.max_cell_chars)
            for item in items:
                stats.count(item)
                yield item if isinstance(item, FilteredRowRecord) else views.record(item)
        raise self._stopped(path, stats.total_rows)

    def _command(self, kind: str, value: Any) -> None:
        """What the child does with the sheet it has parsed: ``rows`` or ``parse``."""
        stdin = self._process.stdin
        assert stdin is not None
        with contextlib.suppress(BrokenPipeError):  # it ended: the stream says how
            stdin.write(pickle.dumps((kind, value), protocol=pickle.HIGHEST_PROTOCOL))
            stdin.close()

    def _rows(self) -> Rows:
        self._command("rows", None)
        rows = 0
        while (frame := self._frame()) is not None:
            kind, value = frame
            if kind == "end":
                return
            rows += len(value)
            yield from value
        raise self._stopped(self.path, rows)

    def _stopped(self, path: Path, rows: int) -> ReaderStopped:
        """The child's end mid-sheet in one sentence: the file, where, how it ended."""
        return ReaderStopped.coded(
            "registry_reader_stopped",
            {"file": path.name, "rows": rows, "reason": cause(self._ended())},
            file=str(path),
        )

    def _frame(self) -> tuple[str, Any] | None:
        """The next message; None at the end of the stream (the child is gone)."""
        stream = self._process.stdout
        assert stream is not None
        head = stream.read(FRAME.size)
        if len(head) < FRAME.size:
            return None
        (size,) = FRAME.unpack(head)
        data = stream.read(size)
        if len(data) < size:
            return None
        kind, value = pickle.loads(data)  # our own child's output
        return kind, value

    def _ended(self) -> Message:
        """How the child ended, with the tail of what it wrote to stderr."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=5)
        code = self._process.poll()
        self._stderr.seek(max(self._stderr.seek(0, os.SEEK_END) - 500, 0))
        detail = self._stderr.read().decode(errors="replace").strip().splitlines()
        if detail:
            return coded("log_calamine_exit_detail", exit=code, detail=detail[-1])
        return coded("log_calamine_exit", exit=code)
