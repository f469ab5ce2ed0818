"""What the CLI prints: the JSON objects (a contract), the human-readable views, and
the consoles every command writes to (stdout for results, stderr for problems)."""

from __future__ import annotations

import gettext
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from docbatch_gui.app.batch_stats import requests_done, requests_total, shown_cost
from docbatch_gui.domain.messages import LANGUAGES, Message, word
from docbatch_gui.domain.models import BatchRecord, Document, Job, Page
from docbatch_gui.domain.state_names import state_name
from docbatch_gui.domain.states import JobState
from docbatch_gui.domain.text import printable
from docbatch_gui.i18n import set_language, translation
from docbatch_gui.settings.secrets import scrub_secrets

if TYPE_CHECKING:
    from docbatch_gui.app.facade import DocBatchApp
    from docbatch_gui.config.profile import Profile
    from docbatch_gui.engine.holds import JobHold

#: results; soft_wrap keeps long lines whole for scripts that grep them
out = Console(highlight=False, soft_wrap=True)
#: problems and progress, so that stdout stays parseable with --json
err = Console(stderr=True, highlight=False, soft_wrap=True)


class Language:
    """The language this run words messages in: ``--lang``, else the ``language``
    setting, else the system's (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.
    JSON output is not worded: it carries the English text and the code.

    The choice is the catalogue's current language too (``i18n.set_language``), so a
    word reached through the usual ``_()`` (a core message worded without a language)
    speaks the run's language as well; ``cli.main`` puts the previous one back."""

    current = "en"
    #: the language asked for (``--lang`` or the setting), None when it is the system's:
    #: a registry export keeps its Russian headers unless a language was asked for
    chosen: str | None = None

    @classmethod
    def choose(cls, option: str | None, setting: str, environ: Mapping[str, str]) -> str:
        cls.chosen = option or setting or None
        cls.current = set_language(cls.chosen or system_language(environ))
        return cls.current


def words() -> gettext.NullTranslations:
    """The catalogue of this run's language: a count is worded with its ``ngettext``
    ("1 job", "2 jobs"; "1 задание", "2 задания", "5 заданий")."""
    return translation(Language.current)


def system_language(environ: Mapping[str, str]) -> str:
    """The language of the locale the terminal runs in, when messages exist in it."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable, "")
        if value:
            code = value.split("_")[0].split(".")[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


def print_json(value: Any, *, indent: int | None = 2, ascii: bool = False) -> None:
    """A ``--json`` answer on stdout (nothing else goes there, so scripts parse it)."""
    print(json.dumps(value, ensure_ascii=ascii, indent=indent))


def complain(message: str, style: str = "red") -> None:
    """Print to stderr without markup (file names may hold brackets), secrets masked."""
    err.print(Text(printable(scrub_secrets(message)), style=style))


STATE_STYLE = {
    JobState.DONE: "green",
    JobState.NEEDS_REVIEW: "yellow",
    JobState.FAILED: "red",
    JobState.TIMED_OUT: "red",
    JobState.CANCELED: "dim",
    JobState.DUPLICATE: "cyan",
}


def job_json(
    job: Job,
    batches: dict[int, list[BatchRecord]] | None = None,
    tokens: dict[int, dict[str, int]] | None = None,
    holds: Mapping[int, JobHold] | None = None,
) -> dict[str, Any]:
    hold = (holds or {}).get(job.id)
    return {
        **job.as_dict(),
        **_batch_fields((batches or {}).get(job.id, [])),
        "tokens": (tokens or {}).get(job.id),
        **_hold_fields(hold),
    }


def _hold_fields(hold: JobHold | None) -> dict[str, Any]:
    """A held job's ``held_by`` (what it lacks: ``anthropic_key``), the reason in
    English, and the actions that lift it; None for a job that is not held."""
    return {
        "held_by": hold.need if hold else None,
        "held_reason": hold.message.english if hold else None,
        "held_actions": list(hold.actions) if hold else None,
    }


def _batch_fields(batches: list[BatchRecord]) -> dict[str, Any]:
    """A batch job's batch ids (one per submission) and when it was first submitted."""
    return {
        "batch_ids": [b.batch_id for b in batches if b.batch_id],
        "submitted_at": next((b.created_at for b in batches if b.created_at), None),
    }


def document_json(document: Document, file_name: str | None = None) -> dict[str, Any]:
    return {**document.as_dict(), "file": file_name}


def batch_json(batch: BatchRecord) -> dict[str, Any]:
    return {
        "id": batch.batch_id,
        "local_id": batch.id,
        "status": batch.status,
        "request_counts": batch.request_counts,
        "requests": len(batch.request_ids),
        "jobs": batch.job_ids,
        "created_at": batch.created_at,
        "ended_at": batch.ended_at,
        "cost_estimate_usd": batch.cost_estimate_usd,
        "cost_actual_usd": batch.cost_actual_usd,
        "model": batch.model,
        "effort": batch.effort,
        "thinking_tokens": batch.thinking_tokens,
        "cache_hit_rate": batch.cache_hit_rate,
        "input_tokens": batch.input_tokens,
        "cache_read_tokens": batch.cache_read_tokens,
        "cache_write_tokens": batch.cache_write_tokens,
    }


