"""The offline reader is never confidently wrong: the OCR's own doubt, cross-checks
between values, and totals the OCR cut short (issue 30)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbatch_gui.config.profile import Profile, load_profile
from docbatch_gui.domain.models import Page
from docbatch_gui.pipeline.amounts import extract_amounts
from docbatch_gui.pipeline.cross_checks import total_fits
from docbatch_gui.pipeline.fields import extract_fields
from docbatch_gui.pipeline.ocr_doubt import capped, word_confidence
from docbatch_gui.pipeline.offline import PageText, extract_documents
from docbatch_gui.pipeline.offline_run import offline_pages
from docbatch_gui.pipeline.textutil import split_lines
from docbatch_gui.pipeline.words import decode, decode_confidences, encode, from_tesseract_tsv

REPO = Path(__file__).resolve().parents[2]
THRESHOLD = 0.6


@pytest.fixture(scope="module")
def profile() -> Profile:
    return load_profile(REPO / "docbatch_gui" / "resources" / "profiles" / "default.json")


def _codes(notes: object) -> set[tuple[str, str | None]]:
    return {(n.code, n.field) for n in notes}  # type: ignore[attr-defined]


# ------------------------------------------------------------- the OCR's own doubt


def test_tesseract_words_keep_their_confidence_through_the_blob() -> None:
    tsv = (
        "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight"
        "\tconf\ttext\n"
        "5\t1\t1\t1\t1\t1\t100\t200\t300\t50\t96.5\tИтого\n"
        "5\t1\t1\t1\t1\t2\t450\t200\t50\t50\t91\t \n"
        "5\t1\t1\t1\t1\t3\t500\t200\t100\t50\t47.6\t112.46\n"
    )
    words = from_tesseract_tsv(tsv, 1000, 2000)
    assert [w[0] for w in words] == ["Итого", "112.46"]
    assert words.confidences == [96, 48]
    blob = encode(words, words.confidences)
    assert decode(blob) == list(words) and decode_confidences(blob) == [96, 48]
    assert decode_confidences(encode(words)) == []  # a text layer's words: none


def test_the_words_of_a_value_are_found_back_across_a_thousands_space() -> None:
    words = [("Итого:", 97), ("588", 97), ("618,54", 52), ("Дата", 90), ("22/12/2017", 73)]
    assert word_confidence("amount", "588618.54", words) == 52
    assert word_confidence("date", "2017-12-22", words) == 73
    assert word_confidence("amount", "1.00", words) is None
    # printed twice, doubted once: the doubt counts
    assert word_confidence("amount", "588618.54", [*words, ("588618,54", 95)]) == 52


def test_digits_the_ocr_doubted_go_under_the_threshold() -> None:
    assert capped(0.9, 47) < THRESHOLD
    assert capped(0.9, 80) < THRESHOLD  # a receipt date misread at 80
    assert capped(0.95, 88) == 0.88  # capped by the OCR's own confidence
    assert capped(0.55, 96) == 0.55  # never raised


def test_a_scanned_total_read_from_doubtful_words_is_low_with_the_reason(
    profile: Profile,
) -> None:
    text = "Счет на оплату № 17 от 12.03.2024\nИтого к оплате: 112.46 руб."
    words = (("Счет", 95), ("№", 90), ("17", 96), ("12.03.2024", 94), ("112.46", 47))
    page = PageText(1, text, "tesseract", ocr_words=words)
    (doc,) = extract_documents(1, "scan.pdf", [page], profile)
    assert doc.fields["amount"] == "112.46" and doc.confidence["amount"] < THRESHOLD
    assert ("ocr_unsure", "amount") in _codes(doc.review_codes)
    assert doc.confidence["number"] >= THRESHOLD  # its words were read surely
    assert ("ocr_unsure", "number") not in _codes(doc.review_codes)
    (sure,) = extract_documents(1, "scan.pdf", [PageText(1, text, "tesseract")], profile)
    assert sure.confidence["amount"] > THRESHOLD  # without the OCR's words: as before


def test_offline_pages_read_the_ocr_confidences_of_a_scan() -> None:
    blobs = {"ocr": encode([("112.46", 0.1, 0.1, 0.2, 0.2)], [47]), "old": encode([])}
    pages = [
        Page(1, 1, 100, 100, text="112.46", ocr_engine="tesseract", words_sha="ocr"),
        Page(1, 2, 100, 100, text="x", ocr_engine="tesseract", words_sha="gone"),
    ]

    def read(sha: str) -> bytes:
        return blobs[sha]  # "gone" raises KeyError: a missing blob is never an error

    first, second = offline_pages(pages, read)
    assert first.ocr_words == (("112.46", 47),) and first.words is None
    assert second.ocr_words is None


# ------------------------------------------------------------------- cross-checks


def test_a_total_that_is_not_net_plus_vat_is_doubted(profile: Profile) -> None:
    lines = ["Invoice No 5 dated 12.03.2024", "Subtotal 100.00", "VAT 20.00", "Total due 125.00"]
    result = extract_fields(lines, [0], profile)
    assert result.values["amount"] == "125.00" and result.confidence["amount"] < THRESHOLD
    assert ("total_not_sum", "amount") in _codes(result.notes)
    fits = extract_fields([*lines[:3], "Total due 120.00"], [0], profile)
    assert fits.confidence["amount"] >= THRESHOLD and not fits.notes


def test_total_fits_rounding_and_vat_included() -> None:
    from decimal import Decimal as D

    assert total_fits(D("120.01"), D("100.00"), D("20.00"))
    assert total_fits(D("118.00"), D("118.00"), D("18.00"))  # the subtotal is the total
    assert not total_fits(D("112.46"), D("100.00"), D("12.40"))


def test_a_date_far_from_the_other_dates_is_doubted(profile: Profile) -> None:
    lines = [
        "Invoice No 5 dated 12.03.2011",
        "Delivery date 10.03.2024",
        "Due date 12.04.2024",
        "Total due 120.00",
    ]
    result = extract_fields(lines, [0], profile)
    assert result.values["date"] == "2011-03-12" and result.confidence["date"] < THRESHOLD
    assert ("date_far", "date") in _codes(result.notes)
    near = extract_fields(["Invoice No 5 dated 12.03.2024", *lines[1:]], [0], profile)
    assert near.confidence["date"] >= THRESHOLD and ("date_far", "date") not in _codes(near.notes)
    # one other date (the contract of years ago) proves nothing
    contract = extract_fields(
        ["Invoice No 5 dated 12.03.2024", "Contract 01.01.2019"], [0], profile
    )
    assert ("date_far", "date") not in _codes(contract.notes)


def test_the_same_label_read_twice_differently_is_low_with_the_reason(profile: Profile) -> None:
    lines = ["Счет на оплату № 17 от 12.03.2024", "Номер: 18", "Итого к оплате: 100,00"]
    result = extract_fields(lines, [0], profile)
    assert result.confidence["number"] < THRESHOLD
    assert ("read_differently", "number") in _codes(result.notes)


# ------------------------------------------- totals the OCR cut short (ru_scans)


@pytest.mark.parametrize(
    ("lines", "total"),
    [
        (["Итого: 588 618,54", "В том числе НДС 20%: 98 103,09", "Итого к оплате: 588 618"],
         "588618.54"),
        (["Итого: 94 559,47", "В том числе НДС 20%", "Итого к оплате:/9"], "94559.47"),
        (["Итого: 259 545,11", "Итого к оплате: 2 945,11"], "259545.11"),
        (["Итого: 444 203,74", "Итого к оплате: 444"], "444203.74"),
    ],
)  # fmt: skip
def test_a_strong_total_cut_short_gives_way_to_the_whole_reading(
    profile: Profile, lines: list[str], total: str
) -> None:
    found = extract_amounts(lines, profile)
    assert found.total == total and found.total_confidence < THRESHOLD
    assert found.total_other is not None


def test_a_smaller_strong_total_printed_whole_stays(profile: Profile) -> None:
    """ "Итого: 1 200,00" over "Итого к оплате: 1 000,00" (an advance paid): the strong
    label's amount has all its digits, so it stays, doubted."""
    found = extract_amounts(["Итого: 1 200,00", "Итого к оплате: 1 000,00"], profile)
    assert found.total == "1000.00" and found.total_confidence < THRESHOLD


def test_ru_grouped_amounts_parse_whole(profile: Profile) -> None:
    """Thousands grouped by a space, a narrow or a no-break one, as the reader's lines
    (``split_lines``) give them."""
    for text, value in [
        ("Итого к оплате: 588 618,54", "588618.54"),
        ("Итого к оплате: 588\u202f618,54", "588618.54"),
        ("Итого к оплате: 588\u00a0618,54 руб.", "588618.54"),
        ("Итого к оплате: 94 559.47", "94559.47"),
    ]:
        assert extract_amounts(split_lines(text), profile).total == value, text
