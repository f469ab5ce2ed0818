"""Headless commands. Their names, options and JSON keys are a contract for scripts.

``docbatch [--data-dir DIR] process PATH... [--mode offline|sync|batch] [--wait] [--force]``
``docbatch [--data-dir DIR] jobs [--json]``
``docbatch [--data-dir DIR] documents [--job ID] [--json]``
``docbatch doctor``
``docbatch [--data-dir DIR] registry import|search|results|export …`` (cli/registry.py)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import logging.handlers
import signal
import sqlite3
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape as escape_markup
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.text import Text

from docbatch_gui import __version__
from docbatch_gui.app import DocBatchApp
from docbatch_gui.cli.output import (
    batch_json,
    document_json,
    page_json,
    print_batches,
    print_documents,
    print_jobs,
    print_pages,
    summary_line,
)
from docbatch_gui.cli.registry import add_registry_parser, cmd_registry
from docbatch_gui.config import Settings, load_settings
from docbatch_gui.doctor import Status, run_checks, run_live
from docbatch_gui.domain.errors import ConfigError, DocBatchError
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import FINAL_STATES
from docbatch_gui.domain.text import printable
from docbatch_gui.engine.documents import CorrectionsAtRisk
from docbatch_gui.engine.intake import shown_path
from docbatch_gui.log_file import log_to_file
from docbatch_gui.secrets import ScrubbingFilter, scrub_secrets
from docbatch_gui.storage.health import storage_error

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
MAX_DOCUMENTS_SHOWN = 30  # more than a screenful is better read with `documents`

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def complain(message: str, style: str = "red") -> None:
    """Print to stderr without markup (file names may hold brackets), secrets masked."""
    err.print(Text(printable(scrub_secrets(message)), style=style))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="docbatch",
        description="DocBatch: turn scanned files into documents with extracted fields.",
    )
    parser.add_argument("--version", action="version", version=f"DocBatch {__version__}")
    parser.add_argument(
        "--data-dir", help="data directory (default: DOCBATCH_DATA_DIR or the user data dir)"
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    process = commands.add_parser("process", help="queue files and folders for processing")
    process.add_argument("paths", nargs="+", metavar="PATH", help="files or folders (recursive)")
    process.add_argument("--mode", choices=["offline", "sync", "batch"], help="extraction mode")
    process.add_argument("--wait", action="store_true", help="process now and wait until final")
    process.add_argument("--force", action="store_true", help="process known files again")
    process.add_argument("--json", action="store_true", help="print the jobs as JSON")

    jobs = commands.add_parser("jobs", help="list jobs")
    jobs.add_argument("--json", action="store_true", help="print JSON")
    jobs.add_argument("--state", action="append", help="only jobs in this state (repeatable)")

    documents = commands.add_parser("documents", help="list documents found")
    documents.add_argument("--job", type=int, metavar="ID", help="only this job's documents")
    documents.add_argument("--json", action="store_true", help="print JSON")

    pages = commands.add_parser("pages", help="list a job's pages (rotation, OCR, text)")
    pages.add_argument("--job", type=int, metavar="ID", required=True, help="the job")
    pages.add_argument("--json", action="store_true", help="print JSON")

    doctor = commands.add_parser("doctor", help="check the configuration and backends")
    doctor.add_argument("--json", action="store_true", help="print JSON")
    doctor.add_argument(
        "--live",
        action="store_true",
        help="also send Claude the real prompt and schema on a sample page: count_tokens "
        "(free) and one real request (a fraction of a cent); needs a key",
    )
    doctor.add_argument(
        "--batch",
        action="store_true",
        help="with --live: also create a one-request batch and cancel it (not billed)",
    )

    worker = commands.add_parser("worker", help="process the queue in the foreground")
    worker.add_argument("--once", action="store_true", help="process what is queued, then exit")

    celery = commands.add_parser(
        "celery-worker", help="run a Celery worker for the team (CELERY_BROKER_URL)"
    )
    celery.add_argument("--concurrency", type=int, default=1, help="task processes (default 1)")
    celery.add_argument("--loglevel", default="INFO", help="Celery log level")
    celery.add_argument("--name", help="node name (default docbatch-PID@HOST)")

    yadisk = commands.add_parser(
        "import-yadisk", help="queue the files of a Yandex.Disk public link or folder"
    )
    yadisk.add_argument("url", metavar="URL", help="public link, or disk:/path with a token")
    yadisk.add_argument("--mode", choices=["offline", "sync", "batch"], help="extraction mode")
    yadisk.add_argument("--force", action="store_true", help="process known files again")

    batches = commands.add_parser("batches", help="list Message Batches (batch mode)")
    batches.add_argument("--json", action="store_true", help="print JSON")
    commands.add_parser("pause", help="pause the batch worker (submit and poll)")
    commands.add_parser("resume", help="resume the batch worker")

    retry = commands.add_parser("retry", help="put jobs back in the queue")
    retry.add_argument("ids", nargs="+", type=int, metavar="ID")
    retry.add_argument(
        "--force",
        action="store_true",
        help="also jobs with documents a person corrected or confirmed (corrections are "
        "carried over where the same document is found again)",
    )
    cancel = commands.add_parser("cancel", help="cancel queued or running jobs")
    cancel.add_argument("ids", nargs="+", type=int, metavar="ID")
    add_registry_parser(commands)
    return parser


def _setup_logging(settings: Settings, verbosity: int) -> None:
    root = logging.getLogger()
    root.setLevel(logging.DEBUG)
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(
        logging.WARNING if verbosity == 0 else logging.INFO if verbosity == 1 else logging.DEBUG
    )
    console.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    console.addFilter(ScrubbingFilter())
    root.addHandler(console)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per HTTP call is noise
    log_to_file(settings)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        overrides = {"data_dir": args.data_dir} if args.data_dir else {}
        settings = load_settings(**overrides)
    except ConfigError as exc:
        complain(str(exc))
        return EXIT_USAGE
    _setup_logging(settings, args.verbose)
    if args.command == "doctor":
        return cmd_doctor(settings, args)
    app = DocBatchApp(settings)
    try:
        return COMMANDS[args.command](app, args)
    except ConfigError as exc:
        complain(str(exc))
        return EXIT_USAGE
    except KeyError as exc:
        complain(str(exc.args[0]))
        return EXIT_FAILED
    except DocBatchError as exc:  # a damaged, locked or full store: one sentence
        complain(str(exc))
        return EXIT_FAILED
    except (sqlite3.Error, OSError) as exc:
        complain(str(storage_error(exc, _where(exc, settings))))
        return EXIT_FAILED
    finally:
        with contextlib.suppress(Exception):
            app.close()


def _where(exc: BaseException, settings: Settings) -> Path:
    """The file an OS error names, else the database (an sqlite error), else the data
    folder (a write that ran out of space names no file)."""
    name = getattr(exc, "filename", None)
    if isinstance(name, str):
        return Path(name)
    return settings.db_path if isinstance(exc, sqlite3.Error) else settings.data_dir


# -- commands ---------------------------------------------------------------------------


def cmd_process(app: DocBatchApp, args: argparse.Namespace) -> int:
    report = app.add(args.paths, mode=args.mode, force=args.force)
    for path in report.skipped:
        complain(f"skipped {shown_path(path)}: file type not supported", "yellow")
    for path, why in report.passed_over:
        complain(f"not read {shown_path(path)}: {why}", "yellow")
    if not report.results:
        complain("No supported files found in the given paths.")
        return EXIT_FAILED
    ids = [job.id for job in report.jobs]
    if not args.wait:
        jobs = app.jobs(ids)
        print_jobs(out, jobs, args.json, app.batches_by_job())
        return EXIT_OK
    jobs, interrupted = _run_with_progress(app, ids, show=out.is_terminal and not args.json)
    if args.json:
        print_jobs(out, jobs, True, app.batches_by_job())
    else:
        print_jobs(out, jobs, False)
        out.print(summary_line(jobs))
        documents = app.documents_for(ids)
        if len(documents) <= MAX_DOCUMENTS_SHOWN:
            print_documents(out, app, documents)
        else:
            out.print(
                f"{len(documents)} documents found; list them with "
                "`docbatch documents --job ID` (add --json for scripts)."
            )
    if app.halted is not None:
        complain(f"Stopped: {app.halted.message}")
    if interrupted:
        left = sum(1 for j in jobs if j.state.value == "queued")
        complain(
            f"Interrupted: {left} job(s) left in the queue; `docbatch worker --once` or the "
            "next `process --wait` continues them.",
            "yellow",
        )
    return EXIT_OK if all(app.succeeded(j) for j in jobs) else EXIT_FAILED


def _run_with_progress(app: DocBatchApp, ids: list[int], *, show: bool) -> tuple[list[Job], bool]:
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TextColumn("{task.fields[state]}"),
        TimeElapsedColumn(),
        console=out,
        disable=not show,
        transient=False,
    )
    tasks: dict[int, TaskID] = {}

    def on_job(job: Job) -> None:
        if job.id not in tasks:
            if job.id not in ids:
                return
            name = escape_markup(printable(job.file_name)[:40])  # a name like "[/]" is text
            tasks[job.id] = progress.add_task(name, total=1.0, state="")
        done = 1.0 if job.state in FINAL_STATES else job.progress
        progress.update(tasks[job.id], completed=done, state=job.state.value)

    stop = asyncio.Event()

    async def run() -> list[Job]:
        with _stop_on_signals(stop):
            return await app.run(ids, on_job, stop=stop)

    with progress:
        for job in app.jobs(ids):
            on_job(job)
        jobs = asyncio.run(run())
    return jobs, stop.is_set()


@contextlib.contextmanager
def _stop_on_signals(stop: asyncio.Event) -> Iterator[None]:
    """SIGINT and SIGTERM ask the worker to stop: running children are killed, their
    jobs go back to the queue, and the process exits cleanly."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        yield
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