def print_batches(console: Console, batches: list[BatchRecord]) -> None:
    if not batches:
        console.print(words().gettext("No batches."))
        return
    w = words()
    table = Table(title=w.pgettext("table", "Batches"), title_justify="left")
    for column in (
        w.pgettext("column", "batch"),
        w.pgettext("column", "status"),
        w.pgettext("column", "requests"),
        w.pgettext("column", "done"),
        w.pgettext("column", "jobs"),
        w.pgettext("column", "created"),
        w.pgettext("column", "cost"),
        w.pgettext("column", "model"),
    ):
        table.add_column(column)
    for batch in batches:
        cost, estimated = shown_cost(batch)
        table.add_row(
            Text(batch.batch_id or w.gettext("(intent {id})").format(id=batch.id)),
            batch.status,
            str(len(batch.request_ids)),
            f"{requests_done(batch)}/{requests_total(batch)}" if batch.request_counts else "",
            str(len(batch.job_ids)),
            (batch.created_at or "")[:19],
            "" if cost is None else ("~" if estimated else "") + f"${cost:.4f}",
            f"{batch.model or ''} {batch.effort or ''}".strip(),
        )
    console.print(table)


def page_json(page: Page) -> dict[str, Any]:
    return {
        "page": page.page_no,
        "width": page.width,
        "height": page.height,
        "rotation": page.rotation,
        "rotation_confidence": page.rotation_confidence,
        "ocr_engine": page.ocr_engine,
        "ocr_cached": page.ocr_cached,
        "text_chars": len(page.text),
        "deliverable": page.deliverable,
        "image_sha256": page.image_sha,
        "render_error": page.render_error.english if page.render_error else None,
        "orientation_note": page.orientation_note.english if page.orientation_note else "",
        "orientation_uncertain": page.orientation_uncertain,
        # the codes behind the two texts, as jobs give error_code beside error
        "render_error_code": _code(page.render_error),
        "orientation_note_code": _code(page.orientation_note),
        "render_error_params": _params(page.render_error),
        "orientation_note_params": _params(page.orientation_note),
        # degrees the scan was askew, straightened before OCR read it (0: straight)
        "skew": page.skew,
    }


def _code(note: Message | None) -> str | None:
    return note.code or None if note is not None else None


def _params(note: Message | None) -> dict[str, Any] | None:
    return dict(note.params) if note is not None and note.code else None


def print_pages(console: Console, pages: list[Page]) -> None:
    w = words()
    table = Table(title=w.pgettext("table", "Pages"), title_justify="left")
    for column in (
        w.pgettext("column", "page"),
        w.pgettext("column", "size"),
        w.pgettext("column", "rotation"),
        w.pgettext("column", "text from"),
        w.pgettext("column", "chars"),
        w.pgettext("column", "start of text"),
    ):
        table.add_column(column)
    for page in pages:
        source = page.ocr_engine or w.gettext("text layer")
        if page.ocr_cached:
            source = w.gettext("{source} (cached)").format(source=source)
        rotation = (
            w.gettext("{degrees}° ({confidence})").format(
                degrees=page.rotation, confidence=f"{page.rotation_confidence:.0%}"
            )
            if page.rotation
            else "0°"
        )
        if page.orientation_uncertain:
            rotation = w.gettext("{rotation} uncertain").format(rotation=rotation)
        if page.render_error:
            source = w.gettext("not rendered: {reason}; {source}").format(
                reason=page.render_error.words(Language.current), source=source
            )
        table.add_row(
            str(page.page_no),
            f"{page.width}×{page.height}",
            rotation,
            source,
            str(len(page.text)),
            Text(" ".join(page.text.split())[:50]),
        )
    console.print(table)


def job_cost(job: Job) -> str:
    """Actual cost once answered, else the estimate marked with ~."""
    if job.cost_actual_usd is not None:
        return f"${job.cost_actual_usd:.4f}"
    if job.cost_estimate_usd is not None:
        return f"~${job.cost_estimate_usd:.4f}"
    return ""


def job_note(job: Job, hold: JobHold | None = None) -> str:
    if hold is not None:
        return hold.words(Language.current)
    if job.state is JobState.DUPLICATE and job.duplicate_of is not None:
        return (
            words()
            .gettext("same file as job {job}; --force processes it again")
            .format(job=job.duplicate_of)
        )
    error = job.error_words(Language.current)
    if job.error_kind and error:
        label = word(f"kind_{job.error_kind.value}", {}, Language.current, job.error_kind.value)
        return f"{label}: {error}"
    return error or ""


