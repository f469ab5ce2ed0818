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

from docbatch_gui.cli.output import Language, err, out, print_json, words
from docbatch_gui.domain.errors import ExitCode
from docbatch_gui.domain.messages import word
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
        what = words().pgettext("progress", step.what)  # a stage's words: "rows imported"
        err.print(f"\r{what}: {step.done}" + (f"/{step.total}" if step.total else ""), end="")

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
        w = words()
        kept = w.ngettext("{count} row kept", "{count} rows kept", summary.kept)
        out.print(
            w.gettext("registry {id}: {kept}, {filtered} filtered").format(
                id=summary.registry_id,
                kept=kept.format(count=summary.kept),
                filtered=summary.filtered,
            )
        )
    return ExitCode.OK


def _search(app: DocBatchApp, args: argparse.Namespace) -> int:
    pairs = app.registry.candidate_pairs(args.id)
    if not args.json:
        to_score = words().ngettext(
            "registry {id}: {count} candidate pair to score",
            "registry {id}: {count} candidate pairs to score",
            pairs,
        )
        out.print(to_score.format(id=args.id, count=pairs))
    summary = app.registry.search(args.id, progress=_progress())
    if args.json:
        print_json(asdict(summary), ascii=True)
    else:
        w = words()
        matched = w.ngettext("{count} row matched", "{count} rows matched", summary.matched)
        out.print(
            w.gettext(
                "registry {id}: {matched}, {no_match} without a document, {with_warnings} "
                "with warnings, {manual} kept manual"
            ).format(
                id=args.id,
                matched=matched.format(count=summary.matched),
                no_match=summary.no_match,
                with_warnings=summary.with_warnings,
                manual=summary.manual,
            )
        )
    return ExitCode.OK


def _results(app: DocBatchApp, args: argparse.Namespace) -> int:
    results = app.registry.results(args.id, args.filter)
    if args.json:
        print_json([result_json(r) for r in results])
        return ExitCode.OK
    line = words().gettext("row {row}  document {document}  score {score}  {warnings}")
    for r in results:
        doc = "—" if r.document_id is None else str(r.document_id)
        warnings = "; ".join(r.warnings_in(Language.current))
        shown = line.format(
            row=f"{r.row:>6}", document=f"{doc:>6}", score=f"{r.score:.2f}", warnings=warnings
        )
        out.print(Text(shown.rstrip()))
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
    assigned = words().gettext("row {row}: document {document}, by {who}")
    out.print(
        Text(assigned.format(row=result.row, document=result.document_id, who=result.assigned_by))
    )
    return ExitCode.OK


def _unassign(app: DocBatchApp, args: argparse.Namespace) -> int:
    result = app.registry.unassign(args.id, args.row, _who(args))
    unassigned = words().gettext("row {row}: no document, by {who}")
    out.print(Text(unassigned.format(row=result.row, who=result.assigned_by)))
    return ExitCode.OK


def _export(app: DocBatchApp, args: argparse.Namespace) -> int:
    written = app.registry.export(
        args.id, args.out, progress=_progress(), language=Language.chosen or "ru"
    )
    done = words().ngettext(
        "registry {id}: {count} row written to {out}",
        "registry {id}: {count} rows written to {out}",
        written,
    )
    out.print(Text(done.format(id=args.id, count=written, out=args.out)))
    return ExitCode.OK


def _list(app: DocBatchApp, args: argparse.Namespace) -> int:
    registries = app.registry.registries()
    if args.json:
        print_json([registry_json(r) for r in registries])
    else:
        w = words()
        if not registries:
            out.print(w.gettext("No registries yet: `docbatch registry import` adds one."))
        for r in registries:
            kept = int(r.stats.get("kept", 0) or 0)
            rows = w.ngettext("({count} row)", "({count} rows)", kept).format(count=kept)
            status = registry_status(r.status.value)
            line = f"{r.id:>4}  {status:<10}  {r.name}  {rows}"
            if r.task_error:
                line += "  " + w.gettext("error: {error}").format(error=r.task_error)
            out.print(Text(line))
    return ExitCode.OK


def registry_status(status: str) -> str:
    """A registry's status in the run's language (``domain.texts_registry``)."""
    return word(f"registry_status_{status}", {}, Language.current, status)


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
