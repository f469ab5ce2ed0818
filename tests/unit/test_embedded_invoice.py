"""Intake tells a Factur-X / ZUGFeRD / XRechnung PDF from its bytes and never opens a
PDF with MuPDF in its own process: a hostile PDF can crash or hang only a child."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pymupdf
import pytest

from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.intake import intake_paths
from docbatch_gui.pipeline.edocs.embedded import has_embedded_invoice
from docbatch_gui.storage.blobs import LocalBlobStore
from docbatch_gui.storage.sqlite import SQLiteStore
from tests.edoc_files import facturx_pdf, invoice_page


def _attached(name: str, *, object_streams: bool = False) -> bytes:
    """A one-page PDF with ``name`` attached, written by pikepdf (another producer
    than MuPDF), its dictionaries in compressed object streams or not."""
    pdf = pikepdf.open(io.BytesIO(invoice_page()))
    spec = pikepdf.AttachedFileSpec(pdf, b"<Invoice/>", mime_type="text/xml")
    pdf.attachments[name] = spec
    out = io.BytesIO()
    mode = pikepdf.ObjectStreamMode.generate if object_streams else pikepdf.ObjectStreamMode.disable
    pdf.save(out, object_stream_mode=mode, compress_streams=True)
    return out.getvalue()


@pytest.mark.parametrize(
    ("data", "embedded"),
    [
        pytest.param(lambda: facturx_pdf(invoice_page()), True, id="factur-x library"),
        pytest.param(lambda: _attached("zugferd-invoice.xml"), True, id="pikepdf zugferd"),
        pytest.param(
            lambda: _attached("xrechnung.xml", object_streams=True), True, id="in an object stream"
        ),
        pytest.param(lambda: _attached("FACTUR-X.XML", object_streams=True), True, id="case"),
        pytest.param(lambda: _attached("notes.xml"), False, id="another attachment"),
        pytest.param(invoice_page, False, id="plain pdf"),
        pytest.param(
            lambda: b"%PDF-1.7\n1 0 obj\n<< /EF << >> /F (factur\\055x.xml) /Ty",
            True,
            id="cut short, the name still said",
        ),
        pytest.param(lambda: b"", False, id="empty"),
        pytest.param(lambda: b"%PDF-1.4\n" + b"\x00\xff" * 5000, False, id="garbage"),
    ],
)
def test_the_attachment_is_told_from_the_bytes(
    tmp_path: Path, data: object, embedded: bool
) -> None:
    path = tmp_path / "file.pdf"
    path.write_bytes(data())  # type: ignore[operator]
    assert has_embedded_invoice(path) is embedded


def test_the_name_in_utf16_or_hex_is_read() -> None:
    from docbatch_gui.pipeline.edocs.embedded import _strings

    utf16 = "(\xfe\xff".encode("latin-1") + "factur-x.xml".encode("utf-16-be") + b")"
    hexed = b"<" + b"xrechnung.xml".hex().encode() + b">"
    assert _strings(b"/EF " + utf16 + b" " + hexed) >= {"factur-x.xml", "xrechnung.xml"}
    assert _strings(rb"(zugferd\055invoice\056xml)") == {"zugferd-invoice.xml"}


def test_intake_never_opens_a_pdf_with_mupdf(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every PDF queues (a Factur-X one as data, the others to render), and none is
    opened by MuPDF in the intake process: a seam counts the opens."""
    opened: list[object] = []
    real = pymupdf.open

    def counted(*args: object, **kwargs: object) -> object:
        opened.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(pymupdf, "open", counted)
    files = {
        "facturx.pdf": facturx_pdf(invoice_page()),
        "plain.pdf": invoice_page(),
        "broken.pdf": b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Names << /EmbeddedFiles <<"
        b" /Kids [ 9 0 R ] >> >> >>\nendobj\ntrailer << /Root 1 0 R >>\n",
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    opened.clear()  # what building the files opened does not count
    store = SQLiteStore(tmp_path / "db.sqlite3")
    report = intake_paths(
        store, LocalBlobStore(tmp_path / "blobs"), [tmp_path / n for n in files], mode="sync"
    )
    store.close()
    assert opened == []
    modes = {job.file_name: (job.mode, job.state) for job in report.jobs}
    assert modes == {
        "facturx.pdf": ("data", JobState.QUEUED),
        "plain.pdf": ("sync", JobState.QUEUED),
        "broken.pdf": ("sync", JobState.QUEUED),  # the render child says what is wrong
    }