def cmd_jobs(app: DocBatchApp, args: argparse.Namespace) -> int:
    jobs = app.jobs()
    if args.state:
        jobs = [j for j in jobs if j.state.value in set(args.state)]
    usage = app.tokens_by_job([j.id for j in jobs if j.mode != "offline"]) if args.json else {}
    print_jobs(out, jobs, args.json, app.batches_by_job(), usage)
    return EXIT_OK


def cmd_documents(app: DocBatchApp, args: argparse.Namespace) -> int:
    if args.job is not None:
        app.store.get_job(args.job)  # KeyError → "no job N"
    documents = app.documents(args.job)
    if args.json:
        names = {j.id: j.file_name for j in app.jobs()}
        print(
            json.dumps(
                [document_json(d, names.get(d.job_id)) for d in documents],
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        print_documents(out, app, documents)
    return EXIT_OK


def cmd_worker(app: DocBatchApp, args: argparse.Namespace) -> int:
    async def run() -> None:
        stop = asyncio.Event()
        with _stop_on_signals(stop):
            while not stop.is_set():
                await app.run(None, stop=stop)
                if args.once:
                    return
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), app.settings.poll_interval)

    asyncio.run(run())
    return EXIT_OK


def cmd_celery_worker(app: DocBatchApp, args: argparse.Namespace) -> int:
    """A Celery worker with this project's settings; ``worker`` stays the batch loop."""
    import os

    from docbatch_gui.distributed.celery_app import configure

    celery = configure(app.settings)
    name = args.name or f"docbatch-{os.getpid()}@%h"
    celery.worker_main(
        ["worker", "--loglevel", args.loglevel, "--concurrency", str(args.concurrency), "-n", name]
    )
    return EXIT_OK


