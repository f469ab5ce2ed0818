"""What every table mixin of ``SQLiteStore`` shares: the store's connection, lock and
write transaction, and a read under the lock."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any


class SQLiteTables:
    _db: sqlite3.Connection
    _lock: threading.RLock

    _tx: Callable[[], AbstractContextManager[sqlite3.Connection]]

    def _rows(self, sql: str, args: Any = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def _row(self, sql: str, args: Any = ()) -> sqlite3.Row | None:
        with self._lock:
            row: sqlite3.Row | None = self._db.execute(sql, args).fetchone()
            return row

    def _value(self, sql: str, args: Any = ()) -> Any:
        """The first column of the first row (a count, a sum)."""
        with self._lock:
            return self._db.execute(sql, args).fetchone()[0]
