"""``docbatch registry …``: import, search, review and export a registry headless.

Command names, options and JSON keys are a contract for scripts:

``docbatch registry import FILE --config CONFIG.json [--force] [--name NAME] [--json]``
``docbatch registry search ID [--json]``
``docbatch registry results ID [--filter F] [--json]``  (row, document_id, score,
warnings, explanation, …)
``docbatch registry unmatched ID [--json]``
``docbatch registry assign ID ROW DOCUMENT_ID [--who NAME]`` / ``unassign ID ROW``
``docbatch registry export ID OUT.xlsx``
``docbatch registry list [--json]``
"""

from __future__ import annotations

import argparse
import getpass
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from rich.text import Text

from docbatch_gui.cli.output import Language, err, out, print_json
from docbatch_gui.domain.errors import ExitCode
from docbatch_gui.domain.progress import Progress, ProgressSink
from docbatch_gui.domain.registry import Registry, SearchResult
from docbatch_gui.registry.service import RESULT_FILTERS

if TYPE_CHECKING:
    from docbatch_gui.app.facade import DocBatchApp


def add_registry_parser(commands: Any) -> None:
    """Register ``registry`` and its subcommands on the main parser's subparsers."""
    registry = commands.add_parser("registry", help="import and match an Excel registry")
    sub = registry.add_subparsers(dest="registry_command", required=True, metavar="ACTION")

    imp = sub.add_parser("import", help="import an .xlsx registry with a JSON config")
    imp.add_argument("file", metavar="FILE")
    imp.add_argument("--config", required=True, metavar="CONFIG.json", help="settings and rules")
    imp.add_argument("--force", action="store_true", help="replace existing search results")
    imp.add_argument("--name", help="registry name (default: the file name)")
    imp.add_argument("--json", action="store_true", help="print JSON")

    search = sub.add_parser("search", help="match the registry rows to documents")
    search.add_argument("id", type=int, metavar="ID")
    search.add_argument("--json", action="store_true", help="print JSON")

    results = sub.add_parser("results", help="show the match of every row")
    results.add_argument("id", type=int, metavar="ID")
    results.add_argument("--filter", choices=RESULT_FILTERS, default="all")
    results.add_argument("--json", action="store_true", help="print JSON")

    unmatched = sub.add_parser("unmatched", help="documents no row matched, by type")
    unmatched.add_argument("id", type=int, metavar="ID")
    unmatched.add_argument("--json", action="store_true", help="print JSON")

    assign = sub.add_parser("assign", help="give a row a document by hand")
    assign.add_argument("id", type=int, metavar="ID")
    assign.add_argument("row", type=int, metavar="ROW")
    assign.add_argument("document", type=int, metavar="DOCUMENT_ID")
    assign.add_argument("--who", default=None, help="who decided (default: the OS user)")
    unassign = sub.add_parser("unassign", help="take a row's document away by hand")
    unassign.add_argument("id", type=int, metavar="ID")
    unassign.add_argument("row", type=int, metavar="ROW")
    unassign.add_argument("--who", default=None, help="who decided (default: the OS user)")

    export = sub.add_parser("export", help="write the registry with its matches to .xlsx")
    export.add_argument("id", type=int, metavar="ID")
    export.add_argument("out", metavar="OUT.xlsx")

    listing = sub.add_parser("list", help="list registries")
    listing.add_argument("--json", action="store_true", help="print JSON")


def registry_json(reg: Registry) -> dict[str, Any]:
    return {
        "id": reg.id,
        "name": reg.name,
        "file": reg.source_file,
        "status": reg.status.value,
        "task_error": reg.task_error,
        "kept": reg.stats.get("kept"),
        "filtered": reg.stats.get("filtered"),
        "created_at": reg.created_at.isoformat() if reg.created_at else None,
        "updated_at": reg.updated_at.isoformat() if reg.updated_at else None,
    }


def result_json(result: SearchResult) -> dict[str, Any]:
    """A result as ``--json`` gives it: ``warnings`` as English texts, their codes and
    parameters in ``warning_codes``."""
    return result.body()


def _who(args: argparse.Namespace) -> str:
    return args.who or getpass.getuser()


