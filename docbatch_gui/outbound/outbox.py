"""The webhook outbox: messages on disk, so that delivery never holds processing up
and never loses one. A finished job writes its message to ``DATA_DIR/webhooks/pending``
(one JSON file each, written whole then renamed, owner-only like the rest of the data
folder); a message that cannot be delivered moves to ``failed/``, where ``docbatch
webhooks --failed`` lists it and ``--resend`` puts it back.

One sender at a time per delivery: the window's background sender, its *Resend*, a
``docbatch webhooks --resend`` or a ``process --wait`` in another process may all see
the same pending message. Whoever posts it first takes its claim, a kernel file lock
on ``claims/<id>.lock`` (``system.locks``: dropped when its holder dies, however it
dies), and reads the message again under it: another sender finds the claim taken
(it leaves the message to its holder) or the message gone (delivered, or given up).
"""

from __future__ import annotations

import contextlib
import json
import logging
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from docbatch_gui.domain.errors import NotFound
from docbatch_gui.domain.models import Document, Job
from docbatch_gui.storage.health import private_folder, write_private
from docbatch_gui.system.locks import LockTaken, process_lock

#: how long a resend waits for a claim a sender is about to drop (it gave the message
#: up and is moving it): the claim is held only to post, never for a person's choice
REQUEUE_WAIT_S = 10.0

log = logging.getLogger("docbatch_gui.outbound.webhook")


@dataclass(frozen=True)
class Message:
    id: str
    job_id: int
    event: str
    body: dict[str, Any]
    created_at: str
    attempts: int = 0
    error: str | None = None
    failed_at: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @property
    def file_name(self) -> str:
        """The job's file as the body names it (people know files, not job ids)."""
        job = self.body.get("job")
        return str(job.get("file") or "") if isinstance(job, dict) else ""


class Outbox:
    """Messages on disk: ``pending/`` waits to be sent, ``failed/`` gave up."""

    def __init__(self, folder: Path) -> None:
        self.pending_dir = folder / "pending"
        self.failed_dir = folder / "failed"
        self.claims_dir = folder / "claims"
        for sub in (folder, self.pending_dir, self.failed_dir, self.claims_dir):
            private_folder(sub)  # results posted to a receiver: the data folder's rule

    def add(self, job: Job, documents: Sequence[Document]) -> Message:
        now = datetime.now(UTC).isoformat(timespec="seconds")
        body = {
            "event": f"job.{job.state.value}",
            "job": job.as_dict(),
            "documents": [{**d.as_dict(), "file": job.file_name} for d in documents],
            "sent_by": "docbatch",
        }
        message = Message(f"{now[:19].replace(':', '')}-{job.id}-{uuid.uuid4().hex[:8]}",
                          job.id, job.state.value, body, now)  # fmt: skip
        self._write(self.pending_dir, message)
        return message

    def pending(self) -> list[Message]:
        return self._read(self.pending_dir)

    def failed(self) -> list[Message]:
        return self._read(self.failed_dir)

    def delivered(self, message: Message) -> None:
        (self.pending_dir / f"{message.id}.json").unlink(missing_ok=True)

    def give_up(self, message: Message, attempts: int, error: str) -> Message:
        now = datetime.now(UTC).isoformat(timespec="seconds")
        failed = Message(**{**message.as_dict(), "attempts": message.attempts + attempts,
                            "error": error, "failed_at": now})  # fmt: skip
        self._write(self.failed_dir, failed)
        (self.pending_dir / f"{message.id}.json").unlink(missing_ok=True)
        return failed

    @contextlib.contextmanager
    def claimed(self, message_id: str) -> Iterator[Message | None]:
        """The pending message, this sender's alone while the body runs (threads of this
        process and other processes alike); None when another sender holds it or it is
        no longer pending (delivered or given up meanwhile)."""
        with self._claim(message_id, wait=0.0) as mine:
            path = self.pending_dir / f"{Path(message_id).name}.json"
            if not mine or not path.is_file():
                yield None
                return
            yield self._load(path)

    @contextlib.contextmanager
    def _claim(self, message_id: str, *, wait: float) -> Iterator[bool]:
        path = self.claims_dir / f"{Path(message_id).name}.lock"
        lock = process_lock(path)
        try:
            lock.acquire(timeout=wait)
        except LockTaken:
            yield False
            return
        try:
            yield True
        finally:
            if not self._kept(message_id):
                # delivered: it can never be pending again, so a claimant of this file
                # or of a new one finds nothing to post; removed while still held
                with contextlib.suppress(OSError):
                    path.unlink()
            lock.release()

    def _kept(self, message_id: str) -> bool:
        name = f"{Path(message_id).name}.json"
        return (self.pending_dir / name).exists() or (self.failed_dir / name).exists()

    def requeue(self, message_id: str) -> Message:
        """A failed message back to pending, under its claim (a sender that just gave it
        up may still be moving it)."""
        source = self.failed_dir / f"{Path(message_id).name}.json"
        with self._claim(message_id, wait=REQUEUE_WAIT_S):
            if not source.is_file():
                raise NotFound("failed delivery", message_id)
            message = self._load(source)
            self._write(self.pending_dir, message)
            source.unlink()
        return message

    def _write(self, folder: Path, message: Message) -> None:
        target = folder / f"{message.id}.json"
        write_private(target, json.dumps(message.as_dict(), ensure_ascii=False))

    def _read(self, folder: Path) -> list[Message]:
        messages = []
        for path in sorted(folder.glob("*.json")):
            try:
                messages.append(self._load(path))
            except (OSError, ValueError, TypeError) as exc:
                log.warning("webhook message %s cannot be read (%s); left in place", str(path), exc)
        return messages

    @staticmethod
    def _load(path: Path) -> Message:
        return Message(**json.loads(path.read_text(encoding="utf-8")))
