"""Export a searched registry to .xlsx: the rows, their match, and unmatched documents.

The workbook is written in openpyxl's write-only mode so that a registry of a million
rows streams to disk instead of building a cell object per value in memory. Text that
Excel would run as a formula (``=``, ``+``, ``-``, ``@`` first) is prefixed with an
apostrophe: a registry comes from outside, and a cell like ``=HYPERLINK(...)`` must
stay text when an auditor opens the export.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from docbatch_gui.domain.models import Document
from docbatch_gui.domain.progress import CancelToken, ProgressSink, raise_if_canceled, report
from docbatch_gui.domain.registry import RegistryRowRecord, SearchResult
from docbatch_gui.domain.text import clean_value
from docbatch_gui.i18n import NP_, translation
from docbatch_gui.registry.where import matched_locations, where_words
from docbatch_gui.registry.words import rule_words
from docbatch_gui.storage.atomic import atomic_output

if TYPE_CHECKING:
    from docbatch_gui.config.profile import Profile

__all__ = [
    "DOCUMENT_WORDS",
    "MATCH_WORDS",
    "ExportLabels",
    "escape_cell",
    "export_words",
    "write_export",
]

#: what the export itself writes, worded in the export's language (context
#: "registry export"); the match columns start "Document:" so that they never collide
#: with the registry's own "Номер", "Дата", "Сумма"
MATCH_WORDS = (
    NP_("registry export", "Row"), NP_("registry export", "Document: id"),
    NP_("registry export", "Document: file"), NP_("registry export", "Document: pages"),
    NP_("registry export", "Document: type"), NP_("registry export", "Document: number"),
    NP_("registry export", "Document: date"), NP_("registry export", "Document: amount"),
    NP_("registry export", "Score"), NP_("registry export", "Warnings"),
    NP_("registry export", "Rule"), NP_("registry export", "By hand"),
    NP_("registry export", "Document: where on the page"),
)  # fmt: skip
DOCUMENT_WORDS = (
    NP_("registry export", "Document id"), NP_("registry export", "File"),
    NP_("registry export", "Pages"), NP_("registry export", "Type"),
    NP_("registry export", "Number"), NP_("registry export", "Date"),
    NP_("registry export", "Amount"),
)  # fmt: skip
SHEET_WORDS = (
    NP_("registry export", "Registry"),
    NP_("registry export", "Documents without a row"),
    NP_("registry export", "yes"),
)


@dataclass(frozen=True)
class ExportLabels:
    """Field and document-type keys as the export's language names them ("Номер",
    "Счёт" for ``number``, ``invoice``); a key without a label is written as it is."""

    fields: Mapping[str, str] = field(default_factory=dict)
    doc_types: Mapping[str, str] = field(default_factory=dict)

    def field_label(self, key: str) -> str:
        return self.fields.get(key, key)

    def type_label(self, key: str) -> str:
        return self.doc_types.get(key, key)

    @classmethod
    def of(cls, profile: Profile | None, language: str) -> ExportLabels:
        """The profile's labels in ``language``; the keys themselves without one."""
        if profile is None:
            return cls()
        return cls(
            {f.key: profile.field_label(f.key, language) for f in profile.fields},
            {t.key: profile.doc_type_label(t.key, language) for t in profile.doc_types},
        )


#: what an export without a profile writes: the keys themselves
KEYS = ExportLabels()


@dataclass(frozen=True)
class ExportWords:
    """What the export itself writes (headers, sheet names, "yes"), in one language;
    whoever opens the workbook reads the language the operator works in."""

    match_columns: Sequence[str]
    document_columns: Sequence[str]
    sheet: str
    unmatched_sheet: str
    yes: str


def export_words(language: str) -> ExportWords:
    """The export's own words in ``language`` (English where it has no catalogue)."""
    words = translation(language)

    def said(text: str) -> str:
        return words.pgettext("registry export", text)

    sheet, unmatched, yes = (said(w) for w in SHEET_WORDS)
    return ExportWords([said(w) for w in MATCH_WORDS], [said(w) for w in DOCUMENT_WORDS],
                       sheet, unmatched, yes)  # fmt: skip


_FORMULA_START = ("=", "+", "-", "@")
PROGRESS_EVERY = 1000
#: what the export's progress counts (``Progress.what``)
EXPORTED = NP_("progress", "rows exported")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
DATE_FORMAT = "DD.MM.YYYY"
AMOUNT_FORMAT = "#,##0.00"
SCORE_FORMAT = "0%"
#: a sheet of ``Workbook(write_only=True)``: openpyxl names its class only in a private
#: module, so it is not imported
WriteOnlySheet = Any


def escape_cell(value: Any) -> Any:
    """Text that would start a formula gets a leading apostrophe, and loses control
    characters Excel cannot hold (so an export never fails on a character)."""
    if isinstance(value, str):
        value = clean_value(value)
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    if isinstance(value, list | dict):
        return escape_cell(str(value))
    return value


def typed(sheet: WriteOnlySheet, value: Any, number_format: str | None = None) -> Any:
    """A cell an auditor can sort and sum: ISO dates become dates, the document's
    amounts numbers, scores percentages. Anything else is written as it is (escaped)."""
    value = escape_cell(value)
    if isinstance(value, str) and _ISO_DATE.match(value):
        with contextlib.suppress(ValueError):
            value, number_format = date.fromisoformat(value), DATE_FORMAT
    elif number_format == AMOUNT_FORMAT and isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            number_format = None
    if number_format is None or value is None:
        return value
    # deferred: 0.4 s of the window's first show (openpyxl imports numpy, lxml, PIL)
    from openpyxl.cell import WriteOnlyCell

    cell = WriteOnlyCell(sheet, value=value)
    cell.number_format = number_format
    return cell


