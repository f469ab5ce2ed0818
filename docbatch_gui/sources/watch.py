"""Watched folders: a network scanner drops files, DocBatch takes each one once.

A file is taken only when it is complete: its size and modification time have not
changed for ``settle`` seconds, and its name is not a temporary one (``.part``,
``.tmp``, a leading dot) that a copier renames at the end, nor one a folder added by
hand ignores (``Thumbs.db``, ``desktop.ini``, Office's ``~$…`` lock files:
``sources.local.ignored_name``). File-system
events (watchdog) make a new file seen at once; the folders are also listed every
``poll`` seconds, because a network share sends no events. A folder that is missing
or unreadable (an unmounted share) is reported once and tried again at every listing.

What was taken is written to a small SQLite ledger (path, size, modification time)
in the data folder, so a restart takes nothing twice; a file changed in place (new
size or time) counts as a new file. A file is claimed in the ledger before it is
taken, by an INSERT its primary key makes atomic: two watchers on one data folder
(the window and ``docbatch worker``) never take the same file. Each file is handled
on its own: one that cannot be (a name that is not UTF-8) is passed over with a
notice, and the listing goes on.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver, ObservedWatch

from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.domain.said import cause
from docbatch_gui.domain.text import printable
from docbatch_gui.sources.local import ignored_name
from docbatch_gui.storage.health import private_file, private_folder

log = logging.getLogger(__name__)

#: tests only: a file a line is appended to after each listing, so a test of "nothing
#: is taken" waits for listings to have happened instead of sleeping ``N`` seconds
LISTED_MARKER = "DOCBATCH_WATCH_LISTED_MARKER"


class _StopRace(logging.Filter):
    """watchdog logs an ERROR when an inotify event arrives while its emitter stops;
    nothing is lost (the next scan sees every file), so it is not an operator's error."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "called when the thread is inactive" not in record.getMessage()


logging.getLogger("watchdog.observers.inotify").addFilter(_StopRace())

#: the subfolders originals are moved into; never watched themselves
DONE_FOLDERS = ("processed", "failed")
_TEMPORARY_SUFFIXES = (
    ".part",
    ".partial",
    ".tmp",
    ".temp",
    ".crdownload",
    ".filepart",
    ".download",
)


def is_temporary(name: str) -> bool:
    """Never taken: a name a copier renames at the end, or one no document has."""
    return ignored_name(name) or name.lower().endswith(_TEMPORARY_SUFFIXES)


def ledger_key(path: Path) -> str:
    """The path as the ledger stores it: a name that is not UTF-8 keeps its bytes as
    escapes (SQLite text is UTF-8)."""
    return str(path).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


@dataclass(frozen=True)
class Taken:
    path: str
    folder: str
    job_id: int | None
    outcome: str  # claimed | queued | skipped | changed | gone | moved:<subfolder>
    size: int = 0
    mtime_ns: int = 0


