"""Extracted documents out to a spreadsheet, a CSV file or JSON: one row per document.

Accounting takes these files in: 1C loads a tabular document, a script reads a CSV,
another system reads JSON. So values keep their types (a date is a date, an amount
a number), a Russian CSV uses ``;`` and a decimal comma as Russian Excel expects,
and JSON is exactly ``docbatch documents --json``, so a script reads either.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, Literal

from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.domain.models import Document, Job
from docbatch_gui.i18n import NP_, translation
from docbatch_gui.outbound.layouts import Layout
from docbatch_gui.outbound.lines import as_number, default_columns, line_table, sheet_name, title
from docbatch_gui.outbound.text_values import date_text, number_text
from docbatch_gui.registry.exporter import AMOUNT_FORMAT, DATE_FORMAT, escape_cell, header
from docbatch_gui.storage.atomic import atomic_output

if TYPE_CHECKING:
    from openpyxl import Workbook

StateFilter = Literal["done", "needs_review", "all"]
FORMATS = (".xlsx", ".csv", ".json")
_NUMERIC_KINDS = ("amount", "vat")
#: a document's review state (``review_state``) as the export's Review column names it
_REVIEW_WORDS = {
    "needs_review": NP_("review state", "needs review"),
    "confirmed": NP_("review state", "confirmed"),
    "done": NP_("review state", "done"),
}


@dataclass(frozen=True)
class ExportOptions:
    language: str = "en"
    state: StateFilter = "all"
    job_ids: tuple[int, ...] = ()
    since: datetime | None = None
    #: CSV only: None picks ";" for Russian and "," otherwise
    delimiter: str | None = None
    #: CSV only: one row per line of the documents instead of one per document
    lines: bool = False


def delimiter_problem(delimiter: str | None) -> str | None:
    """Why ``delimiter`` cannot separate CSV cells, or None. One character only (the
    csv module refuses more, with a TypeError); never the quote, CR or LF, with which
    the file written does not read back as the same cells."""
    if delimiter is None:
        return None
    if len(delimiter) != 1:
        return f"a CSV delimiter is one character, not {delimiter!r}"
    if delimiter in {'"', "\r", "\n"}:
        return f"{delimiter!r} cannot be a CSV delimiter: choose , ; | or a tab"
    return None


def review_state(document: Document) -> str:
    """``needs_review`` until a person confirms it; ``confirmed`` or ``done`` after."""
    if document.confirmed_by:
        return "confirmed"
    return "needs_review" if document.needs_review else "done"


def select(
    jobs: Iterable[Job], documents: Iterable[Document], options: ExportOptions
) -> list[tuple[Job, Document]]:
    """The documents of the jobs asked for, in job and document order."""
    by_id = {job.id: job for job in jobs}
    chosen = []
    for document in documents:
        job = by_id.get(document.job_id)
        if job is None or (options.job_ids and job.id not in options.job_ids):
            continue
        if options.since is not None and (job.created_at is None or job.created_at < options.since):
            continue
        state = review_state(document)
        if options.state == "needs_review" and state != "needs_review":
            continue
        if options.state == "done" and state == "needs_review":
            continue
        chosen.append((job, document))
    return sorted(chosen, key=lambda pair: (pair[0].id, pair[1].doc_index))


def parse_since(text: str) -> datetime:
    """A date (``2024-03-12``, ``12.03.2024``) or an ISO time; naive means UTC."""
    for parse in (datetime.fromisoformat, lambda t: datetime.strptime(t, "%d.%m.%Y")):
        try:
            moment = parse(text.strip())
        except ValueError:
            continue
        return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    raise ConfigError(f"--since {text!r}: give a date such as 2024-03-12 or 12.03.2024")


class _Cells:
    """One document's values for a layout's columns, typed (dates, numbers)."""

    def __init__(self, profile: Profile, language: str) -> None:
        self.profile = profile
        self.language = language
        self.kinds = {f.key: f.kind for f in profile.fields}
        self.labels = {f.key: f.labels.get(language) or f.key for f in profile.fields}

    def value(self, key: str, job: Job, document: Document) -> Any:
        if key.startswith("field:"):
            name = key.removeprefix("field:")
            raw = document.fields.get(name)
            if raw is None:
                return None
            if self.kinds.get(name) in _NUMERIC_KINDS:
                try:
                    return float(raw)
                except ValueError:
                    return raw
            if self.kinds.get(name) == "date":
                try:
                    return date.fromisoformat(raw)
                except ValueError:
                    return raw
            return raw
        return self._built_in(key, job, document)

    def _built_in(self, key: str, job: Job, document: Document) -> Any:
        match key:
            case "job":
                return job.id
            case "document":
                return document.id
            case "file":
                return job.file_name
            case "folder":
                return str(PurePath(job.source_path).parent)
            case "pages":
                return document.page_label.replace("–", "-")
            case "type":
                spec = self.profile.doc_type(document.doc_type)
                labels = spec.labels if spec else {}
                return labels.get(self.language) or document.doc_type
            case "confidence":
                found = [document.confidence.get(k, 0.0) for k, v in document.fields.items() if v]
                return round(min(found), 2) if found else None
            case "review":
                return translation(self.language).pgettext(
                    "review state", _REVIEW_WORDS[review_state(document)]
                )
            case "reasons":
                if document.confirmed_by:  # a person settled them: none is open
                    return None
                words = [c.words(self.language, self.labels) for c in document.review_codes]
                return "; ".join(words) or None
            case "confirmed_by":
                return document.confirmed_by
            case "confirmed_at":
                if not document.confirmed_at:
                    return None
                moment = datetime.fromisoformat(document.confirmed_at)
                return moment.astimezone().replace(tzinfo=None)
        return None


def export_documents(
    out: Path,
    pairs: Sequence[tuple[Job, Document]],
    layout: Layout,
    profile: Profile,
    options: ExportOptions,
) -> int:
    """Write ``pairs`` to ``out`` in the format its suffix names; returns the rows."""
    suffix = Path(out).suffix.lower()
    if suffix not in FORMATS:
        raise ConfigError(f"{out}: export to .xlsx, .csv or .json (not {suffix or 'no suffix'})")
    problem = delimiter_problem(options.delimiter)
    if problem is not None:
        raise ConfigError(problem)
    with atomic_output(out) as partial:
        if suffix == ".json":
            body = [{**d.as_dict(), "file": job.file_name} for job, d in pairs]
            partial.write_text(json.dumps(body, ensure_ascii=False, indent=2), encoding="utf-8")
        elif suffix == ".csv":
            _write_csv(partial, pairs, layout, profile, options)
        else:
            _write_xlsx(partial, pairs, layout, profile, options)
    return len(pairs)


def _write_xlsx(
    path: Path,
    pairs: Sequence[tuple[Job, Document]],
    layout: Layout,
    profile: Profile,
    options: ExportOptions,
) -> None:
    # deferred: 0.4 s of the window's first show (openpyxl imports numpy, lxml, PIL)
    from openpyxl import Workbook

    # deferred: openpyxl, as above
    from openpyxl.cell import WriteOnlyCell

    cells = _Cells(profile, options.language)
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet("Документы" if options.language == "ru" else "Documents")
    titles = [c.title(profile, options.language) for c in layout.columns]
    header(sheet, titles, [max(10, min(40, len(t) + 4)) for t in titles])
    for job, document in pairs:
        row = []
        for column in layout.columns:
            value = escape_cell(cells.value(column.key, job, document))
            if isinstance(value, date | float) or column.key == "confidence":
                cell = WriteOnlyCell(sheet, value=value)
                if isinstance(value, datetime):
                    cell.number_format = "DD.MM.YYYY HH:MM"
                elif isinstance(value, date):
                    cell.number_format = DATE_FORMAT
                elif column.key == "confidence":
                    cell.number_format = "0%"
                else:
                    cell.number_format = AMOUNT_FORMAT
                value = cell
            row.append(value)
        sheet.append(row)
    _write_lines_sheet(workbook, pairs, layout, profile, options)
    workbook.save(path)


def _write_lines_sheet(
    workbook: Workbook,
    pairs: Sequence[tuple[Job, Document]],
    layout: Layout,
    profile: Profile,
    options: ExportOptions,
) -> None:
    """The sheet of lines: one row per line, tied to its document."""
    # deferred: 0.4 s of the window's first show (openpyxl imports numpy, lxml, PIL)
    from openpyxl.cell import WriteOnlyCell

    columns = layout.lines or default_columns(profile)
    sheet = workbook.create_sheet(sheet_name(options.language))
    titles = [title(c, profile, options.language) for c in columns]
    header(sheet, titles, [max(8, min(50, len(t) + 4)) for t in titles])
    for values in line_table(pairs, profile, columns):
        row: list[Any] = []
        for value in values:
            if isinstance(value, Decimal):
                cell = WriteOnlyCell(sheet, value=as_number(value))
                cell.number_format = "0.###" if value == value.to_integral_value() else "0.00##"
                row.append(cell)
            elif isinstance(value, date):
                moment = datetime(value.year, value.month, value.day)
                cell = WriteOnlyCell(sheet, value=moment)
                cell.number_format = DATE_FORMAT
                row.append(cell)
            else:
                row.append(escape_cell(value))
        sheet.append(row)


def _write_csv(
    path: Path,
    pairs: Sequence[tuple[Job, Document]],
    layout: Layout,
    profile: Profile,
    options: ExportOptions,
) -> None:
    language = options.language
    delimiter = options.delimiter or (";" if language == "ru" else ",")
    cells = _Cells(profile, language)

    def text(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, date):  # a datetime too
            return date_text(value, language)
        if isinstance(value, float):
            return number_text(value, language, delimiter, places=2)
        if isinstance(value, Decimal):  # a line's quantity or price: every digit it has
            return number_text(value, language, delimiter, places=None)
        return str(escape_cell(value))

    # utf-8-sig: the byte-order mark is how Excel knows the file is UTF-8
    with path.open("w", encoding="utf-8-sig", newline="") as stream:
        writer = csv.writer(stream, delimiter=delimiter)
        if options.lines:
            columns = layout.lines or default_columns(profile)
            writer.writerow([text(title(c, profile, options.language)) for c in columns])
            for values in line_table(pairs, profile, columns):
                writer.writerow([text(v) for v in values])
            return
        # a header a person wrote (--columns) is text like any cell: a formula is escaped
        writer.writerow([text(c.title(profile, options.language)) for c in layout.columns])
        for job, document in pairs:
            writer.writerow([text(cells.value(c.key, job, document)) for c in layout.columns])
