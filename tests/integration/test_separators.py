"""Separator sheets: a scanned stack of three documents with two PATCHT sheets (one QR,
one Code 128) becomes three documents, offline and through the fake Claude, and the
sheets are never sent nor a document."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import numpy
import pymupdf
import pytest
import zxingcpp
from PIL import Image

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.pipeline.separators import page_barcodes, plan_split
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.model import Settings
from tests.fakes.anthropic_answers import parse_request
from tests.fakes.anthropic_server import FakeAnthropic

PAGES = [
    "СЧЕТ НА ОПЛАТУ № 101 от 02.11.2026\nПоставщик: ООО Ромашка\nИтого к оплате: 1 200,00 руб.",
    None,  # separator: QR
    "АКТ № 7 от 03.11.2026\nоб оказании услуг\nИсполнитель: ООО Ромашка",
    "Итого: 5 000,00 руб.\nИсполнитель ____ Заказчик ____",
    "code128",  # separator: Code 128
    "СЧЕТ НА ОПЛАТУ № 102 от 04.11.2026\nИтого к оплате: 800,00 руб.",
]


def _barcode(text: str, kind: zxingcpp.BarcodeFormat, scale: int) -> Image.Image:
    return Image.fromarray(numpy.asarray(zxingcpp.create_barcode(text, kind).to_image(scale=scale)))


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def scanned_stack(path: Path) -> Path:
    """Six pages as a scanner gives a stack: text pages, two separator sheets, and an
    archive serial number (ASN00042) on the last document's page."""
    document = pymupdf.open()
    for text in PAGES:
        page = document.new_page()
        if text is None:
            qr = _png(_barcode("PATCHT", zxingcpp.BarcodeFormat.QRCode, 8))
            page.insert_image(pymupdf.Rect(200, 300, 400, 500), stream=qr)
            continue
        if text == "code128":
            code = _png(_barcode("PATCHT", zxingcpp.BarcodeFormat.Code128, 4))
            page.insert_image(pymupdf.Rect(120, 350, 480, 470), stream=code)
            continue
        page.insert_htmlbox(pymupdf.Rect(50, 50, 550, 400), "<br>".join(text.split("\n")))
        if "102" in text:
            asn = _png(_barcode("ASN00042", zxingcpp.BarcodeFormat.Code128, 3))
            page.insert_image(pymupdf.Rect(400, 700, 560, 780), stream=asn)
    document.save(path)
    return path


def test_the_sheets_and_the_asn_are_read_from_the_page_images(tmp_path: Path) -> None:
    stack = pymupdf.open(scanned_stack(tmp_path / "stack.pdf"))
    codes = {n + 1: page_barcodes(stack[n].get_pixmap(dpi=110, colorspace="gray").tobytes("png"))
             for n in range(len(stack))}  # fmt: skip
    assert codes[2] == ["PATCHT"] and codes[5] == ["PATCHT"] and codes[6] == ["ASN00042"]
    split = plan_split(codes, list(codes), "PATCHT", r"^ASN\d+$")
    assert split is not None
    assert split.separators == [2, 5] and split.segments == [(1, 1), (3, 4), (6, 6)]
    assert split.asn == [None, None, "ASN00042"]
    assert plan_split(codes, list(codes), "OTHER") is None


def _run(settings: Settings, path: Path, mode: str) -> tuple[DocBatchApp, int]:
    app = DocBatchApp(settings)
    (job,) = app.add([path], mode=mode).jobs
    asyncio.run(app.run([job.id]))
    return app, job.id


def _three_documents(app: DocBatchApp, job_id: int) -> None:
    documents = app.documents(job_id)
    assert [(d.page_from, d.page_to) for d in documents] == [(1, 1), (3, 4), (6, 6)]
    assert documents[0].fields.get("number") == "101"
    assert documents[2].fields.get("number") == "102"
    job = app.store.get_job(job_id)
    assert job.split is not None and job.split["separators"] == [2, 5]
    assert job.split["asn"] == [None, None, "ASN00042"]


@pytest.mark.slow  # a whole job with the render child
def test_a_stack_with_two_sheets_is_three_documents_offline(
    settings: Settings, tmp_path: Path
) -> None:
    app, job_id = _run(settings, scanned_stack(tmp_path / "stack.pdf"), "offline")
    try:
        _three_documents(app, job_id)
    finally:
        app.close()


@pytest.mark.slow  # a whole job with the render child and the fake
def test_through_the_fake_the_sheets_are_never_sent(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    settings = load_settings(
        data_dir=claude_settings.data_dir, ANTHROPIC_API_KEY="test-key",
        ANTHROPIC_BASE_URL=fake_anthropic.url, ANTHROPIC_TIMEOUT=10,
    )  # fmt: skip
    app, job_id = _run(settings, scanned_stack(tmp_path / "stack.pdf"), "sync")
    try:
        _three_documents(app, job_id)
        sent = [
            parse_request(r.json) for r in fake_anthropic.requests
            if r.path == "/v1/messages" and r.json
        ]  # fmt: skip
        pages = sorted(source for request in sent for _k, source, _text in request.pages)
        assert pages == [1, 3, 4, 6]  # each group between two sheets, the sheets never
    finally:
        app.close()


@pytest.mark.slow  # a whole batch-mode job with the render child and the fake
def test_in_batch_mode_the_sheets_are_never_sent(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    """The Message Batches path splits the stack the same way: three documents, and
    no request of any batch carries a separator page."""
    app, job_id = _run(
        claude_settings.model_copy(update={"poll_interval": 0.05}),
        scanned_stack(tmp_path / "stack.pdf"),
        "batch",
    )
    try:
        _three_documents(app, job_id)
        posts = [
            r.json for r in fake_anthropic.requests
            if r.method == "POST" and r.path == "/v1/messages/batches" and r.json
        ]  # fmt: skip
        assert posts, "nothing went through the Batches API"
        sent = [parse_request(entry["params"]) for post in posts for entry in post["requests"]]
        pages = sorted(source for request in sent for _k, source, _text in request.pages)
        assert pages == [1, 3, 4, 6]
        assert not [r for r in fake_anthropic.requests if r.path == "/v1/messages"]
    finally:
        app.close()
