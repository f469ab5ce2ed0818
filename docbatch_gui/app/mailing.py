"""The office's mailbox as an intake: each new message's attachments are queued once,
then the message is flagged, moved or kept (``MAIL_AFTER``).

"Once" holds across restarts and machines: the store keeps each message taken, by
its Message-ID (or the hash of its bytes when it has none), with its attachments'
sha256 and jobs; an attachment seen before in any job becomes a duplicate as any
file does. The ledger is written after the jobs and before the flag or move, so a
crash between them at worst queues an attachment again as a duplicate, never loses
one. What is refused (too big, too many, too deeply nested, a zip bomb) becomes a
failed job with its reason and where it came from, so the operator sees it in the
queue; the rest of the message is taken.

``docbatch mail`` checks once; the window and ``docbatch worker`` check every
``MAIL_POLL_SECONDS`` while the mailbox is set (``MailService.start``).
"""

from __future__ import annotations

import logging
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.said import cause
from docbatch_gui.engine.intake import intake_file, intake_refused
from docbatch_gui.pipeline.archives import ZipLimits
from docbatch_gui.settings.model import Settings
from docbatch_gui.sources.mail_body import body_pdf
from docbatch_gui.sources.mail_imap import Listed, Mailbox, mail_server
from docbatch_gui.sources.mail_message import (
    Attachment,
    Letter,
    MailLimits,
    Refused,
    ledger_key,
    read_letter,
)
from docbatch_gui.system.names import safe_name

log = logging.getLogger(__name__)


@dataclass
class MailReport:
    """What one check did."""

    messages: int = 0
    queued: list[Job] = field(default_factory=list)
    refused: list[Job] = field(default_factory=list)
    #: lines for the operator (worded messages), in the order things happened
    lines: list[Message] = field(default_factory=list)


def mail_limits(settings: Settings) -> MailLimits:
    attachment = int(settings.mail_max_attachment_mb * 2**20)
    return MailLimits(
        max_message_bytes=int(settings.mail_max_message_mb * 2**20),
        max_attachments=settings.mail_max_attachments,
        max_attachment_bytes=attachment,
        max_depth=settings.mail_max_depth,
        zip=ZipLimits(max_member_bytes=max(attachment, settings.max_file_mb * 2**20)),
    )


