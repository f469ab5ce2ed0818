"""The prepare step end to end: page images at the size Claude reads, text layers,
thumbnails, and every artifact in the blob store."""

from __future__ import annotations

import asyncio
import io
import shutil
from pathlib import Path

import pytest
from PIL import Image

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.states import JobState
from docbatch_gui.pipeline.render import MAX_LONG_EDGE, MAX_PIXELS, THUMB_LONG_EDGE
from tests import builders
from tests.conftest import SAMPLES

pytestmark = pytest.mark.slow  # the full pipeline on real samples


def run(app: DocBatchApp, paths: list[Path]) -> list:
    return asyncio.run(app.run([j.id for j in app.add(paths).jobs]))


def test_pages_are_grayscale_jpegs_within_the_api_limits(app: DocBatchApp) -> None:
    (job,) = run(app, [SAMPLES / "ru_three_documents.pdf"])
    pages = app.pages(job.id)
    assert [p.page_no for p in pages] == [1, 2, 3, 4]
    for page in pages:
        assert page.deliverable
        image = Image.open(io.BytesIO(app.blobs.read(page.image_sha or "")))
        assert image.format == "JPEG" and image.mode == "L"
        assert image.size == (page.width, page.height)
        assert image.width * image.height <= MAX_PIXELS * 1.01
        assert max(image.size) <= MAX_LONG_EDGE
        assert max(image.size) > 1200  # not needlessly small either
    assert "Счет на оплату" in pages[0].text


def test_first_page_thumbnail_is_made_eagerly_others_on_demand(app: DocBatchApp) -> None:
    (job,) = run(app, [SAMPLES / "ru_three_documents.pdf"])
    first, second = app.pages(job.id)[:2]
    assert first.thumb_sha is not None and second.thumb_sha is None
    thumb = Image.open(io.BytesIO(app.thumbnail(job.id, 2)))
    assert max(thumb.size) <= THUMB_LONG_EDGE * 1.2
    assert app.pages(job.id)[1].thumb_sha is not None  # cached
    assert app.thumbnail(job.id, 2) == app.thumbnail(job.id, 2)


def test_multipage_tiff_png_and_jpeg_photos(app: DocBatchApp, tmp_path: Path) -> None:
    tiff = builders.multipage_tiff(tmp_path / "scan.tif", pages=3)
    png = builders.png(tmp_path / "page.png", size=(2480, 3508))  # A4 at 300 dpi
    photo = tmp_path / "photo.jpg"
    Image.new("RGB", (4000, 3000), (200, 200, 200)).save(photo, quality=90)
    jobs = {j.file_name: j for j in run(app, [tiff, png, photo])}
    assert jobs["scan.tif"].pages == 3
    for job in jobs.values():
        assert job.state is JobState.NEEDS_REVIEW  # no text layer: a person must look
        for page in app.pages(job.id):
            assert page.width * page.height <= MAX_PIXELS * 1.01
            assert max(page.width, page.height) <= MAX_LONG_EDGE
    (landscape,) = app.pages(jobs["photo.jpg"].id)
    assert landscape.width > landscape.height


def test_the_source_file_is_kept_in_the_blob_store(app: DocBatchApp, tmp_path: Path) -> None:
    source = tmp_path / "invoice.pdf"
    shutil.copy(SAMPLES / "en_invoice_INV-2024-0042.pdf", source)
    (job,) = run(app, [source])
    source.unlink()  # the operator deletes the original: nothing is lost
    assert app.blobs.read(job.sha256) == (SAMPLES / "en_invoice_INV-2024-0042.pdf").read_bytes()
    app.retry(job.id)
    (again,) = asyncio.run(app.run([job.id]))
    assert again.state is JobState.DONE
