from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docbatch_gui.domain.errors import UnsupportedInput
from docbatch_gui.pipeline.formats import check_file, sniff
from docbatch_gui.pipeline.render import MAX_LONG_EDGE, MAX_PIXELS, target_size
from docbatch_gui.sources.local import iter_files


@pytest.mark.parametrize(
    ("head", "kind"),
    [
        (b"%PDF-1.7\n", "pdf"),
        (b"\x00\x00junk%PDF-1.4", "pdf"),
        (b"II*\x00rest", "tiff"),
        (b"MM\x00*rest", "tiff"),
        (b"\xff\xd8\xff\xe0", "jpeg"),
        (b"\x89PNG\r\n\x1a\n", "png"),
        (b"hello", None),
    ],
)
def test_sniff(head: bytes, kind: str | None) -> None:
    assert sniff(head) == kind


def test_extension_and_content_must_agree(tmp_path: Path) -> None:
    png_named_pdf = tmp_path / "scan.pdf"
    png_named_pdf.write_bytes(b"\x89PNG\r\n\x1a\n" + b"0" * 100)
    with pytest.raises(UnsupportedInput, match="looks like png"):
        check_file(png_named_pdf, max_bytes=2**20)
    jpeg = tmp_path / "photo.JPG"
    jpeg.write_bytes(b"\xff\xd8\xff\xe0" + b"0" * 100)
    assert check_file(jpeg, max_bytes=2**20) == "jpeg"


def test_no_extension_is_named(tmp_path: Path) -> None:
    bare = tmp_path / "README"
    bare.write_text("x")
    with pytest.raises(UnsupportedInput, match="no extension"):
        check_file(bare, max_bytes=2**20)


@given(st.floats(1, 20_000), st.floats(1, 20_000))
def test_target_size_stays_within_the_api_limits(width: float, height: float) -> None:
    w, h = target_size(width, height)
    assert w * h <= MAX_PIXELS * 1.01
    assert max(w, h) <= MAX_LONG_EDGE
    # the aspect ratio holds to within a pixel of rounding on either edge
    assert abs(h - w * height / width) <= 1.5 or abs(w - h * width / height) <= 1.5


def test_a4_renders_at_about_902_by_1275() -> None:
    w, h = target_size(595, 842)
    assert (abs(w - 902) <= 2, abs(h - 1275) <= 2) == (True, True)


def test_iter_files_walks_folders_in_order_and_skips_hidden(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "2.pdf").write_bytes(b"x")
    (tmp_path / "a.pdf").write_bytes(b"x")
    (tmp_path / ".hidden.pdf").write_bytes(b"x")
    (tmp_path / "Thumbs.db").write_bytes(b"x")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "x.pdf").write_bytes(b"x")
    found = list(iter_files([tmp_path, tmp_path / "a.pdf"]))
    assert [(f.path.relative_to(tmp_path).as_posix(), f.explicit, f.problem) for f in found] == [
        ("a.pdf", False, None),
        ("b/2.pdf", False, None),
    ]


def test_a_kind_that_is_no_format_name_is_said_in_the_operators_language(tmp_path: Path) -> None:
    """A Word file renamed .pdf: the Russian sentence names its kind in Russian too."""
    docx_named_pdf = tmp_path / "letter.pdf"
    docx_named_pdf.write_bytes(b"PK\x03\x04" + b"0" * 100)
    with pytest.raises(UnsupportedInput) as raised:
        check_file(docx_named_pdf, max_bytes=2**20)
    assert "zip (an Office document or archive)" in raised.value.message.english
    russian = raised.value.message.words("ru")
    assert "по содержимому" in russian
    assert "Office document" not in russian and "archive" not in russian
