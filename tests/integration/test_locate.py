"""Every extracted value located on its page, end to end: born-digital files (the
bundled samples and invoices written in every form, on turned and cropped pages),
the bundled scans read by Tesseract, Vision's words on a turned scan, a value the
model made up, and ``documents --json``.

The share of values located is printed (``pytest -s``) and asserted.
"""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.states import JobState
from docbatch_gui.pipeline.ocr_tesseract import tesseract_available
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.model import Settings
from tests.conftest import SAMPLES
from tests.fakes.anthropic_answers import answer_for, parse_request
from tests.fakes.anthropic_server import FakeAnthropic
from tests.fakes.vision_server import PAGE_HEIGHT, PAGE_WIDTH, FakeVision, layout_words
from tests.helpers import cli

pytestmark = pytest.mark.slow  # whole files through the pipeline

BORN_DIGITAL = ["en_invoice_INV-2024-0042.pdf", "ru_three_documents.pdf"]
SCANS = ["scan_two_pages.tiff", "photo_invoice_sideways.jpg"]
CSS = "* { font-family: sans-serif; font-size: 11pt; } p { margin: 3pt 0; }"
#: (number, date, amount, how the page is laid out) of generated invoices
FORMS = [
    ("№ 2024-1000", "12.03.2024", "118 000,00", "upright"),
    ("№ 2024-1001", "12 марта 2024 г.", "118000.00 руб.", "rotate"),
    ("№ 1002", "«12» марта 2024 г.", "118 000 руб. 00 коп.", "sideways"),
    ("№ 1003", "12.03.24", "118 000,00 руб.", "cropped"),
    ("№ СЧ-1004/24", "12 мар. 2024 г.", "118 000,00", "landscape"),
]
RU_INVOICE = """<p><b>Счет на оплату {number} от {date}</b></p>
<p>Поставщик: ООО «Ромашка», ИНН 7701234560, КПП 770101001, г. Москва</p>
<p>Покупатель: АО «Вектор», ИНН/КПП 5003123458/500301001</p>
<p>Товары: бумага офисная, 200 пачек</p>
<p>Итого к оплате: {amount}</p>
<p>В том числе НДС 20%: 19 666,67 руб.</p>"""
EN_INVOICE = """<p><b>INVOICE</b></p><p>From: Northwind Traders LLC</p>
<p>Tax ID: 98-7654321</p><p>Invoice No.: NW-{n}</p><p>Invoice Date: March 12, 2024</p>
<p>Bill To: Contoso Ltd</p><p>Total Due: ${amount}</p>"""


def generated(folder: Path) -> list[Path]:
    """Born-digital invoices in the written forms the matcher must read, on pages the
    pipeline turns (a /Rotate page, text set sideways) or crops."""
    paths = []
    for n, (number, date, amount, layout) in enumerate(FORMS):
        document = pymupdf.open()
        rect = pymupdf.paper_rect("a4-l" if layout == "landscape" else "a4")
        page = document.new_page(width=rect.width, height=rect.height)
        html = RU_INVOICE.format(number=number, date=date, amount=amount)
        box = pymupdf.Rect(50, 50, rect.width - 50, rect.height - 50)
        page.insert_htmlbox(box, html, css=CSS, rotate=90 if layout == "sideways" else 0)
        if layout == "rotate":
            page.set_rotation(90)
        if layout == "cropped":
            page.set_cropbox(pymupdf.Rect(30, 30, rect.width - 20, rect.height - 300))
        paths.append(folder / f"ru_{n}_{layout}.pdf")
        document.save(paths[-1])
    for n, amount in enumerate(["1,234.56", "118,000.00"]):
        document = pymupdf.open()
        page = document.new_page()
        box = pymupdf.Rect(50, 50, page.rect.width - 50, page.rect.height - 50)
        page.insert_htmlbox(box, EN_INVOICE.format(n=n, amount=amount))
        paths.append(folder / f"en_{n}.pdf")
        document.save(paths[-1])
    return paths


def run(app: DocBatchApp, paths: list[Path]) -> list:
    return asyncio.run(app.run([j.id for j in app.add(paths, force=True).jobs]))


def located_share(app: DocBatchApp, jobs: list) -> tuple[int, int, list[str]]:
    """(values located, values, what was not) over the jobs' documents."""
    found = total = 0
    missed = []
    for job in jobs:
        for document in app.documents(job.id):
            for name, value in document.fields.items():
                if not value:
                    continue
                total += 1
                if name in document.locations:
                    found += 1
                else:
                    missed.append(f"{job.file_name} {name}={value!r}")
    return found, total, missed


def _check_shape(locations: dict[str, Any], page_from: int, page_to: int) -> None:
    for spot in locations.values():
        x0, y0, x1, y1 = spot["box"]
        assert page_from <= spot["page"] <= page_to
        assert 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1


def test_values_on_born_digital_pages_are_located(tmp_path: Path) -> None:
    app = DocBatchApp(load_settings(data_dir=tmp_path / "data", OCR_ENGINE="none"))
    files = [SAMPLES / name for name in BORN_DIGITAL] + generated(tmp_path)
    jobs = run(app, files)
    assert all(j.state in (JobState.DONE, JobState.NEEDS_REVIEW) for j in jobs)
    found, total, missed = located_share(app, jobs)
    print(f"\nborn-digital pages: {found}/{total} values located ({found / total:.1%})")
    assert total >= 60
    assert found / total >= 0.95, missed
    for job in jobs:
        for document in app.documents(job.id):
            _check_shape(document.locations, document.page_from, document.page_to)
            assert not any(c.code == "not_on_page" for c in document.review_codes), job.file_name
    app.close()


