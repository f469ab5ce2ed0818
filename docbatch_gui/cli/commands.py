"""The commands that act on jobs, batches and the worker; ``registry`` has its own
module. Each returns an exit code; an error it does not handle itself is raised and
turned into one sentence and a documented exit code by ``cli.errors``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
from rich.markup import escape as escape_markup
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.text import Text

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.app.mailing import MailService
from docbatch_gui.app.watching import WatchService
from docbatch_gui.cli.budget import cmd_budget, forecast_line, print_process_jobs
from docbatch_gui.cli.counterparties import cmd_counterparties
from docbatch_gui.cli.errors import describe, sentence
from docbatch_gui.cli.export import cmd_export
from docbatch_gui.cli.mail import cmd_mail
from docbatch_gui.cli.output import (
    Language,
    batch_json,
    complain,
    document_json,
    out,
    page_json,
    print_batches,
    print_documents,
    print_jobs,
    print_json,
    print_pages,
    summary_line,
    words,
)
from docbatch_gui.cli.registry import cmd_registry
from docbatch_gui.cli.webhooks import cmd_webhooks
from docbatch_gui.diagnostics.doctor import Status, run_checks, run_live
from docbatch_gui.domain.errors import DocBatchError, ExitCode
from docbatch_gui.domain.messages import word
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.progress import Canceled, CancelToken
from docbatch_gui.domain.state_names import state_name
from docbatch_gui.domain.states import FINAL_STATES
from docbatch_gui.domain.text import printable
from docbatch_gui.engine.budget import is_claude_job
from docbatch_gui.engine.holds import JobHold
from docbatch_gui.engine.intake import shown_path
from docbatch_gui.outbound.webhook import sender_for
from docbatch_gui.settings.model import Settings
from docbatch_gui.system import signals

MAX_DOCUMENTS_SHOWN = 30  # more than a screenful is better read with `documents`
#: how long `process --wait` waits for its webhooks before it exits
WEBHOOK_FLUSH_SECONDS = 30


def cmd_process(app: DocBatchApp, args: argparse.Namespace) -> int:
    report = app.add(args.paths, mode=args.mode, force=args.force)
    w = words()
    for path in report.skipped:
        skipped = w.gettext("skipped {path}: file type not supported")
        complain(skipped.format(path=shown_path(path)), "yellow")
    for path, why in report.passed_over:
        not_read = w.gettext("not read {path}: {reason}")
        reason = why.words(Language.current)
        complain(not_read.format(path=shown_path(path), reason=reason), "yellow")
    if not report.results:
        complain(w.gettext("No supported files found in the given paths."))
        return ExitCode.UNSUPPORTED
    ids = [job.id for job in report.jobs]
    forecasts = {job.id: app.forecast([job.id]) for job in app.jobs(ids) if is_claude_job(job)}
    run = app.forecast(ids)
    if run.jobs and args.json:  # before anything is sent; stdout holds only the JSON
        complain(forecast_line(run), "cyan")
    elif run.jobs:
        out.print(Text(forecast_line(run)))
    if args.over_budget:
        app.allow_over_budget(ids)
    if not args.wait:
        jobs = app.jobs(ids)
        print_process_jobs(app, jobs, args.json, forecasts)
        return ExitCode.OK
    jobs, interrupted = _run_with_progress(app, ids, show=out.is_terminal and not args.json)
    if args.json:
        print_process_jobs(app, jobs, True, forecasts)
    else:
        print_jobs(out, jobs, False)
        out.print(summary_line(jobs))
        documents = app.documents_for(ids)
        if len(documents) <= MAX_DOCUMENTS_SHOWN:
            print_documents(out, app, documents)
        else:
            found = words().ngettext(
                "{count} document found; list it with `docbatch documents --job ID` (add --json "
                "for scripts).",
                "{count} documents found; list them with `docbatch documents --job ID` (add "
                "--json for scripts).",
                len(documents),
            )
            out.print(found.format(count=len(documents)))
    sender = sender_for(app.settings)
    if sender is not None and not sender.flush(WEBHOOK_FLUSH_SECONDS):
        pending = w.gettext("Some webhook deliveries are still pending; the next run sends them.")
        complain(pending, "yellow")
    if app.halted is not None:
        stopped = w.gettext("Stopped: {reason}")
        complain(stopped.format(reason=app.halted.words(Language.current)))
    if app.held is not None:
        complain(app.held.words(Language.current), "yellow")
        return ExitCode.WRONG_STATE
    waiting = [hold for job in jobs if (hold := app.hold_of(job)) is not None]
    if waiting:  # nothing here can start them: say why rather than wait for ever
        complain(held_words(waiting), "yellow")
        return ExitCode.WRONG_STATE
    if app.halted is not None and app.halted.exit_code is ExitCode.CRITICAL:
        return ExitCode.CRITICAL  # the account refused: the rest wait until it is fixed
    if interrupted:
        left = sum(1 for j in jobs if j.state.value == "queued")
        interrupted_words = words().ngettext(
            "Interrupted: {count} job left in the queue; `docbatch worker --once` or the "
            "next `process --wait` continues it.",
            "Interrupted: {count} jobs left in the queue; `docbatch worker --once` or the "
            "next `process --wait` continues them.",
            left,
        )
        complain(interrupted_words.format(count=left), "yellow")
    return ExitCode.OK if all(app.succeeded(j) for j in jobs) else ExitCode.FAILED


def held_words(holds: list[JobHold]) -> str:
    """One sentence for the held jobs a command stops waiting on: how many, and the
    first one's reason (they usually share it)."""
    return sentence(
        word("held_wait_ended", {"count": len(holds), "reason": holds[0].message.as_dict()},
             Language.current)
    )  # fmt: skip


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
        state = state_name(job.state, Language.current)
        progress.update(tasks[job.id], completed=done, state=state)

    stop = asyncio.Event()

    async def run() -> list[Job]:
        with _stop_on_signals(stop):
            return await app.run(ids, on_job, stop=stop)

    with progress:
        for job in app.jobs(ids):
            on_job(job)
        jobs = asyncio.run(run())
    return jobs, stop.is_set()


