"""Opening a file for the render child: a PDF through MuPDF (and qpdf where MuPDF
fails), an image through Pillow, each refused with a coded reason that names the file
and what to do: damaged, truncated, password-protected, no pages, too many pages, or
too many pixels (checked before anything is decoded)."""

from __future__ import annotations

import io
import os
import warnings
from typing import TYPE_CHECKING, Any

from PIL import Image

from docbatch_gui.domain.errors import UnsupportedInput

if TYPE_CHECKING:
    from docbatch_gui.pipeline.render import PrepareTask

QPDF_REPAIR_LIMIT = 256 * 2**20  # bytes: the repaired copy is held in memory
EOF_WINDOW = 1 << 20  # how far back from the end padding after %%EOF is skipped


def unsupported(
    task: PrepareTask, problem: str, fix: str, code: str | None = None, **params: Any
) -> UnsupportedInput:
    """The file's refusal; with ``code``, the message (``domain.texts_jobs``) it words,
    so the window and the CLI can say it in their language."""
    if code is not None:
        return UnsupportedInput.coded(code, {"file": task.file_name, **params}, file=task.file_name)
    return UnsupportedInput(f"{task.file_name}: {problem}. {fix}", file=task.file_name)


def open_pdf(task: PrepareTask) -> Any:
    """Open with MuPDF; where it fails, finds no page or asks for a password, give
    qpdf (through pikepdf) a try, as other readers do: it repairs a broken page tree
    and opens files encrypted with an empty user password. A file is called damaged
    only when both fail."""
    # deferred: PyMuPDF, 2.1 s to import
    import pymupdf

    try:
        document = pymupdf.open(task.source, filetype="pdf")
        error = None
    except Exception as exc:
        document, error = None, exc
    if document is not None and _locked(document):
        document.authenticate("")
    if document is None or document.page_count == 0 or _locked(document):
        repaired = _through_qpdf(task.source)
        if repaired is not None:
            if document is not None:
                document.close()
            document = repaired
    if document is None:
        assert error is not None  # no document only when MuPDF raised (qpdf gives one or None)
        raise unsupported(
            task,
            f"the PDF is damaged: neither MuPDF nor qpdf can open it ({short_reason(error, task)})",
            "Get a fresh copy from its source, or re-save it with a PDF tool.",
            "pdf_damaged",
            detail=short_reason(error, task),
        )
    if document.is_repaired and not _ends_with_eof(task.source):
        # MuPDF can rebuild a cut-off file, but the pages past the cut come out blank
        # or missing: better to say so than to deliver half a document.
        document.close()
        raise unsupported(
            task,
            "the PDF is truncated (the end of the file is missing; the copy or download "
            "did not finish)",
            "Get a fresh copy from its source and add it again.",
            "pdf_truncated",
        )
    if _locked(document):
        document.close()
        raise unsupported(
            task,
            "the PDF is password-protected",
            "Remove the password (open it and print or save it as a new PDF) and add it again.",
            "pdf_password",
        )
    if document.page_count == 0:
        document.close()
        raise unsupported(
            task,
            "the PDF has no pages (it may be truncated or damaged)",
            "Get a fresh copy from its source.",
            "pdf_no_pages",
        )
    if document.page_count > task.max_pages:
        count = document.page_count
        document.close()
        raise unsupported(
            task,
            f"the PDF has {count} pages, over the limit of {task.max_pages} (MAX_PAGES)",
            "Split it into smaller files, or raise MAX_PAGES.",
            "pdf_too_many_pages",
            count=count,
            max=task.max_pages,
        )
    return document


def _locked(document: Any) -> bool:
    return bool(document.needs_pass or document.is_encrypted)


def _through_qpdf(path: str) -> Any | None:
    """The file as qpdf reads it (repaired, decrypted with an empty password), opened
    by MuPDF from memory; None when qpdf cannot read it either. Bounded in size: the
    repaired copy lives in memory (a child writes no temporary files)."""
    # deferred: PyMuPDF, 2.1 s to import
    import pymupdf

    try:
        # deferred: pikepdf, 0.08 s to import
        import pikepdf
    except ImportError:  # an installation without it: MuPDF's answer stands
        return None
    if os.path.getsize(path) > QPDF_REPAIR_LIMIT:
        return None
    buffer = io.BytesIO()
    try:
        with pikepdf.open(path, password="") as pdf:
            pdf.save(buffer)
        return pymupdf.open(stream=buffer.getvalue(), filetype="pdf")
    except Exception:
        return None


def _ends_with_eof(path: str) -> bool:
    """``%%EOF`` near the end, past any padding of NUL bytes or white space that a
    writer or a transfer appended (other readers ignore that padding too)."""
    with open(path, "rb") as handle:
        handle.seek(0, 2)
        size = handle.tell()
        handle.seek(max(0, size - EOF_WINDOW))
        tail = handle.read().rstrip(b"\x00 \t\r\n\x0c")
    return b"%%EOF" in tail[-1024:]


def open_image(task: PrepareTask) -> Any:
    Image.MAX_IMAGE_PIXELS = task.max_image_pixels
    try:
        with warnings.catch_warnings():
            # Pillow only warns between 1x and 2x the limit; both are refused here.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(task.source)
            image.size  # noqa: B018 - forces the header to be read
            return image
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise unsupported(
            task,
            f"the image is larger than {task.max_image_pixels:,} pixels "
            "(a possible decompression bomb)",
            "Scan or export it at a lower resolution (300 dpi is enough).",
            "image_too_large",
            pixels=task.max_image_pixels,
        ) from None
    except MemoryError:
        raise
    except Exception as exc:
        raise unsupported(
            task,
            f"the image is damaged and cannot be read ({short_reason(exc, task)})",
            "Get a fresh copy from its source, or re-save it with an image tool.",
            "image_damaged",
            detail=short_reason(exc, task),
        ) from None


def check_images(task: PrepareTask, page: Any, page_no: int) -> None:
    """Refuse the page before rendering when an image on it declares more pixels than
    ``max_image_pixels``: the size is read from the image's dictionary (``/Width``,
    ``/Height``), nothing is decoded. A decoder given a 60,000 × 60,000 JPEG 2000
    takes gigabytes from a file of a few kilobytes; an image that lies about its size
    in its dictionary is left to the child's memory cap."""
    for image in page.get_images(full=True):
        width, height = int(image[2]), int(image[3])
        if width * height > task.max_image_pixels:
            raise unsupported(
                task,
                f"page {page_no} holds an image of {width:,} × {height:,} pixels, over the "
                f"limit of {task.max_image_pixels:,} (MAX_IMAGE_PIXELS)",
                "Re-scan or export it at a lower resolution, or raise MAX_IMAGE_PIXELS.",
                "pdf_image_too_large",
                page=page_no,
                width=width,
                height=height,
                pixels=task.max_image_pixels,
            )


def short_reason(exc: BaseException, task: PrepareTask) -> str:
    """The library's reason, in the operator's terms: their file name, not our blob path."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    text = text.replace(f"'{task.source}'", task.file_name).replace(task.source, task.file_name)
    return text[:160]
