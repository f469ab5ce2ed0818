"""``docbatch mail``: check the office's mailbox once and queue what it brought."""

from __future__ import annotations

import argparse

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.app.mailing import MailService
from docbatch_gui.cli.output import Language, complain, out, print_json, words
from docbatch_gui.domain.errors import ExitCode

HELP = "queue the attachments of new messages in the office's IMAP mailbox"
DESCRIPTION = (
    "Check the IMAP mailbox of the settings once: every folder of MAIL_FOLDERS ('INBOX' "
    "by default) over TLS (MAIL_SECURITY=tls, port 993; starttls, port 143; plain only "
    "when set so). Each new message's attachments DocBatch reads (PDF, TIFF, JPEG, PNG, "
    "XML, zip) are queued as jobs that record the sender, the subject and the date; a "
    "message without one is queued as a PDF page of its text when MAIL_BODY_AS_PDF is "
    "on. A message is taken once, by its Message-ID, across restarts; then it is flagged "
    "(MAIL_AFTER=flag: read and $DocBatch), moved to MAIL_MOVE_TO (move) or left (keep). "
    "Hostile mail is bounded: MAIL_MAX_MESSAGE_MB, MAIL_MAX_ATTACHMENTS, "
    "MAIL_MAX_ATTACHMENT_MB, MAIL_MAX_DEPTH (forwarded messages), zip bombs, and "
    "MAIL_TIMEOUT for every read; what is refused becomes a failed job with its reason. "
    "The server is MAIL_HOST, MAIL_PORT, MAIL_USER; the password is kept in the keyring "
    "(Settings -> Mail) or given as MAIL_PASSWORD; MAIL_CA_FILE trusts an office's own "
    "certificate authority. The window and `docbatch worker` check every "
    "MAIL_POLL_SECONDS while MAIL_HOST is set. Exit 0 when the check ran, 5 for a "
    "setting to fix (login refused, certificate, no mailbox set), 9 when the server cannot "
    "be reached or stalls (try again later)."
)


def add_mail_parser(commands: argparse._SubParsersAction) -> None:
    mail = commands.add_parser("mail", help=HELP, description=DESCRIPTION)
    mail.add_argument("--mode", choices=["offline", "sync", "batch"], help="extraction mode")
    mail.add_argument("--json", action="store_true", help="print what was queued as JSON")


def cmd_mail(app: DocBatchApp, args: argparse.Namespace) -> int:
    language = Language.current
    service = MailService(
        app,
        mode=args.mode,
        notify=None if args.json else (lambda line: complain(line.words(language), "cyan")),
    )
    report = service.check()
    if args.json:
        body = {
            "messages": report.messages,
            "queued": [job.as_dict() for job in report.queued],
            "refused": [job.as_dict() for job in report.refused],
            "lines": [line.words(language) for line in report.lines],
        }
        print_json(body)
    else:
        said, queued = words(), len(report.queued)
        checked = said.ngettext(
            "{count} message, {queued}, {refused} refused",
            "{count} messages, {queued}, {refused} refused",
            report.messages,
        )
        files = said.ngettext("{count} file queued", "{count} files queued", queued)
        out.print(
            checked.format(
                count=report.messages,
                queued=files.format(count=queued),
                refused=len(report.refused),
            ),
            markup=False,
        )
    return ExitCode.OK