@pytest.mark.skipif(not tesseract_available(), reason="needs tesseract (rus, eng)")
def test_values_on_the_bundled_scans_are_located(tmp_path: Path) -> None:
    """The TIFF scan and the sideways photo: Tesseract's words, turned upright."""
    app = DocBatchApp(load_settings(data_dir=tmp_path / "data", OCR_ENGINE="tesseract"))
    jobs = run(app, [SAMPLES / name for name in SCANS])
    found, total, missed = located_share(app, jobs)
    print(f"\nscans (tesseract): {found}/{total} values located ({found / total:.1%})")
    assert total >= 12 and found / total >= 0.8, missed
    photo = next(j for j in jobs if j.file_name == "photo_invoice_sideways.jpg")
    (page,) = app.pages(photo.id)
    assert page.rotation in (90, 270) and page.words_sha  # turned upright, words kept
    (invoice,) = app.documents(photo.id)
    x0, _, _, y1 = invoice.locations["amount"]["box"]
    assert x0 > 0.6 and y1 < 0.5  # the total stands right, in the upper half, upright
    app.close()


@pytest.fixture
def vision() -> Iterator[FakeVision]:
    with FakeVision() as server:
        yield server


TEXT = (
    "Счет на оплату № 77 от 05.06.2024\nПоставщик: ООО «Ромашка», ИНН 7701234560\n"
    "Итого к оплате: 1 500,00 руб."
)


def test_vision_words_on_a_turned_scan_and_from_its_cache(
    tmp_path: Path, vision: FakeVision
) -> None:
    """A scan turned a quarter: the boxes stand where the words do on the upright page,
    for the first reading and for the same file read again from the OCR cache."""
    from tests.integration.test_ocr import scan

    settings = load_settings(
        data_dir=tmp_path / "data", OCR_ENGINE="google_vision", GOOGLE_VISION_ENDPOINT=vision.url
    )
    app = DocBatchApp(settings)
    vision.text_for_next(TEXT, rotation=90)
    source = scan(tmp_path / "turned.tif", 1)
    (first,) = run(app, [source])
    (again,) = run(app, [source])
    assert vision.calls == 1
    upright = {w.text: w.vertices for w in layout_words(TEXT, 0)}
    corners = [*upright["ООО"], *upright["«Ромашка»,"]]  # the name, on the upright page
    expected = (
        min(x for x, _ in corners) / PAGE_WIDTH,
        min(y for _, y in corners) / PAGE_HEIGHT,
        max(x for x, _ in corners) / PAGE_WIDTH,
        max(y for _, y in corners) / PAGE_HEIGHT,
    )
    for job in (first, again):
        (page,) = app.pages(job.id)
        assert page.rotation == 90 and page.words_sha
        (document,) = app.documents(job.id)
        assert document.fields["seller"] == "ООО «Ромашка»"
        assert document.locations["seller"]["box"] == pytest.approx(expected, abs=0.002)
    app.close()


def test_a_value_the_model_made_up_is_flagged(tmp_path: Path) -> None:
    """The fake model answers what the extractor reads, with the amount of the first
    document replaced by one printed nowhere."""

    def planted(body: dict[str, Any]) -> dict[str, Any]:
        answer = copy.deepcopy(answer_for(parse_request(body)))
        for spec in answer["documents"][0]["fields"]:
            if spec["key"] == "amount":
                spec.update(found=True, value="987654.32")
        return answer

    with FakeAnthropic(model_answer=planted) as server:
        settings: Settings = load_settings(
            data_dir=tmp_path / "data",
            ANTHROPIC_API_KEY="test-key",
            ANTHROPIC_BASE_URL=server.url,
            ANTHROPIC_MAX_RETRIES=0,
            JOB_TIMEOUT=60,
        )
        app = DocBatchApp(settings)
        (job,) = asyncio.run(
            app.run([j.id for j in app.add([SAMPLES / BORN_DIGITAL[1]], mode="sync").jobs])
        )
    assert job.state is JobState.NEEDS_REVIEW, job.error
    first, *others = app.documents(job.id)
    assert first.fields["amount"] == "987654.32"
    flags = [c for c in first.review_codes if c.code == "not_on_page"]
    assert [(c.field, c.params) for c in flags] == [("amount", {"value": "987654.32"})]
    assert first.needs_review and first.confidence["amount"] <= 0.3
    assert "amount" not in first.locations and "number" in first.locations
    assert not any(c.code == "not_on_page" for d in others for c in d.review_codes)
    app.close()


def test_documents_json_has_the_locations(tmp_path: Path) -> None:
    data = tmp_path / "data"
    result = cli(data, "process", str(SAMPLES / BORN_DIGITAL[1]), "--wait")
    assert result.returncode == 0, result.stdout + result.stderr
    documents = json.loads(cli(data, "documents", "--json").stdout)
    assert len(documents) == 3
    for document in documents:
        locations = document["locations"]
        assert set(locations) == {k for k, v in document["fields"].items() if v}
        for spot in locations.values():
            assert set(spot) == {"page", "box"} and isinstance(spot["page"], int)
            assert len(spot["box"]) == 4
        _check_shape(locations, document["page_from"], document["page_to"])
    contract = documents[2]
    assert contract["locations"]["seller_tax_id"]["page"] == 4  # found on the second page
