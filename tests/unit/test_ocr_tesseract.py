"""Tesseract on real rendered pages: rotation detected and undone, text read.

The page is an A4 Russian invoice with one English line, rendered the way
``render.py`` renders pages (grayscale, ~1.15 MP, i.e. ~108 dpi for A4, a harder input
than a 150 dpi scan) and JPEG-encoded, so the test sees what the engine sees in use.
It runs only where Tesseract with rus+eng data is installed (CI installs it).
"""

from __future__ import annotations

import io
import os

import pytest

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.pipeline.ocr import rotate_jpeg
from docbatch_gui.pipeline.ocr_tesseract import (
    tesseract_available,
    tesseract_languages,
    tesseract_page,
)
from docbatch_gui.pipeline.render import target_size

pytestmark = pytest.mark.skipif(
    not tesseract_available(),
    reason="Tesseract with rus+eng data is not installed "
    "(apt-get install tesseract-ocr tesseract-ocr-rus tesseract-ocr-eng tesseract-ocr-osd)",
)

A4 = (595, 842)
INVOICE_HTML = """
<div style="font-family: sans-serif; font-size: 11pt">
<p style="font-size: 16pt"><b>Счет на оплату № 318 от 20.03.2024 г.</b></p>
<p>Поставщик: ООО «Ромашка», ИНН 7701234567, КПП 770101001</p>
<p>Покупатель: АО «Василек», ИНН 7809876543</p>
<table border="1" cellspacing="0" cellpadding="3">
<tr><th>№</th><th>Товары (работы, услуги)</th><th>Кол-во</th><th>Цена</th><th>Сумма</th></tr>
<tr><td>1</td><td>Консультационные услуги за март 2024 г.</td><td>1</td>
<td>70 000,00</td><td>70 000,00</td></tr>
</table>
<p>Итого: 70 000,00</p>
<p>В том числе НДС: без НДС</p>
<p><b>Итого к оплате: 70 000,00 руб.</b></p>
<p>Всего наименований 1, на сумму 70 000,00 руб. Семьдесят тысяч рублей 00 копеек.</p>
<p>Payment reference: invoice 318, please quote this number with your transfer.</p>
<p>Руководитель ____________ Иванов И.И.</p>
</div>
"""


def _render(html: str | None) -> bytes:
    """One A4 page as the pipeline stores it: grayscale JPEG within the size limits."""
    import pymupdf
    from PIL import Image

    document = pymupdf.open()
    page = document.new_page(width=A4[0], height=A4[1])
    if html:
        page.insert_htmlbox(pymupdf.Rect(50, 50, A4[0] - 50, A4[1] - 50), html)
    width, height = target_size(*A4)
    matrix = pymupdf.Matrix(width / A4[0], height / A4[1])
    pixmap = page.get_pixmap(matrix=matrix, colorspace=pymupdf.csGRAY, alpha=False)
    image = Image.frombuffer(
        "L", (pixmap.width, pixmap.height), pixmap.samples, "raw", "L", pixmap.stride, 1
    )
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=80)
    document.close()
    return buffer.getvalue()


@pytest.fixture(scope="module")
def invoice() -> bytes:
    return _render(INVOICE_HTML)


def _assert_invoice_text(text: str) -> None:
    assert "318" in text
    assert "Итого к оплате" in text
    assert "70 000,00" in text
    assert "Payment reference" in text


def test_installed_languages() -> None:
    assert {"rus", "eng"} <= set(tesseract_languages())


@pytest.mark.slow
def test_upright_page(invoice: bytes) -> None:
    result = tesseract_page(invoice, 1)
    assert result.error is None
    assert (result.page_no, result.engine, result.rotation) == (1, "tesseract", 0)
    assert result.rotation_confidence > 0.5
    _assert_invoice_text(result.text)


