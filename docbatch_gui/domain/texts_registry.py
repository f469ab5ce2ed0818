"""The words of the registry: match warnings, why a row was filtered, what a sub-rule
compares, and why a workbook is refused.

code → English template, marked for the catalogue (``domain.messages``). The
English warning texts are what a
search result stores in ``warnings`` (the CLI's JSON and the "Ties" filter read them),
so they stay as they were.
"""

from __future__ import annotations

from docbatch_gui.i18n import N_, NN_, NP_, Plural

REGISTRY_TEXTS: dict[str, str | Plural] = {
    # what a search says about a row
    "match_no_candidates": N_("no candidates"),
    "match_taken": N_("already matched to row {row}: document {document}"),
    "match_below_threshold": N_("below threshold: best {best:.2f} < {threshold:.2f}"),
    "document_in_file": N_("{file}, page {page}"),
    "match_tie": N_("tie: document {document} scores {score:.2f} (best {best:.2f})"),
    "match_amount_differs": N_("amount differs: registry {registry}, document {document}"),
    "match_assigned_by_hand": N_("assigned by hand by {who}"),
    "match_unassigned_by_hand": N_("unassigned by hand by {who}"),
    "match_rematched": N_(
        "document {document} (matched before) was deleted or replaced; matched again",
    ),
    "match_reprocessed": N_(
        "document {document} (matched before) was processed again; matched again",
    ),
    "match_reprocessed_manual": N_(
        "document {document} (assigned by {who}) was processed again; matched again",
    ),
    "match_rematched_manual": N_(
        "document {document} (assigned by {who}) was deleted or replaced; matched again",
    ),
    # why the import left a row out
    "filter_empty_row": N_("empty row"),
    "filter_skip_word": N_("contains {word!r}"),
    "filter_required_empty": N_("required column {column} is empty"),
    "filter_too_few_cells": N_("{filled} filled cells, fewer than {minimum}"),
    "reason_empty_row": N_("Empty row"),
    "reason_skip_word": N_("Contains a skip word"),
    "reason_required_empty": N_("Required column is empty"),
    "reason_too_few_cells": N_("Too few filled cells"),
    # what a sub-rule compares, and how
    "comparator_exact": N_("exact match"),
    "comparator_fuzzy": N_("similar text"),
    "comparator_number": N_("similar number"),
    "comparator_date": N_("date ± days"),
    "comparator_amount": N_("amount ± tolerance"),
    "source_content": N_("{field} (from the document)"),
    "source_filename": N_("{field} (from the file name)"),
    "source_handwritten": N_("handwritten numbers"),
    # a workbook the importer refuses
    "xlsx_cannot_open": N_("{file}: cannot be opened ({reason})"),
    "xlsx_password": N_(
        "{file}: the workbook is password-protected. Open it in Excel, remove the password (File "
        "→ Info → Protect Workbook → Encrypt with Password, clear it) and save it as .xlsx.",
    ),
    "xlsx_old_xls": N_(
        "{file}: this is an old Excel 97-2003 .xls file. Open it in Excel and save it as .xlsx "
        "(File → Save As → Excel Workbook).",
    ),
    "xlsx_damaged": N_(
        "{file}: not a readable .xlsx workbook ({detail}). The file may be truncated or damaged: "
        "open it in Excel and save it again as .xlsx, or download it again.",
    ),
    "xlsx_too_big": N_(
        "{file}: unpacks to {size_mb:.0f} MB, more than the {max_mb:.0f} MB limit. Split the "
        "registry into smaller files or delete unused sheets.",
    ),
    "xlsx_zip_bomb": N_(
        "{file}: member {member} claims a compression ratio of {ratio:.0f}:1, which no real "
        "workbook has (a zip bomb?). Re-save the file from Excel.",
    ),
    "xlsx_no_sheets": N_("{file}: the workbook has no sheets"),
    "xlsx_no_such_sheet": N_(
        "{file}: there is no sheet named {sheet!r}; the sheets are: {sheets}. Fix the sheet name "
        "in the registry settings.",
    ),
    "xlsx_chart_sheet": N_("{file}: sheet {sheet!r} is a chart sheet, not a table"),
    "registry_too_many_rows": NN_(
        "{file}: sheet {sheet!r} has a row numbered {row:,}, past the limit of {max:,} row "
        "(REGISTRY_MAX_ROWS; Excel's own is 1,048,576). Delete what lies past the registry, or "
        "split it into smaller files.",
        "{file}: sheet {sheet!r} has a row numbered {row:,}, past the limit of {max:,} rows "
        "(REGISTRY_MAX_ROWS; Excel's own is 1,048,576). Delete what lies past the registry, or "
        "split it into smaller files.",
        "max",
    ),
    "registry_too_many_columns": NN_(
        "{file}: sheet {sheet!r}, row {row}: a value in column {column} ({count:,} column), past "
        "the limit of {max:,} columns (REGISTRY_MAX_COLUMNS). Delete the columns past the "
        "registry, or raise REGISTRY_MAX_COLUMNS.",
        "{file}: sheet {sheet!r}, row {row}: a value in column {column} ({count:,} columns), past "
        "the limit of {max:,} columns (REGISTRY_MAX_COLUMNS). Delete the columns past the "
        "registry, or raise REGISTRY_MAX_COLUMNS.",
        "count",
    ),
    "registry_cell_too_long": NN_(
        "{file}: sheet {sheet!r}, row {row}, column {column} holds {chars:,} character of text, "
        "over the limit of {max:,} (REGISTRY_MAX_CELL_CHARS; Excel keeps at most 32,767 in a "
        "cell). Shorten the cell; the file may have been written to exhaust memory.",
        "{file}: sheet {sheet!r}, row {row}, column {column} holds {chars:,} characters of text, "
        "over the limit of {max:,} (REGISTRY_MAX_CELL_CHARS; Excel keeps at most 32,767 in a "
        "cell). Shorten the cell; the file may have been written to exhaust memory.",
        "chars",
    ),
    "registry_reader_stopped": NN_(
        "{file}: the workbook reader ended after {rows:,} data row ({reason}), before the "
        "sheet's last row, so the import stopped. Import it again; if it stops again, split "
        "the registry into smaller files.",
        "{file}: the workbook reader ended after {rows:,} data rows ({reason}), before the "
        "sheet's last row, so the import stopped. Import it again; if it stops again, split "
        "the registry into smaller files.",
        "rows",
    ),
    "sheet_empty": N_(
        "{file}: sheet {sheet!r} is empty. Choose the sheet that holds the registry.",
    ),
    "header_beyond_end": N_(
        "{file}: header row {header} is beyond the last row {last} of sheet {sheet!r}. Fix "
        "header_row / column_header_row in the settings.",
    ),
    "registry_search_too_long": N_(
        "registry search stopped after {limit} at row {done} of {total}: narrow the rules (more "
        "required sub-rules) or split the registry",
    ),
    # refusals of an import, an export or an assignment
    "registry_needs_force": NN_(
        "{file}: registry {registry} already has search results for {rows} row; importing again "
        "replaces them. Re-import with --force (Force reimport in the wizard) to do so.",
        "{file}: registry {registry} already has search results for {rows} rows; importing again "
        "replaces them. Re-import with --force (Force reimport in the wizard) to do so.",
        "rows",
    ),
    "registry_not_imported": N_(
        "registry {registry} ({name}) is not fully imported ({state}); import it again, then "
        "export.",
    ),
    "registry_rows_short": NN_("{rows} of {kept} row", "{rows} of {kept} rows", "kept"),
    "registry_document_taken": N_(
        "document {document} is already matched to row {row}; unassign it there first",
    ),
}

STATUS_CONTEXT = "registry status"
#: a registry's status as the window and the command line name it
STATUS_TEXTS: dict[str, str] = {
    "registry_status_importing": NP_("registry status", "importing"),
    "registry_status_configured": NP_("registry status", "configured"),
    "registry_status_searching": NP_("registry status", "searching"),
    "registry_status_searched": NP_("registry status", "searched"),
    "registry_status_error": NP_("registry status", "error"),
    "registry_status_staging": NP_("registry status", "staging"),
}
