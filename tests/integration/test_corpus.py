"""A small, fast subset of the real-world corpus (``scripts/corpus.py``): other
projects' test files, one or two for each way a real file went wrong before.

The corpus is downloaded from the package registry on first use (about 20 s) into
the git-ignored ``.corpus/`` and reused after; ``bench/corpus.py`` runs all of it.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
from collections.abc import Iterator
from typing import Any

import pytest
from filelock import FileLock

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.states import JobState
from docbatch_gui.pipeline.ocr_image import ocr_images
from docbatch_gui.pipeline.ocr_osd import orientation_of
from docbatch_gui.pipeline.ocr_tesseract import language_scripts, tesseract_available
from docbatch_gui.settings.loading import load_settings
from tests.helpers import REPO

pytestmark = [
    pytest.mark.slow,  # real-world files through OCR
    pytest.mark.skipif(not tesseract_available(), reason="needs tesseract (rus, eng)"),
]

PROCESSED = (JobState.DONE, JobState.NEEDS_REVIEW)


def _corpus_script() -> Any:
    spec = importlib.util.spec_from_file_location("corpus_script", REPO / "scripts" / "corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def corpus() -> Iterator[dict[str, dict[str, Any]]]:
    """The manifest's entries by "project/file"; both test workers share one download."""
    dest = REPO / ".corpus"
    dest.mkdir(exist_ok=True)
    with FileLock(dest / ".lock"):
        _corpus_script().ensure(dest)
    manifest = json.loads((dest / "manifest.json").read_text(encoding="utf-8"))
    yield {f"{e['project']}/{e['file']}": {**e, "path": dest / e["project"] / e["file"]}
           for e in manifest["files"]}  # fmt: skip


@pytest.mark.parametrize(
    "name",
    [
        "ocrmypdf/cardinal.pdf",  # one scan baked in four directions: each turned back
        "ocrmypdf/c03-29.pdf",  # upright pages OSD turned over on the small image
        "ocrmypdf/francais.pdf",
        "ocrmypdf/masks.pdf",
        "ocrmypdf/lichtenstein.pdf",  # a painting: never turned over
    ],
)
def test_orientation_is_decided_on_the_image_made_for_ocr(
    corpus: dict[str, dict[str, Any]], name: str
) -> None:
    entry = corpus[name]
    pages = [{"page_no": n, "path": ""} for n in range(1, entry["pages"] + 1)]
    decided = []
    for page in ocr_images(str(entry["path"]), "pdf", entry["file"], pages):
        assert page.dpi is not None and page.dpi >= 200, page  # not the ~110 dpi image
        orientation = orientation_of(page.image, page.dpi, 60, scripts=language_scripts("rus+eng"))
        assert orientation.note.english.startswith(f"OSD at {page.dpi} dpi"), orientation
        decided.append(orientation.rotation)
    assert decided == entry["rotation"], [name, decided]


@pytest.fixture(scope="module")
def processed(
    corpus: dict[str, dict[str, Any]], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[DocBatchApp, dict[str, Any]]]:
    """One offline run (Tesseract) over the files of the classes below."""
    names = [
        "pypdf/two-different-pages.pdf",  # a short text layer kept over OCR
        "pikepdf/pdfa/fpdf2_latin_tr3.pdf",  # invisible text (render mode 3) kept
        "pypdf/selenium-pypdf-issue-177.pdf",  # read by others, called truncated before
        "pikepdf/cyclic-toc.pdf",  # a page tree MuPDF finds empty, qpdf rebuilds
        "pypdf/encryption/r6-owner-password.pdf",  # AES-256 with an owner password only
        "pypdf/encryption/r5-owner-password.pdf",
        "img2pdf/input/mono.png",  # a 115×48 "TEST" label without a stated resolution
        "pikepdf/veraPDF test suite 6-2-10-t02-pass-a.pdf",  # numbers in the name
        "ocrmypdf/c03-29.pdf",  # an upright scan OCR'd whole
        "pikepdf/fuzz/378014596.pdf",  # damaged for every reader
    ]
    settings = load_settings(
        data_dir=tmp_path_factory.mktemp("corpus") / "data",
        OCR_ENGINE="tesseract",
        PROCESSING_MODE="offline",
        OCR_LANGUAGES="en",
    )
    app = DocBatchApp(settings)
    report = app.add([corpus[n]["path"] for n in names], mode="offline", force=True)
    jobs = asyncio.run(app.run([j.id for j in report.jobs]))
    by_name = {name: next(j for j in jobs if j.file_name == corpus[name]["path"].name)
               for name in names}  # fmt: skip
    yield app, by_name
    app.close()


