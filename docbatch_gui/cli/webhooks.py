"""``docbatch webhooks``: what the webhook outbox holds, and sending again."""

from __future__ import annotations

import argparse
from typing import Any

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.cli.output import complain, out, print_json, words
from docbatch_gui.domain.errors import ExitCode
from docbatch_gui.outbound.webhook import Message, deliver_pending, outbox_for


def add_webhooks_parser(commands: Any) -> None:
    hooks = commands.add_parser(
        "webhooks",
        help="list webhook deliveries that failed or wait, and send them again",
        description="Each job that reaches done or needs_review is POSTed to WEBHOOK_URL. "
        "A delivery that failed after WEBHOOK_ATTEMPTS tries is kept: list it with "
        "--failed and send it again with --resend ID (or --resend all).",
    )
    hooks.add_argument("--failed", action="store_true", help="list failed deliveries")
    hooks.add_argument("--pending", action="store_true", help="list deliveries not sent yet")
    hooks.add_argument(
        "--resend", metavar="ID", action="append", help="send a failed delivery again (or all)"
    )
    hooks.add_argument("--json", action="store_true", help="print JSON")


def _row(message: Message) -> dict[str, Any]:
    return {
        "id": message.id,
        "job": message.job_id,
        "file": message.file_name,
        "event": message.event,
        "created_at": message.created_at,
        "attempts": message.attempts,
        "error": message.error,
        "failed_at": message.failed_at,
    }


def cmd_webhooks(app: DocBatchApp, args: argparse.Namespace) -> int:
    settings = app.settings
    outbox = outbox_for(settings)
    if args.resend:
        if not settings.webhook_url:
            complain(words().gettext("WEBHOOK_URL is not set: there is nowhere to send to."))
            return ExitCode.CONFIG
        wanted = [m.id for m in outbox.failed()] if "all" in args.resend else args.resend
        for message_id in wanted:
            outbox.requeue(message_id)  # NotFound → "no failed delivery X", exit 3
        waiting = len(outbox.pending())
        sent, failed = deliver_pending(settings, outbox)
        busy = max(0, waiting - sent - failed)  # another sender was posting them: left to it
        if args.json:
            print_json({"delivered": sent, "failed": failed, "in_flight": busy}, indent=None)
        else:
            out.print(resend_line(sent, failed, busy), markup=False)
        return ExitCode.OK if not failed else ExitCode.FAILED
    show_pending = args.pending or not args.failed
    show_failed = args.failed or not args.pending
    rows = {
        "pending": [_row(m) for m in outbox.pending()] if show_pending else [],
        "failed": [_row(m) for m in outbox.failed()] if show_failed else [],
    }
    if args.json:
        print_json(rows)
        return ExitCode.OK
    w = words()
    if not settings.webhook_url:
        out.print(w.gettext("WEBHOOK_URL is not set: no deliveries are made."), markup=False)
    states = {
        "pending": w.pgettext("delivery", "pending"),
        "failed": w.pgettext("delivery", "failed"),
    }
    for state, found in rows.items():
        for row in found:
            line = w.gettext("{state} {id} job {job} ({event})").format(
                state=states[state], id=row["id"], job=row["job"], event=row["event"]
            )
            if row["file"]:
                line += f" · {row['file']}"
            why = f": {row['error']}" if row["error"] else ""
            out.print(line + why, markup=False)
    if not any(rows.values()):
        out.print(w.gettext("No deliveries waiting or failed."), markup=False)
    return ExitCode.OK


def resend_line(sent: int, failed: int, busy: int) -> str:
    """``--resend``'s one line: each count in its own plural form."""
    w = words()
    line = w.ngettext(
        "{count} delivered, {failed} failed again", "{count} delivered, {failed} failed again", sent
    ).format(count=sent, failed=failed)
    if busy:
        line += w.ngettext(
            ", {count} being sent by another sender",
            ", {count} being sent by another sender",
            busy,
        ).format(count=busy)
    return line
