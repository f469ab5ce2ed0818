"""An import's rows on their way into the store: as stored, and stored while the next
chunk is read.

Storing a chunk is partly time the interpreter lock is free (SQLite writing pages, a
MongoDB round trip), and reading the next chunk is all interpreter work; with the
store's calls in a thread of their own, the two overlap instead of taking turns. The
store is shared with the importing thread (its heartbeat), which every backend
allows: they are safe to share between the threads of one process.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import replace
from types import TracebackType
from typing import Any

from docbatch_gui.domain.registry import RegistryRowRecord
from docbatch_gui.domain.text import clean_value
from docbatch_gui.storage.store import Store

__all__ = ["RowWriter", "stored_row"]

#: chunks read ahead of the store at most: bounded memory, and a cancel loses no rows
_DEPTH = 2


def stored_row(row: RegistryRowRecord) -> RegistryRowRecord:
    """A row as stored: its text values without control or direction characters.

    The usual row has none: one check over the text of all three views, and the row
    as it is, not a copy (this runs once per imported row)."""
    texts = [
        v
        for view in (row.raw_data, row.mapped_data, row.normalized)
        for v in view.values()
        if isinstance(v, str)
    ]
    if "".join(texts).isprintable():
        return row
    return replace(
        row,
        raw_data=_clean(row.raw_data),
        mapped_data=_clean(row.mapped_data),
        normalized=_clean(row.normalized),
    )


def _clean(values: dict[str, Any]) -> dict[str, Any]:
    if "".join(v for v in values.values() if isinstance(v, str)).isprintable():
        return values
    return {k: clean_value(v) if isinstance(v, str) else v for k, v in values.items()}


class RowWriter:
    """``add_registry_rows`` in a thread, in order, at most ``_DEPTH`` chunks behind.

    Used as a context manager: leaving it waits until every chunk handed over is
    stored, also when the import fails or is canceled, so the rows read so far are
    there (and counted) when the caller decides what to keep. A store error is
    raised in the importing thread, at the next ``put`` or on leaving.
    """

    def __init__(self, store: Store, registry_id: int) -> None:
        self.store = store
        self.registry_id = registry_id
        self._queue: queue.Queue[list[RegistryRowRecord] | None] = queue.Queue(_DEPTH)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="registry-rows", daemon=True)

    def __enter__(self) -> RowWriter:
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._queue.put(None)
        self._thread.join()
        if exc is None:
            self._raise()

    def put(self, rows: list[RegistryRowRecord]) -> None:
        """Hand over a chunk; waits while ``_DEPTH`` chunks are not stored yet."""
        self._raise()
        self._queue.put([stored_row(r) for r in rows])

    def _run(self) -> None:
        while (rows := self._queue.get()) is not None:
            if self._error is None:  # after a failure, only drain: put must not block
                try:
                    self.store.add_registry_rows(self.registry_id, rows)
                except BaseException as exc:  # raised again in the importing thread
                    self._error = exc

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error
