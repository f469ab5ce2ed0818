"""The same invoice as two files (a PDF, and a photo of it read by OCR): the second is
marked ``likely_duplicate`` naming the first; *Not a duplicate* clears it for good;
exports and the registry match count a marked one once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pymupdf
import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.outbound.documents import ExportOptions
from docbatch_gui.settings.model import Settings
from tests.helpers import REPO

pytestmark = pytest.mark.slow  # two whole jobs with Tesseract, and a reprocess

PDF = REPO / "docbatch_gui" / "resources" / "samples" / "en_invoice_INV-2024-0042.pdf"


def _photo(folder: Path) -> Path:
    """The invoice as a camera or a scanner would give it: an image, no text layer."""
    path = folder / "photo_of_invoice.jpg"
    with pymupdf.open(PDF) as document:
        document[0].get_pixmap(dpi=200).pil_save(path, quality=85)
    return path


def _process(app: DocBatchApp, path: Path) -> int:
    (job,) = app.add([path], mode="offline").jobs
    asyncio.run(app.run([job.id]))
    return job.id


def test_a_pdf_and_a_photo_of_it_are_one_document(settings: Settings, tmp_path: Path) -> None:
    app = DocBatchApp(settings)
    try:
        first_job = _process(app, PDF)
        second_job = _process(app, _photo(tmp_path))
        (first,) = app.documents(first_job)
        (second,) = app.documents(second_job)
        assert second.fields["number"] == first.fields["number"] == "INV-2024-0042"
        assert not [c for c in first.review_codes if c.code == "likely_duplicate"]
        (mark,) = [c for c in second.review_codes if c.code == "likely_duplicate"]
        assert mark.params == {"document": first.id, "job": first_job, "file": PDF.name}
        assert second.needs_review
        assert f"document {first.id} of job {first_job}" in second.review_reasons[-1]

        # one document for exports and the registry while it is marked
        exported = app.exports.selection(ExportOptions())
        assert [doc.id for _job, doc in exported] == [first.id]
        assert [doc.id for doc in app.registry.documents()] == [first.id]

        # a person says it is another document: cleared, and never asked again
        cleared = app.review.not_a_duplicate(second_job, 0, who="anna")
        assert not [c for c in cleared.review_codes if c.code == "likely_duplicate"]
        assert cleared.audit[-1]["action"] == "not_duplicate"
        assert len(app.exports.selection(ExportOptions())) == 2
        app.retry(second_job, force=True)
        asyncio.run(app.run([second_job]))
        (again,) = app.documents(second_job)
        assert not [c for c in again.review_codes if c.code == "likely_duplicate"]
    finally:
        app.close()