def _stop_on_signals(stop: asyncio.Event) -> contextlib.AbstractContextManager[None]:
    """Ctrl+C and SIGTERM ask the worker to stop: running children are killed, their
    jobs go back to the queue, and the process exits cleanly."""
    return signals.stop_on_signals(asyncio.get_running_loop(), stop.set)


def cmd_jobs(app: DocBatchApp, args: argparse.Namespace) -> int:
    jobs = app.jobs()
    if args.state:
        jobs = [j for j in jobs if j.state.value in set(args.state)]
    usage = app.tokens_by_job([j.id for j in jobs if j.mode != "offline"]) if args.json else {}
    print_jobs(out, jobs, args.json, app.batches_by_job(), usage, app.holds().held(jobs))
    return ExitCode.OK


def cmd_documents(app: DocBatchApp, args: argparse.Namespace) -> int:
    if args.job is not None:
        app.store.get_job(args.job)  # NotFound → "no job N" and exit 3
    documents = app.documents(args.job)
    if args.json:
        names = {j.id: j.file_name for j in app.jobs()}
        print_json([document_json(d, names.get(d.job_id)) for d in documents])
    else:
        print_documents(out, app, documents)
    return ExitCode.OK


def cmd_worker(app: DocBatchApp, args: argparse.Namespace) -> int:
    folders = [] if args.once else app.settings.watched_folders
    asyncio.run(_serve(app, folders, once=args.once, mail=not args.once))
    return ExitCode.OK


def cmd_watch(app: DocBatchApp, args: argparse.Namespace) -> int:
    folders = [Path(p).expanduser().resolve() for p in args.folders]
    _ = app.store  # a damaged or unreachable store is said before any folder is watched
    watching = words().gettext("Watching {folders}; Ctrl+C stops.")
    out.print(watching.format(folders=", ".join(str(f) for f in folders)), markup=False)
    asyncio.run(_serve(app, folders, once=False, process=not args.no_process))
    return ExitCode.OK


