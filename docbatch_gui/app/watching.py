"""Watched folders at work: a complete file is queued, and its original is kept or
moved into ``processed/`` or ``failed/`` beside it once its job has finished.

The window and ``docbatch worker`` watch the folders listed in Settings;
``docbatch watch DIR...`` watches the folders it is given. Each calls ``wake`` (if
given) after queueing, so the engine starts on the new job at once.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.messages import english
from docbatch_gui.domain.said import cause, say
from docbatch_gui.domain.states import JobState
from docbatch_gui.sources.watch import FolderWatcher, Ledger

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
        notify: Callable[[str], None] | None = None,
    ) -> None:
        settings = app.settings
        self.app = app
        self.folders = list(folders if folders is not None else settings.watched_folders)
        self.move = settings.watch_after == "move"
        self.wake = wake or (lambda: None)
        #: a line for the operator (the CLI prints it, the window logs it)
        self.notify = notify or (lambda line: None)
        self.ledger = Ledger(settings.data_dir / "watch" / "taken.sqlite3")
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
    def problems(self) -> dict[Path, str]:
        return dict(self.watcher.problems)

    def start(self) -> None:
        if self.folders:
            folders = ", ".join(str(f) for f in self.folders)
            say(log, logging.INFO, "log_watching", folders=folders)
            self.watcher.start()

    def stop(self) -> None:
        if self.folders:
            self.watcher.stop()
        self.ledger.close()

    def _take(self, path: Path, folder: Path) -> None:
        info = path.stat()
        report = self.app.add([path])
        job = report.jobs[0] if report.jobs else None
        outcome = "queued" if job is not None else "skipped"
        self.ledger.record(path, info.st_size, info.st_mtime_ns, folder,
                           job.id if job else None, outcome)  # fmt: skip
        if job is None:
            why = (
                cause(report.passed_over[0][1])
                if report.passed_over
                else {"code": "watch_type_unsupported"}
            )
            self._say("watch_not_taken", logging.WARNING, folder=folder, file=path.name, why=why)
            if self.move:
                self._move(path, folder, "failed")
            return
        self._say("watch_queued", folder=folder, file=path.name, job=job.id)
        self.wake()

    def _move_finished(self) -> None:
        """Originals whose jobs ended go to processed/ or failed/ (when so set)."""
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
                self._move(Path(taken.path), Path(taken.folder), "processed")
            elif job.state in _FAILED:
                self._move(Path(taken.path), Path(taken.folder), "failed")

    def _move(self, path: Path, folder: Path, subfolder: str) -> None:
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
            self._say("watch_not_moved", logging.WARNING, folder=folder, file=path.name,
                      subfolder=subfolder, error=cause(exc))  # fmt: skip
            if not path.exists():
                self.ledger.moved(str(path), "gone")
            return
        self.ledger.moved(str(path), f"moved:{subfolder}")
        self._say("watch_moved", folder=folder, file=path.name, subfolder=subfolder)

    def _problem(self, folder: Path, message: str | None) -> None:
        if message is None:
            self._say("watch_folder_back", logging.WARNING, folder=folder)
        else:
            self._tell(message, logging.WARNING)

    def _say(self, code: str, level: int = logging.INFO, **params: object) -> None:
        plain = {k: str(v) if isinstance(v, Path) else v for k, v in params.items()}
        self._tell(english(code, **plain), level)

    def _tell(self, line: str, level: int) -> None:
        """One line to the log (worded again in the window's language) and to
        ``notify``, which words a coded line in its own language (``words_of``)."""
        say(log, level, "log_watched_folder", line=cause(line))
        self.notify(line)
