"""``docbatch export``: documents out to xlsx, csv or json, in a layout."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.cli.output import complain, out, print_json, words
from docbatch_gui.domain.errors import ExitCode
from docbatch_gui.outbound.documents import ExportOptions, delimiter_problem, parse_since
from docbatch_gui.outbound.layouts import Layout, parse_columns


def add_export_parser(commands: Any) -> None:
    export = commands.add_parser(
        "export",
        help="write documents to .xlsx, .csv or .json (one row per document)",
        description="Write documents to OUT (.xlsx, .csv or .json by its suffix). JSON is "
        "the same as `documents --json`; xlsx and csv follow a layout (--layout or "
        "--columns). Layouts: `all` (default), `1c` (1C:Бухгалтерия's load from a "
        "tabular document) and any saved with --save-layout.",
    )
    export.add_argument("out", nargs="?", metavar="OUT", help="the file to write")
    export.add_argument(
        "--state",
        choices=["done", "needs_review", "all"],
        default="all",
        help="documents checked (done: confirmed or no review needed), waiting for review, "
        "or all (default)",
    )
    export.add_argument("--job", type=int, action="append", metavar="ID", help="only this job")
    export.add_argument("--since", metavar="DATE", help="only jobs added since DATE")
    export.add_argument("--layout", default=None, help="a layout by name (default: all)")
    export.add_argument(
        "--columns",
        metavar="LIST",
        help="columns instead of a layout, e.g. job,file,number,date=Дата,amount",
    )
    export.add_argument("--save-layout", metavar="NAME", help="save --columns as layout NAME")
    export.add_argument(
        "--language", choices=["en", "ru"], help="header and words language (default: en)"
    )
    export.add_argument(
        "--delimiter",
        type=_delimiter,
        help='CSV delimiter, one character (default ";" for ru, "," for en)',
    )
    export.add_argument(
        "--lines",
        action="store_true",
        help="CSV: one row per line of the documents' tables (xlsx always adds a sheet "
        "of lines: Lines / Строки)",
    )
    export.add_argument("--list-layouts", action="store_true", help="list the layouts and exit")
    export.add_argument("--json", action="store_true", help="print the result as JSON")


def _delimiter(value: str) -> str:
    """A wrong delimiter is a wrong command line (exit 2), said before anything runs."""
    problem = delimiter_problem(value)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return value


def cmd_export(app: DocBatchApp, args: argparse.Namespace) -> int:
    exports = app.exports
    if args.list_layouts:
        found = exports.layouts()
        if args.json:
            print_json([lay.as_json() for lay in found.values()], indent=None)
        for layout in found.values():
            keys = ", ".join(c.key.removeprefix("field:") for c in layout.columns)
            out.print(f"{layout.name}: {keys}", highlight=False, markup=False)
        return ExitCode.OK
    if args.layout and args.columns:
        complain(
            words().gettext(
                "Give --layout or --columns, not both: --layout picks a saved layout by name."
            )
        )
        return ExitCode.USAGE
    if args.save_layout and not args.columns:
        complain(words().gettext("docbatch export: --save-layout needs --columns"))
        return ExitCode.USAGE
    layout = _layout(app, args)
    if args.out is None:
        if args.save_layout:
            return ExitCode.OK
        no_out = words().gettext("docbatch export: give the file to write (OUT), or --list-layouts")
        complain(no_out)
        return ExitCode.USAGE
    for job_id in args.job or []:
        app.store.get_job(job_id)  # NotFound → "no job N" and exit 3
    options = ExportOptions(
        language=args.language or "en",
        state=args.state,
        job_ids=tuple(args.job or ()),
        since=parse_since(args.since) if args.since else None,
        delimiter=args.delimiter,
        lines=args.lines,
    )
    written = exports.export(Path(args.out), layout, options)
    if args.json:
        print_json({"out": str(Path(args.out).resolve()), "documents": written,
                    "layout": layout.name}, indent=None)  # fmt: skip
    else:
        done = words().ngettext(
            "{count} document written to {out} ({layout})",
            "{count} documents written to {out} ({layout})",
            written,
        )
        out.print(done.format(count=written, out=args.out, layout=layout.name), markup=False)
    return ExitCode.OK


def _layout(app: DocBatchApp, args: argparse.Namespace) -> Layout:
    exports = app.exports
    if args.columns:
        columns = parse_columns(args.columns, app.profile)
        layout = Layout(args.save_layout or "columns", columns)
        if args.save_layout:
            path = exports.save_layout(layout)
            saved = words().gettext("layout {name} saved to {path}")
            out.print(saved.format(name=layout.name, path=path), markup=False)
        return layout
    return exports.layout(args.layout or "all")