@pytest.mark.slow
@pytest.mark.parametrize("turned_clockwise", [90, 180, 270])
def test_turned_page_is_detected_and_read(invoice: bytes, turned_clockwise: int) -> None:
    """``rotation`` is the clockwise turn that undoes the scan's: turning the image by
    it with the pipeline's own ``rotate_jpeg`` gives back the upright page."""
    turned = rotate_jpeg(invoice, turned_clockwise)
    result = tesseract_page(turned, 2)
    assert result.error is None
    assert result.rotation == (360 - turned_clockwise) % 360
    assert result.rotation_confidence > 0
    _assert_invoice_text(result.text)
    upright_again = tesseract_page(rotate_jpeg(turned, result.rotation), 2)
    assert upright_again.rotation == 0


@pytest.mark.slow
def test_blank_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """OSD refuses a page without text; the page is still a result, not an error."""
    monkeypatch.delenv("OMP_THREAD_LIMIT", raising=False)
    result = tesseract_page(_render(None), 3)
    assert result.error is None
    assert len(result.text.strip()) < 5
    assert (result.rotation, result.rotation_confidence) == (0, 0.0)
    assert "OMP_THREAD_LIMIT" not in os.environ  # set only for Tesseract's own process


def test_timeout_fails_only_the_page(invoice: bytes) -> None:
    result = tesseract_page(invoice, 4, timeout=0.01)
    assert result.text == ""
    assert result.error is not None and "longer than" in result.error.english


def test_unreadable_image_fails_only_the_page() -> None:
    result = tesseract_page(b"not a jpeg", 5)
    assert result.error is not None and "cannot be read" in result.error.english


def test_missing_binary_is_a_config_error(invoice: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    import pytesseract

    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/tesseract")
    with pytest.raises(ConfigError, match="apt-get install tesseract-ocr"):
        tesseract_page(invoice, 1)


def test_missing_language_is_a_config_error(invoice: bytes) -> None:
    with pytest.raises(ConfigError, match="tesseract-ocr-xyz"):
        tesseract_page(invoice, 1, languages="rus+xyz")


@pytest.mark.slow
def test_tesseract_error_fails_only_the_page(invoice: bytes) -> None:
    """A Tesseract failure while reading (here: an invalid option) is this page's error."""
    from docbatch_gui.pipeline import ocr_tesseract

    original = ocr_tesseract.read_text_and_words

    def broken(image: object, languages: str, config: str, timeout: float) -> object:
        return original(image, languages, "--psm 99", timeout)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ocr_tesseract, "read_text_and_words", broken)
        result = ocr_tesseract.tesseract_page(invoice, 6)
    assert result.error is not None and "Tesseract failed" in result.error.english


@pytest.mark.parametrize(
    ("report", "expected"),
    [
        # upside down with a clear margin: turned
        ("Rotate: 180\nOrientation confidence: 9.5\nScript: Latin\n", (180, 1.0, False)),
        ("Rotate: 180\nOrientation confidence: 9.5\nScript: Arabic\n", (0, 0.0, True)),
        # upside down on weak evidence (what OSD said of upright corpus pages): kept
        ("Rotate: 180\nOrientation confidence: 0.7\n", (0, 0.0, True)),
        ("Rotate: 180\nOrientation confidence: 0.05\n", (0, 0.0, True)),
        # sideways stays trusted at a low score (blurred sideways photos are right)
        ("Rotate: 90\nOrientation confidence: 0.5\n", (90, 0.1, False)),
        ("Rotate: 270\nOrientation confidence: 0.1\n", (0, 0.0, True)),
        ("Rotate: 0\nOrientation confidence: 12\n", (0, 1.0, False)),
        ("Warning. Invalid resolution 0 dpi.\n", (0, 0.0, False)),
    ],
)
def test_osd_answers_are_decided_with_a_margin(
    monkeypatch: pytest.MonkeyPatch, report: str, expected: tuple[int, float, bool]
) -> None:
    import pytesseract
    from PIL import Image

    from docbatch_gui.pipeline import ocr_osd

    asked: list[str] = []

    def osd(*args: object, config: str, **kwargs: object) -> str:
        asked.append(config)
        return report

    monkeypatch.setattr(pytesseract, "image_to_osd", osd)
    orientation = ocr_osd.orientation_of(
        Image.new("L", (10, 10)), 300, 5, scripts=frozenset({"Latin", "Cyrillic"})
    )
    assert (orientation.rotation, orientation.confidence, orientation.uncertain) == expected
    assert orientation.note.english.startswith("OSD at 300 dpi: ")
    assert asked and all(c.startswith("--psm 0 --dpi 300") for c in asked)  # told the dpi


