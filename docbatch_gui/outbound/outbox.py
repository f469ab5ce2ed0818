"""The webhook outbox: messages on disk, so that delivery never holds processing up
and never loses one. A finished job writes its message to ``DATA_DIR/webhooks/pending``
(one JSON file each, written whole then renamed, owner-only like the rest of the data
folder); a message that cannot be delivered moves to ``failed/``, where ``docbatch
webhooks --failed`` lists it and ``--resend`` puts it back.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from docbatch_gui.domain.errors import NotFound
from docbatch_gui.domain.models import Document, Job
from docbatch_gui.storage.health import private_folder, write_private

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


class Outbox:
    """Messages on disk: ``pending/`` waits to be sent, ``failed/`` gave up."""

    def __init__(self, folder: Path) -> None:
        self.pending_dir = folder / "pending"
        self.failed_dir = folder / "failed"
        for sub in (folder, self.pending_dir, self.failed_dir):
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

    def requeue(self, message_id: str) -> Message:
        source = self.failed_dir / f"{Path(message_id).name}.json"
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