def header(sheet: WriteOnlySheet, names: Sequence[str], widths: Sequence[int]) -> None:
    """A bold, frozen, filterable first row, and readable column widths (set before
    the first row: write-only sheets take them only then)."""
    # deferred: 0.4 s of the window's first show (openpyxl imports numpy, lxml, PIL)
    from openpyxl.cell import WriteOnlyCell

    # deferred: openpyxl, as above
    from openpyxl.styles import Font

    # deferred: openpyxl, as above
    from openpyxl.utils import get_column_letter

    # deferred: openpyxl, as above
    from openpyxl.worksheet.worksheet import Worksheet

    # A write-only sheet gets column_dimensions and auto_filter from Worksheet._setup,
    # which it borrows; types-openpyxl leaves them out of WriteOnlyWorksheet.
    layout = cast(Worksheet, sheet)
    for index, width in enumerate(widths, start=1):
        layout.column_dimensions[get_column_letter(index)].width = width
    sheet.freeze_panes = "A2"
    layout.auto_filter.ref = f"A1:{get_column_letter(max(1, len(names)))}1"
    cells = []
    for name in names:
        cell = WriteOnlyCell(sheet, value=escape_cell(name))
        cell.font = Font(bold=True)
        cells.append(cell)
    sheet.append(cells)


def document_cells(
    doc: Document | None, file_name: str | None, labels: ExportLabels = KEYS
) -> list[Any]:
    """File, pages, type, number, date and amount of a document, or blanks."""
    if doc is None:
        return [None] * 6
    pages = str(doc.page_from) if doc.page_from == doc.page_to else f"{doc.page_from}-{doc.page_to}"
    fields = doc.fields
    return [file_name, pages, labels.type_label(doc.doc_type), fields.get("number"),
            fields.get("date"), fields.get("amount")]  # fmt: skip


def _where(
    doc: Document | None, result: SearchResult | None, language: str, labels: ExportLabels
) -> str | None:
    """ "Номер: стр. 1, вверху слева; Сумма: …" for the values the row was matched on."""
    if doc is None or result is None:
        return None
    spots = matched_locations(doc, result.explanation)
    shown = [f"{labels.field_label(name)}: {where_words(spot, language)}" for name, spot in spots]
    return "; ".join(shown) or None


def write_export(
    out: Path,
    headers: Sequence[str],
    rows: Iterable[RegistryRowRecord],
    results: Mapping[int, SearchResult],
    documents: Mapping[int, Document],
    file_names: Mapping[int, str],
    unmatched: Sequence[Document],
    *,
    total: int | None = None,
    progress: ProgressSink | None = None,
    cancel: CancelToken | None = None,
    language: str = "ru",
    labels: ExportLabels = KEYS,
) -> int:
    """Write the export and return the number of registry rows written; its headers,
    sheet names and warnings in ``language`` (the registry's own columns as they are),
    and document types and fields as ``labels`` names them.

    The file is written next to ``out`` and renamed at the end (``atomic_output``),
    so a canceled or failed export never leaves a half-written workbook under the name
    the operator chose, and a link planted beside it is never written through.
    """
    written = 0
    # a missing or read-only folder fails here, before openpyxl holds open streams
    with atomic_output(Path(out)) as partial:
        # deferred: 0.4 s of the window's first show (openpyxl imports numpy, lxml, PIL)
        from openpyxl import Workbook

        workbook = Workbook(write_only=True)
        words = export_words(language)
        sheet = workbook.create_sheet(words.sheet)
        names = [*headers, *words.match_columns]
        header(sheet, names, [max(10, min(40, len(str(n)) + 4)) for n in names])
        first_match = len(headers)
        formats = {first_match + 6: DATE_FORMAT, first_match + 7: AMOUNT_FORMAT,
                   first_match + 8: SCORE_FORMAT}  # fmt: skip
        for record in rows:
            result = results.get(record.row)
            doc_id = result.document_id if result else None
            doc = documents.get(doc_id) if doc_id is not None else None
            raw = [record.raw_data.get(h) for h in headers]
            match = [
                record.row,
                doc_id,
                *document_cells(doc, file_names.get(doc.job_id) if doc else None, labels),
                result.score if result else None,
                "; ".join(result.warnings_in(language)) if result else None,
                rule_words(result.rule, language) if result and result.rule else None,
                (result.assigned_by or words.yes) if result and result.manual else None,
                _where(doc, result, language, labels),
            ]
            values = [*raw, *match]
            sheet.append([typed(sheet, v, formats.get(i)) for i, v in enumerate(values)])
            written += 1
            if written % PROGRESS_EVERY == 0:
                raise_if_canceled(cancel, "registry export")
                report(progress, written, total, EXPORTED)
        lonely = workbook.create_sheet(words.unmatched_sheet)
        header(lonely, words.document_columns, [12, 36, 10, 14, 18, 12, 14])
        lonely_formats = {5: DATE_FORMAT, 6: AMOUNT_FORMAT}
        for doc in unmatched:
            cells = [doc.id, *document_cells(doc, file_names.get(doc.job_id), labels)]
            lonely.append([typed(lonely, v, lonely_formats.get(i)) for i, v in enumerate(cells)])
        workbook.save(partial)
    report(progress, written, total if total is not None else written, EXPORTED)
    return written