def _progress() -> ProgressSink | None:
    """A one-line stderr counter on a terminal ("rows imported: 300/1200"); silent in
    scripts. The operation names what it counts."""
    if not err.is_terminal:
        return None

    def show(step: Progress) -> None:
        err.print(f"\r{step.what}: {step.done}" + (f"/{step.total}" if step.total else ""), end="")

    return show


def cmd_registry(app: DocBatchApp, args: argparse.Namespace) -> int:
    """An error is raised on to ``cli.errors``: the same sentence and exit code as
    every other command (no registry 7 is exit 3 here as no job 7 is elsewhere)."""
    return _ACTIONS[args.registry_command](app, args)


def _import(app: DocBatchApp, args: argparse.Namespace) -> int:
    summary = app.registry.import_registry(
        args.file, args.config, name=args.name, force=args.force,
        progress=_progress(),
    )  # fmt: skip
    if args.json:
        payload = {
            "id": summary.registry_id,
            "kept": summary.kept,
            "filtered": summary.filtered,
            "by_reason": summary.stats.get("by_reason", {}),
            "formula_without_value": summary.stats.get("formula_without_value", 0),
        }
        print_json(payload)
    else:
        out.print(
            f"registry {summary.registry_id}: {summary.kept} rows kept, {summary.filtered} filtered"
        )
    return ExitCode.OK


def _search(app: DocBatchApp, args: argparse.Namespace) -> int:
    pairs = app.registry.candidate_pairs(args.id)
    if not args.json:
        out.print(f"registry {args.id}: {pairs} candidate pairs to score")
    summary = app.registry.search(args.id, progress=_progress())
    if args.json:
        print_json(asdict(summary), ascii=True)
    else:
        out.print(
            f"registry {args.id}: {summary.matched} rows matched, {summary.no_match} without "
            f"a document, {summary.with_warnings} with warnings, {summary.manual} kept manual"
        )
    return ExitCode.OK


def _results(app: DocBatchApp, args: argparse.Namespace) -> int:
    results = app.registry.results(args.id, args.filter)
    if args.json:
        print_json([result_json(r) for r in results])
        return ExitCode.OK
    for r in results:
        doc = "—" if r.document_id is None else str(r.document_id)
        warnings = "; ".join(r.warnings_in(Language.current))
        out.print(Text(f"row {r.row:>6}  document {doc:>6}  score {r.score:.2f}  {warnings}"))
    return ExitCode.OK


def _unmatched(app: DocBatchApp, args: argparse.Namespace) -> int:
    app.store.get_registry(args.id)
    by_type = app.registry.unmatched(args.id)
    if args.json:
        payload = {t: [d.as_dict() for d in docs] for t, docs in by_type.items()}
        print_json(payload)
    else:
        for doc_type, docs in sorted(by_type.items()):
            out.print(Text(f"{doc_type}: {len(docs)} — " + ", ".join(str(d.id) for d in docs)))
    return ExitCode.OK


def _assign(app: DocBatchApp, args: argparse.Namespace) -> int:
    result = app.registry.assign(args.id, args.row, args.document, _who(args))
    out.print(Text(f"row {result.row}: document {result.document_id}, by {result.assigned_by}"))
    return ExitCode.OK


def _unassign(app: DocBatchApp, args: argparse.Namespace) -> int:
    result = app.registry.unassign(args.id, args.row, _who(args))
    out.print(Text(f"row {result.row}: no document, by {result.assigned_by}"))
    return ExitCode.OK


def _export(app: DocBatchApp, args: argparse.Namespace) -> int:
    written = app.registry.export(
        args.id, args.out, progress=_progress(), language=Language.chosen or "ru"
    )
    out.print(Text(f"registry {args.id}: {written} rows written to {args.out}"))
    return ExitCode.OK


def _list(app: DocBatchApp, args: argparse.Namespace) -> int:
    registries = app.registry.registries()
    if args.json:
        print_json([registry_json(r) for r in registries])
    else:
        for r in registries:
            line = f"{r.id:>4}  {r.status.value:<10}  {r.name}  ({r.stats.get('kept', 0)} rows)"
            out.print(Text(line + (f"  error: {r.task_error}" if r.task_error else "")))
    return ExitCode.OK


_ACTIONS = {
    "import": _import,
    "search": _search,
    "results": _results,
    "unmatched": _unmatched,
    "assign": _assign,
    "unassign": _unassign,
    "export": _export,
    "list": _list,
}