def cmd_import_yadisk(app: DocBatchApp, args: argparse.Namespace) -> int:
    """The token comes from YADISK_TOKEN or the keyring, never from the command line."""
    import httpx

    try:
        report = app.import_yadisk(args.url, mode=args.mode, force=args.force)
    except httpx.HTTPError as exc:
        complain(f"Yandex.Disk: {exc}")
        return EXIT_FAILED
    for result in report.results:
        note = f" (duplicate of job {result.duplicate_of.id})" if result.duplicate_of else ""
        name = printable(result.job.file_name)
        out.print(Text(f"job {result.job.id}: {name} {result.job.state}{note}"))
    out.print(f"{len(report.results)} file(s) queued from Yandex.Disk")
    return EXIT_OK


def cmd_pages(app: DocBatchApp, args: argparse.Namespace) -> int:
    app.store.get_job(args.job)  # KeyError → "no job N"
    pages = app.pages(args.job)
    if args.json:
        print(json.dumps([page_json(p) for p in pages], ensure_ascii=False, indent=2))
    else:
        print_pages(out, pages)
    return EXIT_OK


def cmd_batches(app: DocBatchApp, args: argparse.Namespace) -> int:
    batches = app.batches()
    if args.json:
        print(json.dumps([batch_json(b) for b in batches], indent=2))
    else:
        print_batches(out, batches)
    return EXIT_OK


