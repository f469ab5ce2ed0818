"""What intake's embedded-invoice check costs per PDF: the byte scan it does now
(``pipeline/edocs/embedded.py``) beside opening the PDF with PyMuPDF to list its
embedded files (what it did before), for a Factur-X PDF, a plain one, and a large
scanned-like PDF (many image pages) with object streams.

    .venv/bin/python bench/embedded_invoice.py [--pages 50]

Ends with one JSON line: milliseconds per file for each kind and way.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
import time
from pathlib import Path

import pikepdf
import pymupdf
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from docbatch_gui.pipeline.edocs.embedded import has_embedded_invoice
from tests.edoc_files import facturx_pdf, invoice_page


def _large(pages: int) -> bytes:
    """Pages with a noisy image each, saved with object streams (as scanners' software)."""
    document = pymupdf.open()
    for page in range(pages):
        noise = Image.effect_noise((900, 1270), 40 + page % 20).convert("L")
        buffer = io.BytesIO()
        noise.save(buffer, "JPEG", quality=60)
        document.new_page().insert_image(pymupdf.Rect(0, 0, 595, 842), stream=buffer.getvalue())
    pdf = pikepdf.open(io.BytesIO(document.tobytes()))
    out = io.BytesIO()
    pdf.save(out, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return out.getvalue()


def _mupdf(path: Path) -> bool:
    with pymupdf.open(path) as document:
        return bool(document.embfile_names())


def _ms(check: object, path: Path, rounds: int) -> float:
    check(path)  # type: ignore[operator]
    started = time.perf_counter()
    for _ in range(rounds):
        check(path)  # type: ignore[operator]
    return round((time.perf_counter() - started) / rounds * 1000, 3)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    files = {
        "facturx": facturx_pdf(invoice_page()),
        "plain": invoice_page(),
        f"scan_{args.pages}_pages": _large(args.pages),
    }
    result: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, data in files.items():
            path = Path(folder) / f"{name}.pdf"
            path.write_bytes(data)
            result[name] = {
                "bytes": len(data),
                "byte_scan_ms": _ms(has_embedded_invoice, path, args.rounds),
                "pymupdf_ms": _ms(_mupdf, path, args.rounds),
            }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