async def _serve(
    app: DocBatchApp, folders: list[Path], *, once: bool, process: bool = True, mail: bool = False
) -> None:
    """Process the queue until stopped, watching ``folders``: a new file wakes the
    engine at once; otherwise it looks again every POLL_INTERVAL seconds."""
    loop = asyncio.get_running_loop()
    stop, wake = asyncio.Event(), asyncio.Event()
    watching = WatchService(
        app,
        folders,
        wake=lambda: loop.call_soon_threadsafe(wake.set),
        notify=lambda line: complain(line.words(Language.current), "cyan"),
    )
    watching.start()
    # `worker`: the mailbox of the settings too, checked every MAIL_POLL_SECONDS
    mailing = MailService(
        app,
        wake=lambda: loop.call_soon_threadsafe(wake.set),
        notify=lambda line: complain(line.words(Language.current), "cyan"),
    )
    if mail:
        mailing.start()  # when MAIL_HOST and MAIL_USER are set
    try:
        with _stop_on_signals(stop):
            while not stop.is_set():
                wake.clear()
                if process:
                    await app.run(None, stop=stop)
                if once:
                    return
                waits = [asyncio.ensure_future(e.wait()) for e in (stop, wake)]
                await asyncio.wait(
                    waits, timeout=app.settings.poll_interval, return_when="FIRST_COMPLETED"
                )
                for waiting in waits:
                    waiting.cancel()
    finally:
        await asyncio.to_thread(mailing.stop)
        await asyncio.to_thread(watching.stop)


def cmd_celery_worker(app: DocBatchApp, args: argparse.Namespace) -> int:
    """A Celery worker with this project's settings; ``worker`` stays the batch loop."""
    # deferred: Celery (team extra), 0.3 s with its app
    from docbatch_gui.distributed.celery_app import configure

    celery = configure(app.settings)
    name = args.name or f"docbatch-{os.getpid()}@%h"
    celery.worker_main(
        ["worker", "--loglevel", args.loglevel, "--concurrency", str(args.concurrency), "-n", name]
    )
    return ExitCode.OK


def cmd_import_yadisk(app: DocBatchApp, args: argparse.Namespace) -> int:
    """The token comes from YADISK_TOKEN or the keyring, never from the command line."""
    cancel = CancelToken()
    w = words()
    try:
        with _cancel_on_signals(cancel):
            report = app.import_yadisk(args.url, mode=args.mode, force=args.force, cancel=cancel)
    except Canceled:
        complain(w.gettext("Interrupted: the Yandex.Disk import was stopped; nothing was queued."))
        return ExitCode.INTERRUPTED
    except httpx.HTTPStatusError as exc:
        status = exc.response.status_code
        code = {401: ExitCode.CRITICAL, 403: ExitCode.CRITICAL, 404: ExitCode.NOT_FOUND}
        answered = w.gettext(
            "Yandex.Disk answered {status}: {error}; check the link and YADISK_TOKEN"
        )
        complain(sentence(answered.format(status=status, error=exc)))
        return code.get(status, ExitCode.FAILED)
    except httpx.HTTPError as exc:  # no answer at all
        unreachable = w.gettext("Yandex.Disk cannot be reached ({error}): check the network")
        complain(sentence(unreachable.format(error=exc)))
        return ExitCode.BUSY
    for result in report.results:
        note = (
            w.gettext(" (duplicate of job {job})").format(job=result.duplicate_of.id)
            if result.duplicate_of
            else ""
        )
        name = printable(result.job.file_name)
        state = state_name(result.job.state, Language.current)
        line = w.gettext("job {id}: {name} {state}")
        line = line.format(id=result.job.id, name=name, state=state)
        out.print(Text(line + note))
    for path, why in report.passed_over:
        not_imported = w.gettext("not imported {path}: {reason}")
        shown = not_imported.format(path=printable(str(path)), reason=why.words(Language.current))
        complain(shown, "yellow")
    queued = len(report.results)
    out.print(
        words()
        .ngettext("{count} file queued from Yandex.Disk", "{count} files queued from Yandex.Disk",
                  queued)
        .format(count=queued)
    )  # fmt: skip
    return ExitCode.OK


@contextlib.contextmanager
def _cancel_on_signals(cancel: CancelToken) -> Iterator[None]:
    """Ctrl+C and SIGTERM cancel a blocking operation that checks ``cancel``."""

    def handler(signum: int, frame: object) -> None:
        cancel.cancel()

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def cmd_pages(app: DocBatchApp, args: argparse.Namespace) -> int:
    app.store.get_job(args.job)  # NotFound → "no job N" and exit 3
    pages = app.pages(args.job)
    if args.json:
        print_json([page_json(p) for p in pages])
    else:
        print_pages(out, pages)
    return ExitCode.OK


