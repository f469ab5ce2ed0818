"""``docbatch counterparties``: what confirmed documents taught about their sellers,
and forgetting one. Errors go through the one handler in ``cli.errors``, like every
command's.
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.cli.output import complain, out, print_json, words
from docbatch_gui.domain.counterparty import Counterparty
from docbatch_gui.domain.errors import ExitCode
from docbatch_gui.domain.normalize import normalize_number


def add_counterparties_parser(commands: Any) -> None:
    """``commands`` is the parser's subcommands action."""
    parser = commands.add_parser(
        "counterparties", help="list the sellers remembered from confirmed documents"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--forget",
        metavar="INN",
        help="forget everything remembered of this seller INN (its next document is new)",
    )
    parser.add_argument(
        "--forget-document",
        type=int,
        metavar="DOCUMENT_ID",
        help="forget what one confirmed document taught (a wrong confirmation); "
        "the seller's other confirmations stay",
    )


def cmd_counterparties(app: DocBatchApp, args: argparse.Namespace) -> int:
    if args.forget is not None:
        inn = normalize_number(args.forget)
        if not inn:
            needs = words().gettext("The --forget option needs the seller's INN (10 or 12 digits).")
            complain(needs)
            return ExitCode.USAGE
        count = app.review.forget_counterparty(inn)  # NotFound → exit 3
        forgot = words().ngettext(
            "Forgot INN {inn}: {count} confirmed document.",
            "Forgot INN {inn}: {count} confirmed documents.",
            count,
        )
        out.print(Text(forgot.format(inn=inn, count=count)))
        return ExitCode.OK
    if args.forget_document is not None:
        inn = app.review.forget_confirmation(args.forget_document)  # NotFound → exit 3
        forgot_one = words().gettext("Forgot confirmed document {document} of INN {inn}.")
        out.print(Text(forgot_one.format(document=args.forget_document, inn=inn)))
        return ExitCode.OK
    found = app.review.counterparties()
    if args.json:
        print_json([c.as_dict() for c in found])
    else:
        print_counterparties(out, found)
    return ExitCode.OK


def _shapes(counterparty: Counterparty) -> str:
    return "; ".join(
        f"{doc_type} {', '.join(shapes)}"
        for doc_type, shapes in counterparty.number_formats.items()
    )


def print_counterparties(console: Console, counterparties: list[Counterparty]) -> None:
    w = words()
    if not counterparties:
        console.print(
            w.gettext(
                "No counterparties remembered yet: confirming a document remembers its seller."
            )
        )
        return
    table = Table(title=w.pgettext("table", "Counterparties"), title_justify="left")
    # copied into --forget: never broken
    table.add_column(w.pgettext("column", "INN"), no_wrap=True)
    for column in (
        w.pgettext("column", "name"),
        w.pgettext("column", "docs"),
        w.pgettext("column", "types"),
        w.pgettext("column", "VAT"),
        w.pgettext("column", "number formats"),
        w.pgettext("column", "last confirmed"),
    ):
        table.add_column(column)
    for counterparty in counterparties:
        table.add_row(
            counterparty.inn,
            Text(counterparty.name or ""),  # a name like "[/]" is text, not markup
            str(counterparty.confirmed),
            ", ".join(counterparty.doc_types),
            ", ".join(f"{rate}%" for rate in counterparty.vat_rates),
            Text(_shapes(counterparty)),
            (counterparty.last_confirmed_at or "")[:10],
        )
    console.print(table)