class Ledger:
    """Which files were taken, and what became of their originals."""

    def __init__(self, path: Path) -> None:
        private_folder(path.parent)  # scanned files' paths: the data folder's rule
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        private_file(path)
        self._lock = threading.Lock()
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS taken (path TEXT, size INTEGER, mtime_ns INTEGER, "
            "folder TEXT, job_id INTEGER, outcome TEXT, at TEXT, "
            "PRIMARY KEY (path, size, mtime_ns))"
        )

    @contextmanager
    def _cursor(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            yield self._db

    def claim(self, path: Path, size: int, mtime_ns: int, folder: Path) -> bool:
        """Take this version of the file for this process: False when a watcher
        (here or in another process on the same data folder) already has. One INSERT,
        made atomic by the primary key: there is no moment between looking and
        taking."""
        at = datetime.now(UTC).isoformat(timespec="seconds")
        try:
            with self._cursor() as db:
                db.execute(
                    "INSERT INTO taken VALUES (?, ?, ?, ?, NULL, 'claimed', ?)",
                    (ledger_key(path), size, mtime_ns, ledger_key(folder), at),
                )
        except sqlite3.IntegrityError:
            return False
        return True

    def claimed(self, path: Path) -> tuple[int, int] | None:
        """The size and time of the version of ``path`` this watcher claimed last."""
        with self._cursor() as db:
            row = db.execute(
                "SELECT size, mtime_ns FROM taken WHERE path = ? AND outcome = 'claimed' "
                "ORDER BY rowid DESC LIMIT 1",
                (ledger_key(path),),
            ).fetchone()
        return (int(row[0]), int(row[1])) if row else None

    def record(
        self, path: Path, size: int, mtime_ns: int, folder: Path, job_id: int | None, outcome: str
    ) -> None:
        at = datetime.now(UTC).isoformat(timespec="seconds")
        with self._cursor() as db:
            db.execute(
                "INSERT OR REPLACE INTO taken VALUES (?, ?, ?, ?, ?, ?, ?)",
                (ledger_key(path), size, mtime_ns, ledger_key(folder), job_id, outcome, at),
            )

    def waiting_to_move(self) -> list[Taken]:
        """Taken files whose job had not finished when they were last looked at."""
        with self._cursor() as db:
            rows = db.execute(
                "SELECT path, folder, job_id, outcome, size, mtime_ns FROM taken "
                "WHERE outcome = 'queued' AND job_id IS NOT NULL"
            ).fetchall()
        return [Taken(*row) for row in rows]

    def moved(self, path: str, outcome: str) -> None:
        with self._cursor() as db:
            db.execute("UPDATE taken SET outcome = ? WHERE path = ? AND outcome = 'queued'",
                       (outcome, path))  # fmt: skip

    def close(self) -> None:
        self._db.close()


class _Wake(FileSystemEventHandler):
    def __init__(self, wake: threading.Event) -> None:
        self.wake = wake

    def on_any_event(self, event: FileSystemEvent) -> None:
        self.wake.set()


def _mark_listed(count: int) -> None:
    marker = os.environ.get(LISTED_MARKER)
    if marker:
        with open(marker, "a", encoding="utf-8") as stream:
            stream.write(f"{count}\n")


class FolderWatcher:
    """Lists ``folders`` on events and every ``poll`` seconds; calls ``on_ready(path,
    folder)`` for each complete new file, ``on_problem(folder, message or None)`` when
    a folder goes missing (or comes back: None), and ``on_tick()`` after each listing."""

    def __init__(
        self,
        folders: Sequence[Path],
        ledger: Ledger,
        on_ready: Callable[[Path, Path], None],
        *,
        settle: float = 3.0,
        poll: float = 5.0,
        on_problem: Callable[[Path, Message | None], None] | None = None,
        on_tick: Callable[[], None] | None = None,
        exclude: Sequence[Path] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.folders = [Path(f).expanduser() for f in folders]
        #: never taken: DocBatch's own data folder, should a watched folder hold it
        self.exclude = [Path(e).resolve() for e in exclude]
        self.ledger = ledger
        self.on_ready = on_ready
        self.settle = settle
        self.poll = poll
        self.on_problem = on_problem or (lambda folder, message: None)
        self.on_tick = on_tick or (lambda: None)
        self.problems: dict[Path, Message] = {}
        #: seconds, for the settle time (a test drives it to list a growing file)
        self.clock = clock
        self._seen: dict[Path, tuple[int, int, float]] = {}  # size, mtime_ns, since
        self._failed: set[Path] = set()  # files whose handling failed, said once
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._observer: BaseObserver | None = None
        self._scheduled: dict[Path, ObservedWatch | None] = {}  # folder → its watchdog watch
        self._thread: threading.Thread | None = None
        #: listings done (and their ``on_tick``): what a test waits on, not a clock
        self.listings = 0

    # -- life ------------------------------------------------------------------------

    def start(self) -> None:
        self._observer = Observer()
        self._observer.daemon = True
        self._observer.start()
        self._thread = threading.Thread(target=self._run, name="docbatch-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.scan()
                self.on_tick()
            except Exception:  # the watcher must outlive one odd file or callback
                log.error("watched folders: a listing failed; the watcher goes on", exc_info=True)
            self.listings += 1
            _mark_listed(self.listings)
            # listen for events, and settle: look again once a seen file may be complete
            self._wake.wait(min(self.poll, self.settle) if self._seen else self.poll)
            self._wake.clear()

    # -- one listing -----------------------------------------------------------------

    def scan(self) -> None:
        for folder in self.folders:
            try:
                if not folder.is_dir():
                    self._problem(folder, self._unreadable(folder, None))
                    continue
                self._schedule(folder)
                files = list(self._files(folder))
            except OSError as exc:
                self._problem(folder, self._unreadable(folder, exc))
                continue
            self._problem(folder, None)
            for path in files:
                self._consider(path, folder)

    def _unreadable(self, folder: Path, exc: OSError | None) -> Message:
        """What ``on_problem`` and the log say about a folder that cannot be listed: a
        message, so the window words it in its own language."""
        if exc is None:
            why: object = coded("log_watch_missing", folder=str(folder))
        else:
            why = exc.strerror or cause(exc)
        return coded("log_watch_unreadable", folder=str(folder), error=why, poll=self.poll)

    def _files(self, folder: Path) -> Iterator[Path]:
        for root, dirs, names in os.walk(folder):
            here = Path(root)
            if any(here.resolve().is_relative_to(e) for e in self.exclude):
                dirs[:] = []
                continue
            dirs[:] = [d for d in dirs if not d.startswith(".") and not (
                here == folder and d in DONE_FOLDERS)]  # fmt: skip
            for name in names:
                if not is_temporary(name):
                    yield here / name

    def _consider(self, path: Path, folder: Path) -> None:
        """One file, on its own: whatever goes wrong with it is said, and the listing
        goes on with the next."""
        try:
            self._consider_one(path, folder)
        except Exception:
            self._seen.pop(path, None)
            if path not in self._failed:
                self._failed.add(path)
                log.warning(
                    "watched folders: %s could not be handled and is passed over; the other files "
                    "are taken",
                    printable(str(path)),
                    exc_info=True,
                )  # fmt: skip

    def _consider_one(self, path: Path, folder: Path) -> None:
        try:
            info = path.stat()
        except OSError:
            self._seen.pop(path, None)
            return
        if info.st_size == 0:
            return  # a copier's first step: an empty file, filled later
        now = self.clock()
        size, mtime = info.st_size, info.st_mtime_ns
        before = self._seen.get(path)
        if before is None or before[:2] != (size, mtime):
            self._seen[path] = (size, mtime, now)
            return
        if now - before[2] < self.settle:
            return
        if not self.ledger.claim(path, size, mtime, folder):
            return  # known already: taken before, or by the other watcher just now
        del self._seen[path]
        self.on_ready(path, folder)

    def _schedule(self, folder: Path) -> None:
        if folder in self._scheduled or self._observer is None:
            return
        try:
            watch = self._observer.schedule(_Wake(self._wake), str(folder), recursive=True)
        except OSError as exc:  # no inotify here (a share): the listing still works
            log.info("no file events for %s (%s); listing every %g s", str(folder), exc, self.poll)
            watch = None
        self._scheduled[folder] = watch

    def _unschedule(self, folder: Path) -> None:
        watch = self._scheduled.pop(folder, None)
        if watch is not None and self._observer is not None:
            with contextlib.suppress(KeyError, OSError):
                self._observer.unschedule(watch)

    def _problem(self, folder: Path, message: Message | None) -> None:
        if self.problems.get(folder) == message:
            return
        if message is None:
            if folder not in self.problems:
                return
            del self.problems[folder]
            log.info("watched folder %s is back", str(folder))
        else:
            self.problems[folder] = message
            self._unschedule(folder)  # a remounted share is a new folder to watch
            log.warning("watched folder %s", message)
        self.on_problem(folder, message)
