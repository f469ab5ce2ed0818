"""The words of job errors: what intake, rendering, OCR and Claude say about a file.

code → English template, marked for the catalogue (``domain.messages``). The
English is the text ``Job.error`` stores, so it stays what scripts and older versions
read.
"""

from __future__ import annotations

from docbatch_gui.i18n import N_, NN_, NP_, Plural

KIND_CONTEXT = "error kind"
#: what kind of failure it is (the CLI's job list says it before the error)
KIND_TEXTS: dict[str, str] = {
    "kind_retryable": NP_("error kind", "busy, will retry"),
    "kind_unsupported": NP_("error kind", "input not supported"),
    "kind_critical": NP_("error kind", "critical"),
    "kind_timeout": NP_("error kind", "timeout"),
}

JOB_TEXTS: dict[str, str | Plural] = {
    # intake: what is wrong with the file itself
    "intake_not_read": N_(
        "{file}: not read: {problem}. Copy the document itself into the folder, or add it by its "
        "own path.",
    ),
    "intake_missing": N_(
        "{file}: the path does not exist ({path}). Check the path and add it again.",
    ),
    "intake_not_file": N_(
        "{file}: the path is not a regular file ({path}). Check the path and add it again.",
    ),
    "duplicate": N_(
        "{file}: same content as job {job} ({original}); not processed again. To read it "
        "anyway, choose Process again (on the command line: --force).",
    ),
    "file_type": N_(
        "{file}: file type '{type}' is not supported. Export or scan it to PDF, TIFF, JPEG or PNG "
        "and add it again.",
    ),
    "file_no_extension": N_(
        "{file}: file type 'no extension' is not supported. Export or scan it to PDF, TIFF, JPEG "
        "or PNG and add it again.",
    ),
    "file_empty": N_(
        "{file}: the file is empty (0 bytes); the copy or download probably did not finish. Copy "
        "it again from its source and add it again.",
    ),
    "file_too_big": N_(
        "{file}: the file is {size_mb:.0f} MB, over the limit of {max_mb:.0f} MB (MAX_FILE_MB). "
        "Split it into smaller files, or raise MAX_FILE_MB.",
    ),
    "file_looks_like": N_(
        "{file}: the extension says {expected} but it looks like {actual}. The file may be "
        "renamed or damaged. Export or scan it to PDF, TIFF, JPEG or PNG and add it again.",
    ),
    # what a file's content looks like, when that is not one format's name
    "kind_zip": N_("zip (an Office document or archive)"),
    "kind_old_office": N_("an old Office document"),
    "kind_riff": N_("webp or another RIFF file"),
    "kind_markup": N_("html or xml"),
    "file_unrecognised": N_(
        "{file}: the extension says {expected} but its content is not recognised. The file may be "
        "renamed or damaged. Export or scan it to PDF, TIFF, JPEG or PNG and add it again.",
    ),
    # rendering
    "pdf_damaged": N_(
        "{file}: the PDF is damaged: neither MuPDF nor qpdf can open it ({detail}). Get a fresh "
        "copy from its source, or re-save it with a PDF tool.",
    ),
    "pdf_truncated": N_(
        "{file}: the PDF is truncated (the end of the file is missing; the copy or download did "
        "not finish). Get a fresh copy from its source and add it again.",
    ),
    "pdf_password": N_(
        "{file}: the PDF is password-protected. Remove the password (open it and print or save it "
        "as a new PDF) and add it again.",
    ),
    "pdf_no_pages": N_(
        "{file}: the PDF has no pages (it may be truncated or damaged). Get a fresh copy from its "
        "source.",
    ),
    "pdf_page_damaged": N_(
        "{file}: page {page} is damaged and cannot be rendered ({detail}). Get a fresh copy from "
        "its source, or re-save it with a PDF tool.",
    ),
    "pdf_too_many_pages": NN_(
        "{file}: the PDF has {count} page, over the limit of {max} (MAX_PAGES). Split it into "
        "smaller files, or raise MAX_PAGES.",
        "{file}: the PDF has {count} pages, over the limit of {max} (MAX_PAGES). Split it into "
        "smaller files, or raise MAX_PAGES.",
        "count",
    ),
    "image_too_many_pages": NN_(
        "{file}: the image has {count} page, over the limit of {max} (MAX_PAGES). Split it into "
        "smaller files, or raise MAX_PAGES.",
        "{file}: the image has {count} pages, over the limit of {max} (MAX_PAGES). Split it into "
        "smaller files, or raise MAX_PAGES.",
        "count",
    ),
    "image_too_large": NN_(
        "{file}: the image is larger than {pixels:,} pixel (a possible decompression bomb). Scan "
        "or export it at a lower resolution (300 dpi is enough).",
        "{file}: the image is larger than {pixels:,} pixels (a possible decompression bomb). Scan "
        "or export it at a lower resolution (300 dpi is enough).",
        "pixels",
    ),
    "image_damaged": N_(
        "{file}: the image is damaged and cannot be read ({detail}). Get a fresh copy from its "
        "source, or re-save it with an image tool.",
    ),
    "image_page_damaged": N_(
        "{file}: page {page} of the image is damaged ({detail}). Get a fresh copy from its "
        "source, or re-save it with an image tool.",
    ),
    "render_out_of_memory": N_(
        "{file}: ran out of memory while rendering; it will be retried when fewer files are in "
        "progress.",
    ),
    "child_out_of_memory": N_(
        "{file}: needed more memory than a processing child may take (CHILD_MEMORY_MB = {mb} MB) "
        "and was stopped; other files carry on. A genuine file this heavy needs a higher "
        "CHILD_MEMORY_MB; otherwise the file is built to exhaust memory (a decompression bomb): "
        "get a fresh copy from its source.",
    ),
    "pdf_image_too_large": NN_(
        "{file}: page {page} holds an image of {width:,} × {height:,} pixels, over the limit of "
        "{pixels:,} pixel (MAX_IMAGE_PIXELS; a possible decompression bomb). It was not decoded. "
        "Re-scan or export the file at a lower resolution (300 dpi is enough), or raise "
        "MAX_IMAGE_PIXELS.",
        "{file}: page {page} holds an image of {width:,} × {height:,} pixels, over the limit of "
        "{pixels:,} pixels (MAX_IMAGE_PIXELS; a possible decompression bomb). It was not decoded. "
        "Re-scan or export the file at a lower resolution (300 dpi is enough), or raise "
        "MAX_IMAGE_PIXELS.",
        "pixels",
    ),
    "render_unreadable": N_(
        "{file}: could not be read ({error}). Re-save it as PDF and add it again.",
    ),
    "renderer_crashed": N_(
        "{file}: the renderer stopped unexpectedly ({detail}). The file may be damaged: re-save "
        "it as PDF and add it again.",
    ),
    "ocr_crashed": N_("{file}: the OCR process stopped unexpectedly ({detail})."),
    "extractor_crashed": N_("{file}: the offline extractor stopped unexpectedly ({detail})."),
    "crashed_repeatedly": NN_(
        "{error} It happened {times} time on this file.",
        "{error} It happened {times} times on this file.",
        "times",
    ),
    "stored_copy_damaged": N_(
        "{file}: the stored copy is damaged, and {path} is gone or has changed since it was "
        "added. Add the file again.",
    ),
    "stored_copy_unwritable": N_(
        "{file}: the stored copy could not be written. Check that the data folder is writable and "
        "has free space, then retry.",
    ),
    "stored_copy_missing": N_(
        "{file}: the stored copy is missing, and {path} is gone or has changed since it was "
        "added. Add the file again.",
    ),
    # OCR and the offline reader
    "ocr_failed": N_("{file}: OCR failed: {error}"),
    "ocr_timeout": N_(
        "{file}: OCR took longer than JOB_TIMEOUT and was stopped at page {page} of {total} "
        "needing OCR; the pages read so far are kept. Raise JOB_TIMEOUT and retry.",
    ),
    "prepare_timeout": N_(
        "{file}: preparation took longer than {limit} and was stopped while rendering {where}. "
        "{advice}",
    ),
    "prepare_job_timeout": N_("JOB_TIMEOUT={seconds}s"),
    "prepare_its_deadline": N_("its deadline"),
    "prepare_at_page": N_("page {page} of {total}"),
    "prepare_at_opening": N_("opening the file"),
    "prepare_advice_split": N_("Split the file, or raise JOB_TIMEOUT, then retry."),
    "prepare_advice_one": N_(
        "Page {pages} was skipped after PAGE_TIMEOUT: such pages are too complex for the "
        "renderer, so splitting the file would not help. Raise JOB_TIMEOUT or lower PAGE_TIMEOUT, "
        "then retry.",
    ),
    "prepare_advice_skipped": N_(
        "Pages {pages} were skipped after PAGE_TIMEOUT: such pages are too complex for the "
        "renderer, so splitting the file would not help. Raise JOB_TIMEOUT or lower PAGE_TIMEOUT, "
        "then retry.",
    ),
    "extract_timeout": NN_(
        "{file}: reading the documents out of its {pages} page took longer than JOB_TIMEOUT and "
        "was stopped. Raise JOB_TIMEOUT and retry.",
        "{file}: reading the documents out of its {pages} pages took longer than JOB_TIMEOUT and "
        "was stopped. Raise JOB_TIMEOUT and retry.",
        "pages",
    ),
    "tesseract_not_installed": N_(
        "Tesseract OCR is not installed. Install it with: apt-get install tesseract-ocr "
        "tesseract-ocr-rus tesseract-ocr-eng (tesseract-ocr-osd as well, for page rotation), or "
        "choose another OCR engine.",
    ),
    "tesseract_no_language": N_(
        "Tesseract has no data for {missing} (OCR_LANGUAGES={languages}). Install it with: "
        "apt-get install {packages}",
    ),
    "ocr_language_missing": N_(
        "Tesseract cannot read {missing}: it has no data for it. Installed are {installed}; use "
        "codes such as ru, en (or Tesseract's own names), or install the language's data for "
        "Tesseract.",
    ),
    # the worker
    "internal_error": N_(
        "{file}: internal error ({error}). Retry it; if it fails again, report it with the log.",
    ),
    "extractor_internal_error": N_(
        "{file}: internal error in the offline extractor ({error}). Retry it; if it fails again, "
        "report it.",
    ),
    "interrupted_repeatedly": NN_(
        "{file}: processing was interrupted {attempts} time while in {state}; the file may be "
        "what stops the worker. Check it, then retry.",
        "{file}: processing was interrupted {attempts} times while in {state}; the file may be "
        "what stops the worker. Check it, then retry.",
        "attempts",
    ),
    "canceled_by_operator": N_("canceled by the operator"),
    # the budget: a run held before anything of it was sent
    "budget_run_cap": NN_(
        "{files} file, {pages}, held before sending: the forecast of ${usd} (${low} to ${high}) "
        "is over the budget per run of ${cap}. Nothing was sent. Raise the budget per run "
        "(BUDGET_RUN_USD) in Settings, or run it anyway (docbatch process --over-budget, or Run "
        "anyway in the Queue tab).",
        "{files} files, {pages}, held before sending: the forecast of ${usd} (${low} to ${high}) "
        "is over the budget per run of ${cap}. Nothing was sent. Raise the budget per run "
        "(BUDGET_RUN_USD) in Settings, or run it anyway (docbatch process --over-budget, or Run "
        "anyway in the Queue tab).",
        "files",
    ),
    "budget_month_cap": NN_(
        "{files} file, {pages}, held before sending: ${spent} spent this month plus the forecast "
        "of ${usd} (${low} to ${high}) is over the monthly budget of ${cap}. Nothing was sent. "
        "Raise the budget per month (BUDGET_MONTH_USD) in Settings, or run it anyway (docbatch "
        "process --over-budget, or Run anyway in the Queue tab).",
        "{files} files, {pages}, held before sending: ${spent} spent this month plus the forecast "
        "of ${usd} (${low} to ${high}) is over the monthly budget of ${cap}. Nothing was sent. "
        "Raise the budget per month (BUDGET_MONTH_USD) in Settings, or run it anyway (docbatch "
        "process --over-budget, or Run anyway in the Queue tab).",
        "files",
    ),
    # why a path found on intake is not read (``sources.local.refusal``)
    "refused_link_loop": N_("a symbolic link loop"),
    "refused_link_broken": N_("a broken symbolic link"),
    "refused_system_file": N_("it leads to a system file ({target})"),
    "refused_unreadable": N_("it cannot be read ({error})"),
    "refused_not_regular": N_("not a regular file (a pipe, socket or device)"),
    "refused_name_not_utf8": N_(
        "its name is not valid UTF-8 ({name}); rename the file and add it again",
    ),
    "refused_link_out": N_(
        "a symbolic link out of the folder ({target}); FOLLOW_SYMLINKS_OUT allows it",
    ),
    "batch_job_held": N_(
        "job {job} is already in the planned batch {intent}; it is not planned twice",
    ),
    "batch_request_held": N_(
        "request {request} waits in batch {batch} already; it is not sent twice",
    ),
    "budget_store_busy": N_(
        "the budget could not be checked: another process held the store's budget lease for "
        "{seconds} s; the request was not sent and is tried again",
    ),
}

#: code → {parameter: its words}: a second number in a message, worded before it is put in
JOB_COUNTED: dict[str, dict[str, Plural]] = {
    "budget_run_cap": {"pages": NN_("{pages} page", "{pages} pages", "pages")},
    "budget_month_cap": {"pages": NN_("{pages} page", "{pages} pages", "pages")},
}