@pytest.mark.parametrize(
    ("first", "full", "expected"),
    [
        # a clear first vote is decided on: OSD is not asked again
        ("Rotate: 90\nOrientation confidence: 9.5\n", None, (90, "9.5", 1)),
        ("Rotate: 0\nOrientation confidence: 6.0\n", None, (0, "6.0", 1)),
        # a weak one is asked again with every letter, and that answer decides
        ("Rotate: 180\nOrientation confidence: 3.0\n", "Rotate: 180\nOrientation confidence: 7.0\n",
         (180, "7.0", 2)),
        ("Rotate: 0\nOrientation confidence: 2.0\n", "Rotate: 180\nOrientation confidence: 4.0\n",
         (0, "4.0", 2)),
        # a refusal on half the letters is asked again too
        (None, "Rotate: 270\nOrientation confidence: 12.0\n", (270, "12.0", 2)),
    ],
)  # fmt: skip
def test_osd_decides_on_a_clear_first_vote_and_asks_again_on_a_weak_one(
    monkeypatch: pytest.MonkeyPatch,
    first: str | None,
    full: str | None,
    expected: tuple[int, str, int],
) -> None:
    import pytesseract
    from PIL import Image

    from docbatch_gui.pipeline import ocr_osd

    asked: list[str] = []

    def osd(*args: object, config: str, **kwargs: object) -> str:
        asked.append(config)
        report = first if "min_characters_to_try=25" in config else full
        if report is None:
            raise pytesseract.TesseractError(1, "Too few characters. Skipping this page")
        return report

    monkeypatch.setattr(pytesseract, "image_to_osd", osd)
    orientation = ocr_osd.orientation_of(Image.new("L", (10, 10)), 200, 5)
    rotation, score, calls = expected
    assert orientation.rotation == rotation
    assert f"score {score}" in orientation.note.english, orientation.note.english
    assert len(asked) == calls
    assert "min_characters_to_try=25" in asked[0]  # the first vote: half the letters
    assert all("min_characters_to_try" not in c for c in asked[1:])  # then all of them


@pytest.mark.parametrize(
    ("size", "dpi", "expected"),
    [
        ((2480, 3508), 300, ((827, 1170), 100)),  # A4 at 300 dpi: a third
        ((1653, 2339), 200, ((827, 1170), 100)),  # the peer bench's 200 dpi scans: half
        ((1240, 1754), 150, ((1240, 1754), 150)),  # under twice SKEW_DPI: as it is
        ((2480, 3508), None, ((827, 1170), None)),  # no resolution: by the long edge
        ((900, 1200), None, ((900, 1200), None)),
    ],
)
def test_the_skew_is_measured_on_a_copy_at_about_100_dpi(
    size: tuple[int, int], dpi: int | None, expected: tuple[tuple[int, int], int | None]
) -> None:
    from PIL import Image

    from docbatch_gui.pipeline.ocr_tesseract import _for_skew

    image, told = _for_skew(Image.new("L", size, 255), dpi)
    assert (image.size, told) == expected


def test_a_cached_reading_without_orientation_evidence_is_read_again() -> None:
    """Readings made on the small image (before OSD read at 300 dpi) carry no note."""
    from docbatch_gui.domain.models import OcrRecord
    from docbatch_gui.engine.plugins import ocr_reader

    def trusted(record: OcrRecord) -> bool:
        return ocr_reader(record.engine).trusts(record)

    assert not trusted(OcrRecord("s", 1, "tesseract", "garbage", 180, 0.14))
    assert not trusted(OcrRecord("s", 1, "tesseract", "text", 0, 1.0))
    assert trusted(OcrRecord("s", 1, "tesseract", "text", 180, 1.0, "OSD at 300 dpi: 180°"))
    assert trusted(OcrRecord("s", 1, "google_vision", "text", 180, 0.1))