def _state_shown(job: Job, hold: JobHold | None) -> tuple[str, str]:
    """The state column, named by ``domain.state_names``: ``Queued (held)`` in yellow
    for a job nothing here can start."""
    name = state_name(job.state, Language.current)
    if hold is not None:
        return words().gettext("{state} (held)").format(state=name), "yellow"
    return name, STATE_STYLE.get(job.state, "")


def print_jobs(
    console: Console,
    jobs: list[Job],
    as_json: bool,
    batches: dict[int, list[BatchRecord]] | None = None,
    tokens: dict[int, dict[str, int]] | None = None,
    holds: Mapping[int, JobHold] | None = None,
) -> None:
    holds = holds or {}
    if as_json:
        rows = [job_json(j, batches, tokens, holds) for j in jobs]
        print_json(rows)
        return
    w = words()
    table = Table(title=w.pgettext("table", "Jobs"), title_justify="left", expand=False)
    table.add_column(w.pgettext("column", "id"), justify="right")
    table.add_column(w.pgettext("column", "file"), overflow="fold", max_width=40)
    table.add_column(w.pgettext("column", "state"))
    table.add_column(w.pgettext("column", "pages"), justify="right")
    table.add_column(w.pgettext("column", "docs"), justify="right")
    with_cost = any(j.cost_actual_usd is not None or j.cost_estimate_usd is not None for j in jobs)
    if with_cost:
        table.add_column(w.pgettext("column", "cost"), justify="right")
    table.add_column(w.pgettext("column", "note"), overflow="fold", ratio=1)
    for job in jobs:
        table.add_row(
            str(job.id),
            Text(printable(job.file_name)),
            Text(*_state_shown(job, holds.get(job.id))),
            str(job.pages or ""),
            str(job.documents or ""),
            *([job_cost(job)] if with_cost else []),
            Text(printable(job_note(job, holds.get(job.id)))),
        )
    console.print(table)


def _document_block(document: Document, file_name: str, profile: Profile | None = None) -> Group:
    """A document as a person reads it: in English its type and fields by their keys
    (what ``--json`` and scripts use), in another language by the profile's labels."""
    w = words()
    language = Language.current
    shown_profile = profile if language != "en" else None

    def label(key: str) -> str:
        return shown_profile.field_label(key, language) if shown_profile else key

    labels = {key: label(key) for key in document.fields} if shown_profile else None
    pages = (
        w.gettext("page {page}").format(page=document.page_from)
        if document.page_from == document.page_to
        else w.gettext("pages {first}-{last}").format(
            first=document.page_from, last=document.page_to
        )
    )
    reasons = [code.words(language, labels) for code in document.review_codes]
    status = (
        Text(
            w.gettext("needs review: {reasons}").format(reasons="; ".join(reasons)),
            style="yellow",
        )
        if document.needs_review
        else Text(w.pgettext("document", "ok"), style="green")
    )
    header = Text.assemble(
        (w.gettext("job {id}").format(id=document.job_id) + " ", "bold"),
        f"{printable(file_name)} · {pages} · ",
        (
            shown_profile.doc_type_label(document.doc_type, language)
            if shown_profile
            else document.doc_type,
            "bold magenta",
        ),
        " · ",
        status,
    )
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim")
    grid.add_column(overflow="fold")
    grid.add_column(justify="right")
    for name, value in document.fields.items():
        if value is not None:
            grid.add_row(
                f"  {label(name)}",
                Text(printable(value)),
                f"{document.confidence.get(name, 0):.0%}",
            )
    filename_values = {k: v for k, v in document.filename_fields.items() if v}
    if filename_values:
        shown = ", ".join(f"{k}={v}" for k, v in filename_values.items())
        grid.add_row("  " + w.gettext("from file name"), Text(shown), "")
    return Group(header, grid)


def print_documents(console: Console, app: DocBatchApp, documents: list[Document]) -> None:
    if not documents:
        console.print(words().gettext("No documents."))
        return
    names = {j.id: j.file_name for j in app.jobs({d.job_id for d in documents})}
    count = len(documents)
    heading = words().ngettext("Documents ({count})", "Documents ({count})", count)
    console.print(Text(heading.format(count=count), style="bold underline"))
    for document in documents:
        console.print(_document_block(document, names.get(document.job_id, ""), app.profile))
        console.print()


def summary_line(jobs: list[Job]) -> Text:
    """One line an operator reads first: how many jobs ended how, and what it cost."""
    counts: dict[str, int] = {}
    for job in jobs:
        counts[job.state.value] = counts.get(job.state.value, 0) + 1
    parts = [f"{n} {state_name(state, Language.current)}" for state, n in sorted(counts.items())]
    line = Text(
        words().ngettext("{count} job", "{count} jobs", len(jobs)).format(count=len(jobs))
        + ": "
        + ", ".join(parts)
    )
    actual = [j.cost_actual_usd for j in jobs if j.cost_actual_usd is not None]
    if actual:
        line.append(words().gettext("; Claude cost {usd}").format(usd=f"${sum(actual):.4f}"))
    return line
