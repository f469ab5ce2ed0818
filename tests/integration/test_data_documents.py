"""Documents that arrive as data, through the whole engine: queued as mode ``data``
whatever mode was asked, read exactly with no OCR and no Claude request (sync and
batch mode against the fake), checked like every other document; a hostile XML
fails alone."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.model import Settings
from tests.edoc_files import (
    ROWS,
    cii_xml,
    edo_package,
    facturx_pdf,
    invoice_page,
    upd_name,
    upd_xml,
)
from tests.fakes.anthropic_server import FakeAnthropic
from tests.helpers import cli

pytestmark = pytest.mark.slow  # whole jobs, a render child for the Factur-X page


def _files(folder: Path) -> dict[str, Path]:
    folder.mkdir()
    files = {
        # one rate: the header's VAT check reads a single rate (mixed rates need lines)
        "upd": (upd_name(), upd_xml(rows=ROWS[:2])),
        "facturx": ("invoice-FX-2026-017.pdf", facturx_pdf(invoice_page())),
        "edo": ("edo-package.zip", edo_package(
            (upd_name("a"), upd_xml(number="A-1", rows=ROWS[:1])),
            (upd_name("a") + ".sig", b"0\x82sig"))),
        "bomb": ("ON_NSCHFDOPPR_bomb.xml",
                 b'<?xml version="1.0"?><!DOCTYPE a [<!ENTITY b "c">]><a>&b;</a>'),
        "cut": ("ON_NSCHFDOPPR_cut.xml", upd_xml()[:-30]),
    }  # fmt: skip
    paths = {}
    for key, (name, data) in files.items():
        paths[key] = folder / name
        paths[key].write_bytes(data)
    return paths


def _run(settings: Settings, paths: list[Path], mode: str) -> DocBatchApp:
    app = DocBatchApp(settings)
    report = app.add(paths, mode=mode)
    asyncio.run(app.run([job.id for job in report.jobs]))
    return app


@pytest.mark.parametrize("mode", ["sync", "batch"])
def test_data_is_read_exactly_and_never_sent_to_claude(
    mode: str, claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    paths = _files(tmp_path / "in")
    settings = load_settings(
        data_dir=claude_settings.data_dir,
        ANTHROPIC_API_KEY="test-key",
        ANTHROPIC_BASE_URL=fake_anthropic.url,
        PROCESSING_MODE=mode,
        POLL_INTERVAL=0.2,
    )
    app = _run(settings, list(paths.values()), mode)
    try:
        jobs = {job.file_name: job for job in app.jobs()}
        assert fake_anthropic.requests == []  # not one request, count_tokens included
        assert {job.mode.value for job in jobs.values()} == {"data"}

        upd = jobs[paths["upd"].name]
        assert upd.state is JobState.DONE and upd.pages == 0 and upd.cost_actual_usd in (None, 0)
        (document,) = app.documents(upd.id)
        assert document.fields["number"] == "УТ-1042" and document.fields["amount"] == "5490.00"
        assert document.fields["seller_tax_id"] == "7707083893"
        assert set(document.confidence.values()) == {1.0}
        assert not document.needs_review, document.review_reasons  # INN, VAT by date agree
        # every line the XML states, checked against its totals (nothing to flag)
        assert [(line.no, line.qty, line.price, line.net) for line in document.lines] == [
            ("1", "10", "350.00", "3500.00"),
            ("2", "1", "1000.00", "1000.00"),
        ]
        assert document.lines[0].unit == "шт" and document.lines[0].extra["okei"] == "796"

        facturx = jobs[paths["facturx"].name]
        assert facturx.state is JobState.DONE, app.documents(facturx.id)[0].review_reasons
        (page,) = app.store.list_pages(facturx.id)  # the picture Review shows
        assert page.image_sha and page.ocr_engine is None
        (fx,) = app.documents(facturx.id)
        assert (fx.fields["number"], fx.fields["amount"], fx.fields["currency"]) == (
            "FX-2026-017", "297.50", "EUR",
        )  # fmt: skip

        edo = jobs[paths["edo"].name]
        assert [d.fields["number"] for d in app.documents(edo.id)] == ["A-1"]
        (signature,) = edo.attached
        assert signature["name"] == upd_name("a") + ".sig"
        assert app.blobs.read(signature["sha256"]) == b"0\x82sig"

        bomb, cut = jobs[paths["bomb"].name], jobs[paths["cut"].name]
        assert bomb.state is JobState.FAILED and "possible XML bomb" in (bomb.error or "")
        assert cut.state is JobState.FAILED and "not well-formed XML" in (cut.error or "")
        assert "\n" not in (bomb.error or "") + (cut.error or "")
    finally:
        app.close()


def test_jobs_and_documents_json_say_the_data_mode(tmp_path: Path) -> None:
    paths = _files(tmp_path / "in")
    data = tmp_path / "data"
    done = cli(data, "process", "--mode", "offline", "--wait", str(paths["upd"]), "--json")
    assert done.returncode == 0, done.stderr
    (job,) = json.loads(cli(data, "jobs", "--json").stdout)
    assert job["mode"] == "data" and job["state"] == "done" and job["attached"] == []
    (document,) = json.loads(cli(data, "documents", "--json").stdout)
    assert document["fields"]["buyer_kpp"] == "770401001"
    assert document["confidence"]["number"] == 1.0
    assert [line["net"] for line in document["lines"]] == ["3500.00", "1000.00"]
    assert cii_xml()  # the CII reader's own file is covered by tests/unit/test_edocs.py
