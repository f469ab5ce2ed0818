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
import subprocess
import tempfile
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

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

__all__ = ["CHILD_FROM", "IN_CHILD", "MEMORY_CAP", "CalamineProcess"]

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


class CalamineProcess:
    """One sheet read by calamine in a child process; ``close`` kills it if it runs."""

    def __init__(self, path: Path, name: str) -> None:
        self.path = path
        # stderr to a file, not a pipe: a chatty child can never block on it
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
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
        while (frame := self._frame()) is not None:
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
        raise RuntimeError(f"the calamine reader stopped before the last row ({self._ended()})")

    def _command(self, kind: str, value: Any) -> None:
        """What the child does with the sheet it has parsed: ``rows`` or ``parse``."""
        stdin = self._process.stdin
        assert stdin is not None
        with contextlib.suppress(BrokenPipeError):  # it ended: the stream says how
            stdin.write(pickle.dumps((kind, value), protocol=pickle.HIGHEST_PROTOCOL))
            stdin.close()

    def _rows(self) -> Rows:
        self._command("rows", None)
        while (frame := self._frame()) is not None:
            kind, value = frame
            if kind == "end":
                return
            yield from value
        raise RuntimeError(f"the calamine reader stopped before the last row ({self._ended()})")

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