def test_a_small_image_is_enlarged_and_given_a_resolution(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """img2pdf's 115×48 "TEST" inputs read as nothing at their own size with no
    stated resolution; enlarged and told 300 dpi they read (bench/corpus.py)."""
    import pytesseract
    from PIL import Image

    from docbatch_gui.pipeline import ocr_tesseract

    seen: list[tuple[tuple[int, int], str]] = []

    def read(image: Image.Image, lang: str, config: str, timeout: float) -> tuple[str, list, str]:
        seen.append((image.size, config))
        return "TEST", [], ""

    def no_osd(*args: object, **kwargs: object) -> str:
        raise AssertionError("OSD is not asked about a label")

    monkeypatch.setattr(ocr_tesseract, "read_text_and_words", read)
    monkeypatch.setattr(pytesseract, "image_to_osd", no_osd)
    buffer = io.BytesIO()
    Image.new("L", (115, 48), 255).save(buffer, "PNG")
    result = tesseract_page(buffer.getvalue(), 1)
    assert result.text == "TEST" and result.rotation == 0
    ((size, config),) = seen
    assert size == (115 * 4, 48 * 4) and "--dpi 300" in config


def _three_lines(turned_clockwise: int) -> object:
    """A clean three-line page at 300 dpi, as a scanner gives it, turned: OSD answers
    its right orientation with a score of about 2.5, under its margin for 180°."""
    import pymupdf
    from PIL import Image

    document = pymupdf.open()
    page = document.new_page(width=A4[0], height=A4[1])
    lines = ["Invoice 4521 from ACME Trading Ltd", "Total amount due: 1,250.00 EUR"]
    for row, line in enumerate([*lines, "Please pay within thirty days"]):
        page.insert_text((72, 100 + 24 * row), line, fontsize=14)
    pixmap = page.get_pixmap(dpi=300, colorspace=pymupdf.csGRAY)
    image = Image.frombytes("L", (pixmap.width, pixmap.height), pixmap.samples)
    return image.rotate(-turned_clockwise, expand=True)  # PIL turns counter-clockwise


@pytest.mark.slow
def test_a_clean_short_page_scanned_upside_down_comes_out_upright() -> None:
    """OSD's weak 180° is checked by reading the page both ways: upright reads
    clearly better, so the page is turned, not kept upside down for review."""
    result = tesseract_page(_three_lines(180), 1, dpi=300)
    assert (result.rotation, result.orientation_uncertain) == (180, False), result
    assert "read at 2 angles" in result.orientation_note.english
    assert "Total amount due" in result.text


@pytest.mark.slow
def test_a_clean_short_upright_page_is_left_upright() -> None:
    result = tesseract_page(_three_lines(0), 1, dpi=300)
    assert (result.rotation, result.orientation_uncertain) == (0, False), result
    assert "Invoice 4521" in result.text


@pytest.mark.slow
def test_a_skewed_scan_is_measured_and_straightened_before_reading() -> None:
    import pymupdf
    from PIL import Image

    from docbatch_gui.pipeline.ocr_tesseract import _straightened, measured_skew

    document = pymupdf.open()
    page = document.new_page(width=A4[0], height=A4[1])
    page.insert_htmlbox(pymupdf.Rect(50, 50, A4[0] - 50, A4[1] - 50), INVOICE_HTML)
    pixmap = page.get_pixmap(dpi=300, colorspace=pymupdf.csGRAY)
    upright = Image.frombytes("L", (pixmap.width, pixmap.height), pixmap.samples)
    skewed = upright.rotate(2.0, fillcolor=255)  # fed 2° askew, counter-clockwise
    skew = measured_skew(skewed, 300, 60)
    assert 1.5 < skew < 2.5
    assert abs(measured_skew(_straightened(skewed, skew), 300, 60)) < 0.3
    result = tesseract_page(skewed, 1, dpi=300)
    assert result.skew == skew
    _assert_invoice_text(result.text)