def test_text_layers_are_kept(
    processed: tuple[DocBatchApp, dict[str, Any]], corpus: dict[str, dict[str, Any]]
) -> None:
    app, jobs = processed
    for name in ("pypdf/two-different-pages.pdf", "pikepdf/pdfa/fpdf2_latin_tr3.pdf"):
        job = jobs[name]
        assert job.state in PROCESSED, (name, job.error)
        pages = {p.page_no: p for p in app.pages(job.id)}
        for number in corpus[name]["text_pages"]:
            page = pages[number]
            assert page.text.strip(), (name, number)
            assert page.rotation == 0, (name, number)  # a text layer is never OCR-turned
    reasons = [r for d in app.documents(jobs["pypdf/two-different-pages.pdf"].id)
               for r in d.review_reasons]  # fmt: skip
    assert not any("no text layer" in r for r in reasons), reasons


def test_what_other_readers_open_is_processed(
    processed: tuple[DocBatchApp, dict[str, Any]],
) -> None:
    app, jobs = processed
    for name in (
        "pypdf/selenium-pypdf-issue-177.pdf",
        "pikepdf/cyclic-toc.pdf",
        "pypdf/encryption/r6-owner-password.pdf",
        "pypdf/encryption/r5-owner-password.pdf",
    ):
        job = jobs[name]
        assert job.state in PROCESSED, (name, job.error)
        assert job.pages and job.pages >= 1
    assert any(p.text.strip() for p in app.pages(jobs["pypdf/encryption/r6-owner-password.pdf"].id))


def test_only_a_file_every_reader_refuses_is_called_damaged(
    processed: tuple[DocBatchApp, dict[str, Any]],
) -> None:
    _, jobs = processed
    job = jobs["pikepdf/fuzz/378014596.pdf"]
    assert job.state is JobState.FAILED and job.error_kind is ErrorKind.UNSUPPORTED
    assert (job.error or "").startswith("378014596.pdf: the PDF is")
    assert "fresh copy" in (job.error or "")


def test_a_small_label_is_read(processed: tuple[DocBatchApp, dict[str, Any]]) -> None:
    app, jobs = processed
    (page,) = app.pages(jobs["img2pdf/input/mono.png"].id)
    assert "TEST" in page.text.upper(), page.text


def test_an_upright_scan_stays_upright_with_its_evidence(
    processed: tuple[DocBatchApp, dict[str, Any]],
) -> None:
    app, jobs = processed
    (page,) = app.pages(jobs["ocrmypdf/c03-29.pdf"].id)
    assert page.ocr_engine == "tesseract"
    assert page.rotation == 0 and not page.orientation_uncertain
    assert page.orientation_note is not None
    assert page.orientation_note.english.startswith("OSD at 300 dpi: 0° (score ")
    assert sum(ch.isalpha() for ch in page.text) > 500  # read in full, not as garbage


def test_numbers_in_a_file_name_are_not_fields(
    processed: tuple[DocBatchApp, dict[str, Any]],
) -> None:
    app, jobs = processed
    for document in app.documents(jobs["pikepdf/veraPDF test suite 6-2-10-t02-pass-a.pdf"].id):
        assert not any(document.filename_fields.values()), document.filename_fields


def test_the_corpus_script_records_what_a_careful_reader_gets(
    corpus: dict[str, dict[str, Any]],
) -> None:
    cardinal = corpus["ocrmypdf/cardinal.pdf"]
    assert cardinal["rotation"] == [0, 270, 180, 90] and cardinal["opens"]
    assert corpus["pypdf/encryption/r6-both-passwords.pdf"]["opens"] is False
    assert corpus["pypdf/two-different-pages.pdf"]["text_pages"] == [1, 2]
    assert {e["project"] for e in corpus.values()} == {"ocrmypdf", "pikepdf", "pypdf", "img2pdf"}
    assert all(len(e["sha256"]) == 64 and e["version"] for e in corpus.values())
