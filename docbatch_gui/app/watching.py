"""Watched folders at work: a complete file is queued, and its original is kept or
moved into ``processed/`` or ``failed/`` beside it once its job has finished.

The window and ``docbatch worker`` watch the folders listed in Settings;
``docbatch watch DIR...`` watches the folders it is given. Each calls ``wake`` (if
given) after queueing, so the engine starts on the new job at once, and ``on_job``
with a job that was final as it was made (a duplicate): no worker ever takes it, so
the window would otherwise hear of it only at its next start. A queued job is
announced by the worker that takes it (announcing it here too could overwrite the
worker's newer word with this older one).
"""

from __future__ import annotations

import logging
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.said import cause
from docbatch_gui.domain.states import FINAL_STATES, JobState
from docbatch_gui.domain.text import printable
from docbatch_gui.sources.watch import FolderWatcher, Ledger, Taken

log = logging.getLogger(__name__)

_FAILED = {JobState.FAILED, JobState.TIMED_OUT, JobState.CANCELED}
_PROCESSED = {JobState.DONE, JobState.NEEDS_REVIEW}


class WatchService:
    def __init__(
        self,
        app: DocBatchApp,
        folders: Sequence[Path] | None = None,
        *,
        wake: Callable[[], object] | None = None,
        notify: Callable[[Message], None] | None = None,
        on_job: Callable[[Job], None] | None = None,
    ) -> None:
        settings = app.settings
        self.app = app
        self.folders = list(folders if folders is not None else settings.watched_folders)
        self.move = settings.watch_after == "move"
        self.wake = wake or (lambda: None)
        #: a line for the operator (the CLI prints it, the window logs it)
        self.notify = notify or (lambda line: None)
        #: a job final as it was made (the engine host's job listeners: the queue)
        self.on_job = on_job or (lambda job: None)
        self.ledger = Ledger(settings.data_dir / "watch" / "taken.sqlite3")
        #: originals failed as truncated, and when that was first seen
        self._truncated: dict[str, float] = {}
        self.watcher = FolderWatcher(
            self.folders,
            self.ledger,
            self._take,
            settle=settings.watch_settle_seconds,
            poll=settings.watch_poll_seconds,
            on_problem=self._problem,
            on_tick=self._move_finished,
            exclude=[settings.data_dir],
        )

    @property
    def problems(self) -> dict[Path, Message]:
        return dict(self.watcher.problems)

    def start(self) -> None:
        if self.folders:
            folders = ", ".join(str(f) for f in self.folders)
            log.info("watching %s", folders)
            self.watcher.start()

    def stop(self) -> None:
        if self.folders:
            self.watcher.stop()
        self.ledger.close()

    def _take(self, path: Path, folder: Path) -> None:
        """Queue a file the watcher claimed, by the rules of a folder added by hand
        (links out, ignored names, unsupported types are passed over with a notice)."""
        claimed = self.ledger.claimed(path)
        if claimed is None:  # not claimed through the ledger: as the file is now
            info = path.stat()
            claimed = (info.st_size, info.st_mtime_ns)
        report = self.app.add([path], folder=folder)
        job = report.jobs[0] if report.jobs else None
        outcome = "queued" if job is not None else "skipped"
        self.ledger.record(path, *claimed, folder, job.id if job else None, outcome)
        name = printable(path.name)  # a name that is not UTF-8 is shown escaped
        if job is None:
            why = (
                cause(report.passed_over[0][1])
                if report.passed_over
                else {"code": "watch_type_unsupported"}
            )
            self._notice("watch_not_taken", logging.WARNING, folder=folder, file=name, why=why)
            if self.move:
                self._move(path, folder, "failed")
            return
        self._notice("watch_queued", folder=folder, file=name, job=job.id)
        if job.state in FINAL_STATES:
            self.on_job(job)
        self.wake()

    def _move_finished(self) -> None:
        """Originals whose jobs ended go to processed/ or failed/ (when so set), if
        they are still what was taken: a file changed since (a copier that stalled
        past the settle time, then went on) is left in place and taken again."""
        if not self.move:
            return
        waiting = self.ledger.waiting_to_move()
        if not waiting:
            return
        jobs = {j.id: j for j in self.app.jobs([t.job_id for t in waiting if t.job_id])}
        for taken in waiting:
            job = jobs.get(taken.job_id or -1)
            if job is None:
                continue
            if job.state in _PROCESSED or job.is_duplicate:
                subfolder = "processed"
            elif job.state in _FAILED:
                subfolder = "failed"
            else:
                continue
            path, folder = Path(taken.path), Path(taken.folder)
            if _changed(path, taken):
                self._truncated.pop(taken.path, None)
                self.ledger.moved(taken.path, "changed")
                self._notice("watch_changed", folder=folder, file=printable(path.name), job=job.id)
                continue
            if job.error_code == "pdf_truncated" and not self._settled(taken):
                continue  # the copier may still be writing: wait before failed/
            self._truncated.pop(taken.path, None)
            self._move(path, folder, subfolder)

    def _settled(self, taken: Taken) -> bool:
        """A file failed as truncated is moved only after it stayed unchanged for
        the settle time since the failure was seen (else it is taken again)."""
        since = self._truncated.setdefault(taken.path, time.monotonic())
        return time.monotonic() - since >= self.app.settings.watch_settle_seconds

    def _move(self, path: Path, folder: Path, subfolder: str) -> None:
        name = printable(path.name)
        target_dir = folder / subfolder
        target = target_dir / path.name
        counter = 1
        while target.exists():  # never overwrite an earlier file of the same name
            target = target_dir / f"{path.stem} ({counter}){path.suffix}"
            counter += 1
        try:
            target_dir.mkdir(exist_ok=True)
            shutil.move(path, target)
        except OSError as exc:
            self._notice("watch_not_moved", logging.WARNING, folder=folder, file=name,
                      subfolder=subfolder, error=cause(exc))  # fmt: skip
            if not path.exists():
                self.ledger.moved(str(path), "gone")
            return
        self.ledger.moved(str(path), f"moved:{subfolder}")
        self._notice("watch_moved", folder=folder, file=name, subfolder=subfolder)

    def _problem(self, folder: Path, message: Message | None) -> None:
        if message is None:
            self._notice("watch_folder_back", logging.WARNING, folder=folder)
        else:
            self._tell(message, logging.WARNING)

    def _notice(self, code: str, level: int = logging.INFO, **params: object) -> None:
        plain = {k: str(v) if isinstance(v, Path) else v for k, v in params.items()}
        self._tell(coded(code, **plain), level)

    def _tell(self, line: Message, level: int) -> None:
        """One English line to the log, and the message to ``notify``, which words it
        in its own language (``Message.words``)."""
        log.log(level, "watched folder %s", line.english)
        self.notify(line)


def _changed(path: Path, taken: Taken) -> bool:
    """Whether the file is no longer the version that was taken (gone is not
    "changed": the move says it is gone)."""
    try:
        info = path.stat()
    except OSError:
        return False
    return (info.st_size, info.st_mtime_ns) != (taken.size, taken.mtime_ns)