class MailService:
    def __init__(
        self,
        app: DocBatchApp,
        *,
        wake: Callable[[], object] | None = None,
        notify: Callable[[Message], None] | None = None,
        password: str | None = None,
        mode: str | None = None,
    ) -> None:
        self.app = app
        self.mode = mode
        self.settings = app.settings
        self.wake = wake or (lambda: None)
        self.notify = notify or (lambda line: None)
        self.password = password
        self.limits = mail_limits(app.settings)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- polling ----------------------------------------------------------------------

    def start(self) -> None:
        """Check now and every MAIL_POLL_SECONDS in a thread, until ``stop``."""
        if self._thread is None and self.settings.mail_configured:
            self._thread = threading.Thread(target=self._poll, name="docbatch-mail", daemon=True)
            self._thread.start()

    def stop(self, wait: float = 2.0) -> None:
        """Stop polling; a check reading from a slow server is not waited for longer
        than ``wait`` (the thread ends at its next read, at most MAIL_TIMEOUT later)."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(wait)

    def _poll(self) -> None:
        while not self._stop.is_set():
            try:
                self.check()
            except DocBatchError as exc:
                self._tell(coded("mail_check_failed", error=cause(exc)), logging.WARNING)
            except Exception as exc:  # one bad pass never ends the polling
                log.error("mailbox: %s", exc, exc_info=True)
            self._stop.wait(self.settings.mail_poll_seconds)

    # -- one check --------------------------------------------------------------------

    def check(self) -> MailReport:
        """Read every folder of MAIL_FOLDERS once; raises MailUnavailable,
        MailRefusedLogin or MailNotConfigured with one sentence."""
        server = mail_server(self.settings, self.password)
        report = MailReport()
        with Mailbox(server) as box:
            folders = box.folders()
            for folder in self.settings.mail_folder_names:
                if folder not in folders:
                    missing = coded("mail_folder_missing", folder=folder,
                                      folders=", ".join(folders))  # fmt: skip
                    self._tell(missing, logging.WARNING, report)
                    continue
                skip_taken = self.settings.mail_after == "flag"
                for listed in list(box.listed(folder, skip_taken=skip_taken)):
                    if self._stop.is_set():
                        return report
                    self._message(box, folder, listed, report)
        self._tell(
            coded("mail_checked", user=server.user, host=server.host, messages=report.messages,
                    queued=len(report.queued), refused=len(report.refused)),
            logging.INFO, report,
        )  # fmt: skip
        if report.queued:
            self.wake()
        return report

    def _message(self, box: Mailbox, folder: str, listed: Listed, report: MailReport) -> None:
        if listed.message_id and self.app.store.mail_taken(ledger_key(listed.message_id, b"")):
            return  # taken before (kept, or its flag was lost): never again
        if listed.size > self.limits.max_message_bytes:
            key = ledger_key(listed.message_id, f"{folder}/{listed.uid}/{listed.size}".encode())
            letter = Letter(listed.message_id, "?", f"message {listed.uid}", None)
            why = Refused(
                f"message-{listed.uid}.eml",
                "mail_message_too_big",
                {"size_mb": round(listed.size / 2**20, 1),
                 "most_mb": round(self.limits.max_message_bytes / 2**20, 1)},
            )  # fmt: skip
            taken = {"refused": [self._refuse(letter, folder, why, report)]}
        else:
            raw = box.fetch(listed.uid)
            letter = read_letter(raw, self.limits)
            key = ledger_key(letter.message_id, raw)
            if self.app.store.mail_taken(key):
                return
            taken = self._take(letter, folder, report)
            if not taken["queued"] and not taken["refused"]:
                others = f" ({', '.join(letter.other)})" if letter.other else ""
                nothing = coded("mail_nothing_to_take", folder=folder, subject=letter.subject,
                                  sender=letter.sender, others=others)  # fmt: skip
                self._tell(nothing, logging.INFO, report)
                self.app.store.remember_mail(key, {**letter.origin(folder), **taken})
                report.messages += 1
                return
        report.messages += 1
        self.app.store.remember_mail(key, {**letter.origin(folder), **taken})
        box.after(listed.uid, self.settings.mail_after, self.settings.mail_move_to)

    def _take(self, letter: Letter, folder: str, report: MailReport) -> dict[str, Any]:
        """Queue the letter's files; what the ledger keeps of them."""
        taken: dict[str, Any] = {"queued": [], "refused": []}
        if letter.refusal is not None:
            taken["refused"].append(self._refuse(letter, folder, letter.refusal, report))
            return taken
        attachments = list(letter.attachments)
        if (
            not attachments
            and not letter.refused
            and self.settings.mail_body_as_pdf
            and letter.body
        ):
            name = safe_name(letter.subject or "message")[:80] + ".pdf"
            attachments.append(Attachment(name, body_pdf(letter)))
        for refused in letter.refused:
            taken["refused"].append(self._refuse(letter, folder, refused, report))
        with tempfile.TemporaryDirectory(prefix="docbatch-mail-") as scratch:
            for number, attachment in enumerate(attachments, start=1):
                job = self._queue(letter, folder, attachment, Path(scratch) / str(number))
                taken["queued"].append({"name": attachment.name, "sha256": attachment.sha256,
                                        "job": job.id})  # fmt: skip
                failed = job.error is not None and not job.is_duplicate
                (report.refused if failed else report.queued).append(job)
                line = (
                    coded("mail_refused", folder=folder, file=attachment.name,
                            subject=letter.subject, sender=letter.sender, why=cause(job.error))
                    if failed
                    else coded("mail_queued", folder=folder, file=attachment.name,
                                 subject=letter.subject, sender=letter.sender, job=job.id)
                )  # fmt: skip
                self._tell(line, logging.INFO, report)
        return taken

    def _queue(self, letter: Letter, folder: str, attachment: Attachment, scratch: Path) -> Job:
        scratch.mkdir()
        path = scratch / attachment.name
        path.write_bytes(attachment.data)
        result = intake_file(
            self.app.store,
            self.app.blobs,
            path,
            mode=self.app.resolve_mode(self.mode),
            max_file_mb=self.settings.max_file_mb,
            origin=letter.origin(folder),
            source_path=_source(letter, folder, attachment.name),
        )
        return result.job

    def _refuse(self, letter: Letter, folder: str, refused: Refused, report: MailReport) -> int:
        why = coded(refused.code, **refused.params)
        error = coded("mail_part_refused", file=refused.name, subject=letter.subject,
                        sender=letter.sender, why=why)  # fmt: skip
        job = intake_refused(
            self.app.store, refused.name, _source(letter, folder, refused.name),
            self.app.resolve_mode(self.mode), error, letter.origin(folder),
        )  # fmt: skip
        report.refused.append(job.job)
        self._tell(coded("mail_refused", folder=folder, file=refused.name,
                           subject=letter.subject, sender=letter.sender, why=why),
                   logging.WARNING, report)  # fmt: skip
        return job.job.id

    def _tell(self, line: Message, level: int, report: MailReport | None = None) -> None:
        log.log(level, "mailbox: %s", line.english)
        if report is not None:
            report.lines.append(line)
        self.notify(line)


def _source(letter: Letter, folder: str, name: str) -> str:
    """Where the job's file came from, as the queue shows it instead of a path."""
    return f"mail:{folder}/{letter.message_id or '?'}/{name}"
