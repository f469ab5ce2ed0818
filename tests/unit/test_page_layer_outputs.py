"""The text layer a rendered page stores (its text, words, words' blob, orientation and
image cover) stays byte for byte what it was when the render child's page path is
made quicker: a fingerprint of every sample page's layer, taken before the cut."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pymupdf
import pytest

from docbatch_gui.pipeline.page_layer import read_layer

SAMPLES = Path(__file__).resolve().parents[2] / "docbatch_gui" / "resources" / "samples"

#: taken with the text layer of commit 103a83b (PyMuPDF of the venv)
EXPECTED = {
    "en_invoice_INV-2024-0042.pdf": (
        "4eaf243a89714b0c8943ed3eca40e9f9ed0a820c1ac0d257d231ac127d8d79cf"
    ),
    "ru_three_documents.pdf": "2c3a60a162ff08c3d97b0a332611d0a8b1d5c8ff556d7aeceaf968c0d35726c4",
}


def fingerprint(path: Path) -> str:
    """Every page's layer as the render child reads it, hashed."""
    digest = hashlib.sha256()
    document = pymupdf.open(path)
    for page in document:
        layer = read_layer(page, page.get_displaylist())
        o = layer.orientation
        fields = (layer.text, layer.words, layer.words_blob, layer.cover)
        digest.update(repr((*fields, o.rotation, o.confidence, o.note, o.uncertain)).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_text_layer_of_each_sample_page_is_unchanged(name: str) -> None:
    assert fingerprint(SAMPLES / name) == EXPECTED[name]
