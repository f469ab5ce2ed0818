"""OCR in the pipeline: the cache, critical Vision errors, rotation applied to pages,
and a kill in the middle of OCR. Vision runs through its real client against the fake;
Tesseract is the real binary."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.loading import load_settings
from tests.conftest import SAMPLES
from tests.fakes.vision_server import FakeVision
from tests.helpers import REPO, cli, wait_for


@pytest.fixture
def vision() -> Iterator[FakeVision]:
    with FakeVision(
        default_text="Счет на оплату № 77 от 05.06.2024\nИтого к оплате: 1 500,00 руб."
    ) as server:
        yield server


def scan(path: Path, pages: int) -> Path:
    """A multi-page image-only TIFF (the fake Vision supplies the text); a mark that
    depends on the name keeps files distinct, so none is taken for a duplicate."""
    frames = [Image.new("L", (1240, 1754), 255) for _ in range(pages)]
    for n, frame in enumerate(frames):
        x = 50 + (sum(path.name.encode()) * 7 + n * 13) % 1000
        frame.paste(0, (x, 50, x + 40, 90))
    frames[0].save(path, save_all=True, append_images=frames[1:], compression="tiff_lzw")
    return path


def vision_app(tmp_path: Path, vision: FakeVision, **extra: object) -> DocBatchApp:
    options: dict[str, object] = {"OCR_WORKERS": 2, **extra}
    settings = load_settings(
        data_dir=tmp_path / "data",
        OCR_ENGINE="google_vision",
        GOOGLE_VISION_ENDPOINT=vision.url,
        **options,
    )
    return DocBatchApp(settings)


@pytest.mark.slow
def test_vision_text_feeds_the_extractor_and_rotation_turns_the_page(
    tmp_path: Path, vision: FakeVision
) -> None:
    app = vision_app(tmp_path, vision)
    vision.text_for_next(
        "Счет на оплату № 77 от 05.06.2024\nИтого к оплате: 1 500,00 руб.", rotation=90
    )
    (job,) = asyncio.run(app.run([j.id for j in app.add([scan(tmp_path / "s.tif", 1)]).jobs]))
    (page,) = app.pages(job.id)
    assert page.ocr_engine == "google_vision" and not page.ocr_cached
    assert page.rotation == 90 and page.rotation_confidence > 0.5
    assert page.width > page.height  # the portrait render was turned a quarter
    (document,) = app.documents(job.id)
    assert document.doc_type == "invoice"
    assert document.fields["number"] == "77" and document.fields["amount"] == "1500.00"
    app.close()


@pytest.mark.slow
def test_cache_second_run_and_force_make_no_ocr_calls(tmp_path: Path, vision: FakeVision) -> None:
    app = vision_app(tmp_path, vision)
    source = scan(tmp_path / "three.tif", 3)
    (job,) = asyncio.run(app.run([j.id for j in app.add([source]).jobs]))
    assert vision.calls == 3
    app.retry(job.id)  # a second run of the same job
    asyncio.run(app.run([job.id]))
    (forced,) = asyncio.run(app.run([j.id for j in app.add([source], force=True).jobs]))
    assert vision.calls == 3  # known pages never go to the engine again
    assert all(p.ocr_cached and p.ocr_engine == "google_vision" for p in app.pages(forced.id))
    assert [p.text for p in app.pages(forced.id)] == [p.text for p in app.pages(job.id)]
    app.close()


@pytest.mark.slow
def test_billing_disabled_is_critical_stops_the_queue_and_is_not_retried(
    tmp_path: Path, vision: FakeVision
) -> None:
    app = vision_app(tmp_path, vision, RENDER_WORKERS=1)
    vision.fail_next(1, 403)
    jobs = app.add([scan(tmp_path / f"{n}.tif", 1) for n in range(3)]).jobs
    result = {j.id: j for j in asyncio.run(app.run([j.id for j in jobs]))}
    first = result[jobs[0].id]
    assert first.state is JobState.FAILED and first.error_kind is ErrorKind.CRITICAL
    assert "billing" in (first.error or "")
    assert app.halted is not None
    assert vision.calls == 1  # never retried, nothing else sent
    assert {result[j.id].state for j in jobs[1:]} == {JobState.QUEUED}
    app.close()


@pytest.mark.slow
def test_a_page_error_fails_only_that_page(tmp_path: Path, vision: FakeVision) -> None:
    app = vision_app(tmp_path, vision, OCR_WORKERS=1)
    vision.per_image_error_next("Bad image data.")
    (job,) = asyncio.run(app.run([j.id for j in app.add([scan(tmp_path / "two.tif", 2)]).jobs]))
    assert job.state in (JobState.DONE, JobState.NEEDS_REVIEW)
    texts = sorted(len(p.text) for p in app.pages(job.id))
    assert texts[0] == 0 and texts[1] > 0
    app.close()


@pytest.mark.slow
def test_kill_in_the_middle_of_ocr_redoes_only_the_missing_pages(
    tmp_path: Path, vision: FakeVision
) -> None:
    data = tmp_path / "data"
    env = {
        **os.environ,
        "OCR_ENGINE": "google_vision",
        "GOOGLE_VISION_ENDPOINT": vision.url,
        "OCR_WORKERS": "1",
    }
    vision.latency = 0.3
    source = scan(tmp_path / "six.tif", 6)
    command = [sys.executable, "-m", "docbatch_gui.cli", "--data-dir", str(data)]
    process = subprocess.Popen(
        [*command, "process", str(source), "--wait"], cwd=REPO, env=env, stdout=subprocess.DEVNULL
    )
    wait_for(lambda: vision.calls >= 3, 60, "three pages read", interval=0.02)
    process.send_signal(signal.SIGKILL)
    process.wait()
    done_before = vision.calls
    assert 3 <= done_before < 6
    vision.latency = 0.0
    subprocess.run([*command, "worker", "--once"], cwd=REPO, env=env, check=True, timeout=120)
    # every page was read once, at most the one in flight at the kill twice
    assert 6 <= vision.calls <= 6 + 1
    pages = json.loads(
        cli(data, "pages", "--job", "1", "--json", env={"OCR_ENGINE": "google_vision"}).stdout
    )
    assert [p["page"] for p in pages] == [1, 2, 3, 4, 5, 6]
    assert {p["ocr_engine"] for p in pages} == {"google_vision"}
    assert all(p["text_chars"] > 0 for p in pages)
    for key in ("rotation", "rotation_confidence", "ocr_cached", "text_chars"):
        assert key in pages[0]


@pytest.mark.slow
def test_tesseract_reads_the_sideways_photo_sample(tmp_path: Path) -> None:
    app = DocBatchApp(load_settings(data_dir=tmp_path / "data", OCR_ENGINE="tesseract"))
    photo = SAMPLES / "photo_invoice_sideways.jpg"
    (job,) = asyncio.run(app.run([j.id for j in app.add([photo]).jobs]))
    (page,) = app.pages(job.id)
    assert page.rotation == 270 and page.height > page.width  # turned upright
    said = page.orientation_note  # its code crossed the OCR child and the store
    assert said is not None and said.code == "orient_osd_turned", said
    assert said.words("ru").endswith("повёрнута на 270°")
    (document,) = app.documents(job.id)
    assert document.doc_type == "invoice"
    assert document.fields["number"] == "123" and document.fields["amount"] == "118000.00"
    app.close()


def _short_layer_pdf(path: Path, text: str, pages: int = 2) -> Path:
    """A real text layer too short to skip OCR ("Hello wörld fi", a page number)."""
    import pymupdf

    document = pymupdf.open()
    for _ in range(pages):
        document.new_page().insert_text((72, 72), text, fontsize=11)
    document.save(path)
    return path


@pytest.mark.slow
def test_ocr_never_replaces_a_text_layer_with_less(tmp_path: Path, vision: FakeVision) -> None:
    """OCR that reads nothing (or less) keeps the file's own text, does not turn the
    page, and the review reason says what happened."""
    app = vision_app(tmp_path, vision)
    vision.text_for_next("", rotation=180)
    vision.text_for_next("", rotation=180)
    pdf = _short_layer_pdf(tmp_path / "hello.pdf", "Hello wörld fi")
    (job,) = asyncio.run(app.run([j.id for j in app.add([pdf]).jobs]))
    pages = app.pages(job.id)
    assert [p.text for p in pages] == ["Hello wörld fi"] * 2
    assert all(p.rotation == 0 and p.ocr_engine is None for p in pages)
    assert vision.calls >= 1  # OCR did run; it just read less than the layer holds
    app.close()


@pytest.mark.slow
def test_ocr_adds_text_where_the_layer_has_almost_none(tmp_path: Path, vision: FakeVision) -> None:
    app = vision_app(tmp_path, vision)
    pdf = _short_layer_pdf(tmp_path / "three.pdf", "3", pages=1)
    (job,) = asyncio.run(app.run([j.id for j in app.add([pdf]).jobs]))
    (page,) = app.pages(job.id)
    assert page.ocr_engine == "google_vision" and "Счет на оплату № 77" in page.text
    app.close()


def test_review_reasons_say_what_happened_to_unread_pages(tmp_path: Path) -> None:
    from docbatch_gui.config.profile import load_profile
    from docbatch_gui.pipeline.offline import PageText, extract_documents

    pages = [PageText(1, ""), PageText(2, "", "tesseract"), PageText(3, "3"), PageText(4, "")]
    (doc,) = extract_documents(1, "x.pdf", pages, load_profile())
    assert "no text layer on pages 1, 4 (scan): OCR needed" in doc.review_reasons
    assert "OCR (tesseract) found no readable text on page 2: check the scan" in doc.review_reasons
    assert any(r.startswith("almost no text on page 3") for r in doc.review_reasons)