def cmd_pause(app: DocBatchApp, args: argparse.Namespace) -> int:
    app.set_paused(True)
    out.print(
        "Worker paused: no new job starts and no batch is submitted or polled until "
        "`docbatch resume`; steps already running finish."
    )
    return EXIT_OK


def cmd_resume(app: DocBatchApp, args: argparse.Namespace) -> int:
    app.set_paused(False)
    out.print("Worker resumed.")
    return EXIT_OK


def cmd_retry(app: DocBatchApp, args: argparse.Namespace) -> int:
    refused = 0
    for job_id in args.ids:
        try:
            job = app.retry(job_id, force=args.force)
        except CorrectionsAtRisk as exc:
            complain(f"job {job_id}: {exc}")
            refused += 1
            continue
        out.print(Text(f"job {job.id} ({printable(job.file_name)}) queued again"))
    return EXIT_FAILED if refused else EXIT_OK


def cmd_cancel(app: DocBatchApp, args: argparse.Namespace) -> int:
    for job_id in args.ids:
        job = app.cancel(job_id)
        out.print(Text(f"job {job.id} ({printable(job.file_name)}) canceled"))
    return EXIT_OK


def cmd_doctor(settings: Settings, args: argparse.Namespace) -> int:
    checks = run_checks(settings)
    live = run_live(settings, batch=args.batch) if args.live else []
    failed = any(c.status is Status.FAIL for c in checks) or any(
        c.status is Status.FAIL for c in live
    )
    if args.json:
        print(json.dumps([c.as_dict() for c in [*checks, *live]], indent=2))
        return EXIT_FAILED if failed else EXIT_OK
    marks = {
        Status.OK: "[green]ok[/]",
        Status.INFO: "[cyan]info[/]",
        Status.WARN: "[yellow]warn[/]",
        Status.FAIL: "[red]FAIL[/]",
    }
    for check in [*checks, *live]:
        # the detail may quote a path or a server's words: printed as text, not markup
        out.print(f"{marks[check.status]:>6}  ", end="", highlight=False)
        out.print(Text(f"{check.name}: {printable(check.detail)}"), highlight=False)
    if live:
        spent = sum(c.cost_usd or 0.0 for c in live)
        out.print(f"        live check cost ${spent:.6f} in all", highlight=False)
    return EXIT_FAILED if failed else EXIT_OK


COMMANDS = {
    "process": cmd_process,
    "jobs": cmd_jobs,
    "documents": cmd_documents,
    "worker": cmd_worker,
    "celery-worker": cmd_celery_worker,
    "import-yadisk": cmd_import_yadisk,
    "batches": cmd_batches,
    "pages": cmd_pages,
    "pause": cmd_pause,
    "resume": cmd_resume,
    "retry": cmd_retry,
    "cancel": cmd_cancel,
    "registry": cmd_registry,
}