def cmd_batches(app: DocBatchApp, args: argparse.Namespace) -> int:
    batches = app.batches()
    if args.json:
        print_json([batch_json(b) for b in batches], ascii=True)
    else:
        print_batches(out, batches)
    return ExitCode.OK


def cmd_pause(app: DocBatchApp, args: argparse.Namespace) -> int:
    app.set_paused(True)
    out.print(
        words().gettext(
            "Worker paused: no new job starts and no batch is submitted or polled until "
            "`docbatch resume`; steps already running finish."
        )
    )
    return ExitCode.OK


def cmd_resume(app: DocBatchApp, args: argparse.Namespace) -> int:
    app.set_paused(False)
    out.print(words().gettext("Worker resumed."))
    return ExitCode.OK


def cmd_retry(app: DocBatchApp, args: argparse.Namespace) -> int:
    done = words().gettext("job {id} ({name}) queued again")
    return _each_job(app, args.ids, lambda i: app.retry(i, force=args.force), done)


def cmd_cancel(app: DocBatchApp, args: argparse.Namespace) -> int:
    return _each_job(app, args.ids, app.cancel, words().gettext("job {id} ({name}) canceled"))


def _each_job(app: DocBatchApp, ids: list[int], act: Callable[[int], Job], done: str) -> int:
    """Act on every id given (``done`` words a job acted on: ``{id}``, ``{name}``):
    one refused (missing, in the wrong state, corrected by a
    person) is one line on stderr and does not stop the others. The exit code is the
    first refusal's. A store that cannot be used stops them all, as in any command."""
    code: int = ExitCode.OK
    for job_id in ids:
        try:
            job = act(job_id)
        except DocBatchError as exc:
            if exc.exit_code not in (ExitCode.NOT_FOUND, ExitCode.WRONG_STATE):
                raise
            failed, message = describe(exc, app.settings) or (exc.exit_code, exc.text)
            if not re.search(rf"(?<![\d.]){job_id}(?![\d.])", message):  # names the job
                message = words().gettext("job {id}: {reason}").format(id=job_id, reason=message)
            complain(sentence(message))
            code = code or failed
            continue
        out.print(Text(done.format(id=job.id, name=printable(job.file_name))))
    return code


def cmd_doctor(settings: Settings, args: argparse.Namespace) -> int:
    checks = run_checks(settings)
    live = run_live(settings, batch=args.batch) if args.live else []
    failed = any(c.status is Status.FAIL for c in checks) or any(
        c.status is Status.FAIL for c in live
    )
    if args.json:
        print_json([c.as_dict() for c in [*checks, *live]], ascii=True)
        return ExitCode.FAILED if failed else ExitCode.OK
    styles = {Status.OK: "green", Status.INFO: "cyan", Status.WARN: "yellow", Status.FAIL: "red"}
    language = Language.current
    for check in [*checks, *live]:
        # the detail may quote a path or a server's words: printed as text, not markup
        out.print(Text(check.mark_in(language), style=styles[check.status]), end="  ")
        said = f"{check.name_in(language)}: {printable(check.detail_in(language))}"
        out.print(Text(said), highlight=False)
    if live:
        spent = sum(c.cost_usd or 0.0 for c in live)
        cost = words().gettext("live check cost {usd} in all").format(usd=f"${spent:.6f}")
        out.print(Text("        " + cost), highlight=False)
    return ExitCode.FAILED if failed else ExitCode.OK


COMMANDS = {
    "process": cmd_process,
    "jobs": cmd_jobs,
    "documents": cmd_documents,
    "worker": cmd_worker,
    "celery-worker": cmd_celery_worker,
    "import-yadisk": cmd_import_yadisk,
    "mail": cmd_mail,
    "batches": cmd_batches,
    "pages": cmd_pages,
    "pause": cmd_pause,
    "resume": cmd_resume,
    "retry": cmd_retry,
    "cancel": cmd_cancel,
    "registry": cmd_registry,
    "export": cmd_export,
    "watch": cmd_watch,
    "webhooks": cmd_webhooks,
    "counterparties": cmd_counterparties,
    "budget": cmd_budget,
}
