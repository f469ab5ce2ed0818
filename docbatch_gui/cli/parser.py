"""The ``docbatch`` command line: its commands and options.

Command and option names are a contract for scripts: they are only ever added, never
renamed or removed. ``tests/integration/test_cli_errors.py`` runs every command found
here, so a new one must say how it fails.
"""

from __future__ import annotations

import argparse

from docbatch_gui import __version__
from docbatch_gui.cli.budget import add_budget_parser
from docbatch_gui.cli.counterparties import add_counterparties_parser
from docbatch_gui.cli.errors import DEBUG_VARIABLE
from docbatch_gui.cli.export import add_export_parser
from docbatch_gui.cli.mail import add_mail_parser
from docbatch_gui.cli.registry import add_registry_parser
from docbatch_gui.cli.webhooks import add_webhooks_parser
from docbatch_gui.domain.states import JobState

#: what ``docbatch --help`` says of exit codes (docs/cli.md has the whole table)
EXIT_CODES = """exit codes:
  0 ok, 1 a job or check failed (or an unexpected error: see the log file),
  2 wrong command line, 3 not found, 4 refused in the current state,
  5 invalid setting or configuration file, 6 database or data folder unusable,
  7 input not supported, 8 account (key, billing), 9 busy: try again,
  130 interrupted, 141 output pipe closed"""


def build_parser() -> argparse.ArgumentParser:
    """Every command and option; names are a contract, so they are only ever added."""
    parser = argparse.ArgumentParser(
        prog="docbatch",
        description="DocBatch: turn scanned files into documents with extracted fields.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"DocBatch {__version__}")
    parser.add_argument(
        "--data-dir", help="data directory (default: DOCBATCH_DATA_DIR or the user data dir)"
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output")
    parser.add_argument(
        "--debug",
        action="store_true",
        help=f"print the traceback of an error, not only its sentence (or set {DEBUG_VARIABLE}=1)",
    )
    parser.add_argument(
        "--lang",
        choices=["en", "ru"],
        help="the language of messages (default: the language setting, else the system's)",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    process = commands.add_parser("process", help="queue files and folders for processing")
    process.add_argument("paths", nargs="+", metavar="PATH", help="files or folders (recursive)")
    process.add_argument("--mode", choices=["offline", "sync", "batch"], help="extraction mode")
    process.add_argument("--wait", action="store_true", help="process now and wait until final")
    process.add_argument("--force", action="store_true", help="process known files again")
    process.add_argument("--json", action="store_true", help="print the jobs as JSON")
    process.add_argument(
        "--over-budget",
        action="store_true",
        help="run even if the forecast crosses BUDGET_RUN_USD or BUDGET_MONTH_USD",
    )

    jobs = commands.add_parser("jobs", help="list jobs")
    jobs.add_argument("--json", action="store_true", help="print JSON")
    jobs.add_argument(
        "--state",
        action="append",
        choices=[state.value for state in JobState],
        metavar="STATE",
        help="only jobs in this state (repeatable): "
        + ", ".join(state.value for state in JobState),
    )

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

    watch = commands.add_parser(
        "watch",
        help="queue files dropped into folders (a scanner's share) until stopped",
        description="Watch folders: each complete new file is queued once (size and time "
        "unchanged for WATCH_SETTLE_SECONDS; temporary names are waited out) and processed. "
        "WATCH_AFTER=move puts originals into processed/ or failed/ beside them. A missing "
        "folder is reported and tried again. Ctrl+C stops.",
    )
    watch.add_argument("folders", nargs="+", metavar="DIR", help="folders to watch")
    watch.add_argument(
        "--no-process",
        action="store_true",
        help="only queue the files (the window or `docbatch worker` processes them)",
    )

    worker = commands.add_parser(
        "worker", help="process the queue in the foreground (and watch WATCH_FOLDERS)"
    )
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

    add_mail_parser(commands)

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
    add_export_parser(commands)
    add_webhooks_parser(commands)
    add_counterparties_parser(commands)
    add_budget_parser(commands)
    return parser
