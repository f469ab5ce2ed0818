"""``docbatch budget`` and the forecast ``docbatch process`` prints before a run.

The figures and rules are in ``docbatch_gui.engine.budget`` (docs/budget.md); here
they are worded for a terminal, and given as JSON with stable keys for scripts.
"""

from __future__ import annotations

import argparse
from typing import Any

from docbatch_gui.app.budget import BudgetStatus
from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.cli.output import Language, complain, job_json, out, print_jobs, print_json, words
from docbatch_gui.domain.errors import ExitCode
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.state_names import mode_name
from docbatch_gui.engine.budget import Forecast, current_hold, usd_text
from docbatch_gui.engine.holds import JobHold
from docbatch_gui.i18n import N_

RANGE_MEANS = N_("short to long answers, cache hit to miss on every request")


def add_budget_parser(commands: Any) -> None:
    budget = commands.add_parser(
        "budget",
        help="this month's spend on Claude, the budget caps and what is left",
        description="The month's spend is the sum of the actual costs recorded this "
        "calendar month. BUDGET_RUN_USD and BUDGET_MONTH_USD cap a run and a month "
        "(0: no cap); a run whose forecast would cross one is held before anything is "
        "sent, until the cap is raised or it is let go with --run-anyway.",
    )
    budget.add_argument("--json", action="store_true", help="print JSON")
    budget.add_argument(
        "--run-anyway",
        action="store_true",
        help="let the run the caps held go as it is (whatever it costs)",
    )


def money(usd: float | None) -> str:
    return words().gettext("no cap") if usd is None else f"${usd_text(usd)}"


def forecast_line(forecast: Forecast) -> str:
    """One sentence: what a run will cost and what the range stands for."""
    said = words()
    if not forecast.jobs:
        return said.gettext("Forecast: $0.00 (no file goes to Claude: offline mode).")
    counted = forecast.pages - forecast.rendered_pages
    guessed = (
        said.ngettext(
            "; {count} page counted from the files, not rendered yet",
            "; {count} pages counted from the files, not rendered yet",
            counted,
        ).format(count=counted)
        if counted
        else ""
    )
    # each count has a context of its own: Russian words it in the case the sentence asks
    pages = said.npgettext("forecast", "{count} page", "{count} pages", forecast.pages)
    files = said.npgettext("forecast", "{count} file", "{count} files", forecast.jobs)
    requests = said.npgettext("forecast", "{count} request", "{count} requests", forecast.requests)
    return said.gettext(
        "Forecast: {usd} ({low} to {high}: {means}) for {pages} of {files} in {requests} to "
        "{model} ({modes} mode){guessed}."
    ).format(
        usd=money(forecast.usd),
        low=money(forecast.low_usd),
        high=money(forecast.high_usd),
        means=said.gettext(RANGE_MEANS),
        pages=pages.format(count=forecast.pages),
        files=files.format(count=forecast.jobs),
        requests=requests.format(count=forecast.requests),
        model=forecast.model,
        modes=", ".join(mode_name(mode, Language.current) for mode in forecast.modes),
        guessed=guessed,
    )


def forecast_json(forecast: Forecast) -> dict[str, Any]:
    """``process --json``'s ``forecast`` of a job: keys only ever added."""
    return {
        "usd": forecast.usd,
        "low_usd": forecast.low_usd,
        "high_usd": forecast.high_usd,
        "pages": forecast.pages,
        "requests": forecast.requests,
        "model": forecast.model,
    }


def print_budget(status: BudgetStatus) -> None:
    w = words()
    spent = w.gettext("Month {month}: spent {usd}")
    out.print(spent.format(month=status.month, usd=money(status.spent_usd)), highlight=False)
    rows = [
        (w.gettext("Budget per month:"), money(status.month_cap_usd)),
        (w.gettext("Budget per run:"), money(status.run_cap_usd)),
    ]
    if status.left_usd is not None:
        rows.append((w.gettext("Left this month:"), money(status.left_usd)))
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        out.print(f"{label:<{width}} {value}", highlight=False)
    if status.hold is not None:
        complain(status.hold.words(Language.current), "yellow")


def cmd_budget(app: DocBatchApp, args: argparse.Namespace) -> int:
    if args.run_anyway:
        lifted = app.allow_over_budget()
        if lifted is None:
            complain(words().gettext("No run is held by the budget: nothing to let go."))
            return ExitCode.WRONG_STATE
        said, held = words(), len(lifted.jobs)
        out.print(
            said.gettext(
                "The held run ({files}, forecast {usd}) goes ahead at the engine's next look at "
                "the queue."
            ).format(
                files=said.ngettext("{count} file", "{count} files", held).format(count=held),
                usd=money(lifted.usd),
            ),
            highlight=False,
        )
    status = app.budget()
    if args.json:
        print_json(status.as_dict(), ascii=True)
    else:
        print_budget(status)
    return ExitCode.OK


def _held_by(job_id: int, cap: str | None, holds: dict[int, JobHold]) -> dict[str, Any]:
    """``held_by``: the budget cap that holds the job, else what it lacks (a key)."""
    if cap is not None:
        return {"held_by": cap}
    return {"held_by": holds[job_id].need if job_id in holds else None}


def print_process_jobs(
    app: DocBatchApp, jobs: list[Job], as_json: bool, forecasts: dict[int, Forecast]
) -> None:
    """The jobs, as ``jobs`` prints them; ``--json`` adds each job's ``forecast`` (None
    for an offline job) and ``held_by`` (the cap that holds it, else None)."""
    if not as_json:
        print_jobs(out, jobs, False, app.batches_by_job())
        return
    held = app.held or current_hold(app.store)
    holds = app.holds().held(jobs)
    batches = app.batches_by_job()
    rows = [
        {
            **job_json(job, batches, holds=holds),
            "forecast": forecast_json(forecasts[job.id]) if job.id in forecasts else None,
            **_held_by(job.id, held.code if held and job.id in held.jobs else None, holds),
        }
        for job in jobs
    ]
    print_json(rows)
