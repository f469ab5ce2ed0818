"""Offline extractor: the bundled samples, splitting rules, file names, null over wrong."""

from __future__ import annotations

import itertools
from pathlib import Path

import pymupdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docbatch_gui.config.profile import Profile, load_profile
from docbatch_gui.domain.models import Document
from docbatch_gui.pipeline.offline import PageText, extract_documents, parse_filename

REPO = Path(__file__).resolve().parents[2]
RESOURCES = REPO / "docbatch_gui" / "resources"
SAMPLES = RESOURCES / "samples"
FIELD_KEYS = {
    "number",
    "date",
    "amount",
    "currency",
    "vat_amount",
    "seller",
    "buyer",
    "seller_tax_id",
    "buyer_tax_id",
}


@pytest.fixture(scope="module")
def profile() -> Profile:
    return load_profile(RESOURCES / "profiles" / "default.json")


def _pages(path: Path) -> list[PageText]:
    with pymupdf.open(path) as doc:
        return [PageText(page.number + 1, page.get_text()) for page in doc]


def _extract(path: Path, profile: Profile) -> list[Document]:
    return extract_documents(7, path.name, _pages(path), profile)


def _assert_shape(doc: Document) -> None:
    assert set(doc.fields) == FIELD_KEYS
    assert set(doc.confidence) == FIELD_KEYS
    assert set(doc.filename_fields) == FIELD_KEYS | {"doc_type"}
    for key, value in doc.fields.items():
        score = doc.confidence[key]
        assert 0.0 <= score <= 1.0
        if value is None:
            assert score == 0.0
    assert doc.needs_review == bool(doc.review_reasons)


# -------------------------------------------------------------------- samples


def test_ru_three_documents_split_and_types(profile: Profile) -> None:
    docs = _extract(SAMPLES / "ru_three_documents.pdf", profile)
    assert [(d.doc_index, d.doc_type, d.page_from, d.page_to) for d in docs] == [
        (0, "invoice", 1, 1),
        (1, "act", 2, 2),
        (2, "contract", 3, 4),
    ]
    for doc in docs:
        _assert_shape(doc)
        assert doc.job_id == 7
        assert not doc.needs_review, doc.review_reasons


def test_ru_invoice_fields(profile: Profile) -> None:
    invoice = _extract(SAMPLES / "ru_three_documents.pdf", profile)[0]
    assert invoice.fields == {
        "number": "123",
        "date": "2024-03-12",
        "amount": "118000.00",
        "currency": "RUB",
        "vat_amount": "19666.67",
        "seller": "ООО «Ромашка»",
        "buyer": "АО «Вектор»",
        "seller_tax_id": "7701234560",
        "buyer_tax_id": "5003123458",
    }
    assert invoice.confidence["amount"] >= 0.9
    assert invoice.confidence["number"] >= 0.9


def test_ru_act_and_contract_fields(profile: Profile) -> None:
    _invoice, act, contract = _extract(SAMPLES / "ru_three_documents.pdf", profile)
    assert act.fields["number"] == "45"
    assert act.fields["date"] == "2024-03-15"
    assert act.fields["amount"] == "15000.00"
    assert act.fields["vat_amount"] == "2500.00"
    assert act.fields["seller"] == "ООО «Ромашка»"  # "Исполнитель:", not the signature line
    assert act.fields["buyer"] == "АО «Вектор»"
    assert contract.fields["number"] == "7-П"
    assert contract.fields["date"] == "2024-02-01"
    assert contract.fields["amount"] == "500000.00"
    # "в том числе НДС 20% 83" + next line "333,33": a wrapped number, not 83.00.
    assert contract.fields["vat_amount"] == "83333.33"
    assert contract.fields["seller"] == "ООО «Альфа-Снаб»"
    assert contract.fields["seller_tax_id"] == "7810987652"
    assert contract.fields["buyer_tax_id"] == "7701234560"


def test_en_invoice(profile: Profile) -> None:
    docs = _extract(SAMPLES / "en_invoice_INV-2024-0042.pdf", profile)
    assert len(docs) == 1
    doc = docs[0]
    _assert_shape(doc)
    assert (doc.doc_type, doc.page_from, doc.page_to) == ("invoice", 1, 1)
    assert doc.fields["number"] == "INV-2024-0042"
    assert doc.fields["date"] == "2024-03-05"  # the invoice date, not the due date
    assert doc.fields["amount"] == "1234.56"
    assert doc.fields["currency"] == "USD"
    assert doc.fields["seller"] == "Acme Widgets LLC"
    assert doc.fields["buyer"] == "Globex Corporation"
    assert doc.filename_fields["number"] == "INV-2024-0042"
    assert doc.filename_fields["doc_type"] == "invoice"
    assert not doc.needs_review, doc.review_reasons


def test_scanned_tiff_has_no_text_and_needs_review(profile: Profile) -> None:
    docs = _extract(SAMPLES / "scan_two_pages.tiff", profile)
    assert len(docs) == 1
    doc = docs[0]
    _assert_shape(doc)
    assert (doc.doc_type, doc.page_from, doc.page_to) == ("unknown", 1, 2)
    assert all(value is None for value in doc.fields.values())
    assert doc.needs_review
    assert "no text layer on pages 1-2 (scan): OCR needed" in doc.review_reasons
    assert "document type unknown" in doc.review_reasons


def test_samples_are_small() -> None:
    for name in ("ru_three_documents.pdf", "en_invoice_INV-2024-0042.pdf", "scan_two_pages.tiff"):
        assert (SAMPLES / name).stat().st_size < 200_000


# ------------------------------------------------------------------ splitting


INVOICE_PAGE = """Счет на оплату № 55 от 01.04.2024
Поставщик: ООО «Север», ИНН 7701234560
Покупатель: АО «Юг», ИНН 5003123458
Итого к оплате: 2 400,00 руб."""
CONTINUATION = """Договор вступает в силу с момента подписания и действует до 31.12.2024 г.
Стороны обязуются соблюдать условия настоящего договора и сроки его исполнения.
Реквизиты сторон приведены ниже."""


def test_page_without_title_continues_previous_document(profile: Profile) -> None:
    pages = [
        PageText(1, "ДОГОВОР ПОДРЯДА № 12\nг. Казань\n03.03.2024\nПредмет договора ..."),
        PageText(2, CONTINUATION),
        PageText(3, INVOICE_PAGE),
    ]
    docs = extract_documents(1, "batch.pdf", pages, profile)
    assert [(d.doc_type, d.page_from, d.page_to) for d in docs] == [
        ("contract", 1, 2),
        ("invoice", 3, 3),
    ]
    assert docs[0].fields["number"] == "12"
    assert docs[0].fields["date"] == "2024-03-03"
    assert docs[1].fields["amount"] == "2400.00"


def test_page_cue_overrides_repeated_header(profile: Profile) -> None:
    page1 = INVOICE_PAGE.replace("Итого к оплате: 2 400,00 руб.", "Страница 1 из 2")
    page2 = "Счет на оплату № 55 от 01.04.2024\nИтого к оплате: 2 400,00 руб.\nСтраница 2 из 2"
    page3 = "Товары по счету отгружены.\nСтраница 1 из 1"
    docs = extract_documents(
        1, "x.pdf", [PageText(1, page1), PageText(2, page2), PageText(3, page3)], profile
    )
    assert [(d.page_from, d.page_to) for d in docs] == [(1, 2), (3, 3)]
    assert docs[0].fields["amount"] == "2400.00"
    assert docs[1].doc_type == "unknown"


def test_scan_page_inside_document_attaches_and_flags(profile: Profile) -> None:
    pages = [PageText(1, INVOICE_PAGE), PageText(2, "  \n\x0c ")]
    docs = extract_documents(1, "x.pdf", pages, profile)
    assert len(docs) == 1
    assert (docs[0].doc_type, docs[0].page_from, docs[0].page_to) == ("invoice", 1, 2)
    assert docs[0].fields["number"] == "55"
    assert docs[0].review_reasons == ["no text layer on page 2 (scan): OCR needed"]


def test_leading_scan_pages_form_their_own_document(profile: Profile) -> None:
    pages = [PageText(1, ""), PageText(2, INVOICE_PAGE)]
    docs = extract_documents(1, "x.pdf", pages, profile)
    assert [(d.doc_type, d.page_from, d.page_to) for d in docs] == [
        ("unknown", 1, 1),
        ("invoice", 2, 2),
    ]
    assert docs[0].needs_review and not docs[1].needs_review


def test_no_pages_gives_no_documents(profile: Profile) -> None:
    assert extract_documents(1, "empty.pdf", [], profile) == []


# ------------------------------------------------------------------ null over wrong


def test_garbage_text_gives_nulls_not_guesses(profile: Profile) -> None:
    text = "Lorem ipsum dolor 42 sit amet, 17.5 consectetur\nqwerty 1234 zxcv 12,345\nфыва 99"
    docs = extract_documents(1, "scan0001.pdf", [PageText(1, text)], profile)
    assert len(docs) == 1
    doc = docs[0]
    assert doc.doc_type == "unknown"
    assert all(value is None for value in doc.fields.values())
    assert all(value is None for value in doc.filename_fields.values())
    assert doc.review_reasons == ["document type unknown"]


def test_invalid_inn_is_not_reported_as_read(profile: Profile) -> None:
    text = INVOICE_PAGE.replace("7701234560", "7701234561")
    doc = extract_documents(1, "x.pdf", [PageText(1, text)], profile)[0]
    assert doc.fields["seller_tax_id"] is None
    assert doc.fields["buyer_tax_id"] == "5003123458"
    assert "seller_tax_id: INN 7701234561 fails the checksum" in doc.review_reasons


def test_missing_required_amount_needs_review(profile: Profile) -> None:
    text = "Акт № 9 от 02.02.2024\nИсполнитель: ООО «Север»\nРаботы выполнены."
    doc = extract_documents(1, "x.pdf", [PageText(1, text)], profile)[0]
    assert doc.doc_type == "act"
    assert doc.fields["amount"] is None
    assert doc.review_reasons == ["amount not found"]


def test_conflicting_totals_lower_confidence(profile: Profile) -> None:
    text = "Счет № 1 от 01.02.2024\nИтого к оплате: 1 000,00\nВсего к оплате: 2 000,00"
    doc = extract_documents(1, "x.pdf", [PageText(1, text)], profile)[0]
    assert doc.fields["amount"] == "2000.00"
    assert doc.confidence["amount"] < profile.review_threshold
    assert doc.needs_review


def test_amount_label_and_value_in_separate_cells(profile: Profile) -> None:
    text = (
        "INVOICE\nInvoice No: 77\nDate: 12 March 2024\nTotal Due:\n€ 1.234,50\nVAT ID: DE123456789"
    )
    doc = extract_documents(1, "x.pdf", [PageText(1, text)], profile)[0]
    assert doc.fields["amount"] == "1234.50"
    assert doc.fields["currency"] == "EUR"
    assert doc.fields["date"] == "2024-03-12"


def test_filename_mismatch_is_a_review_reason(profile: Profile) -> None:
    doc = extract_documents(1, "Счет_56_от_01.04.2024.pdf", [PageText(1, INVOICE_PAGE)], profile)[0]
    assert doc.filename_fields["number"] == "56"
    assert "number differs from file name (55 vs 56)" in doc.review_reasons


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(max_size=300), min_size=1, max_size=5))
def test_any_text_gives_contiguous_documents(profile: Profile, texts: list[str]) -> None:
    pages = [PageText(i + 1, text) for i, text in enumerate(texts)]
    docs = extract_documents(1, "random.pdf", pages, profile)
    assert docs[0].page_from == 1 and docs[-1].page_to == len(texts)
    for before, after in itertools.pairwise(docs):
        assert after.page_from == before.page_to + 1
    for i, doc in enumerate(docs):
        assert doc.doc_index == i
        _assert_shape(doc)


# -------------------------------------------------------------------- file names


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "Счет_123_от_12.03.2024_118000.pdf",
            {"doc_type": "invoice", "number": "123", "date": "2024-03-12", "amount": "118000.00"},
        ),
        (
            "invoice-INV-2024-001 2024-03-12.pdf",
            {"doc_type": "invoice", "number": "INV-2024-001", "date": "2024-03-12"},
        ),
        ("act 45 12.03.24.pdf", {"doc_type": "act", "number": "45", "date": "2024-03-12"}),
        (
            "Договор №7-П от 01.02.2024.pdf",
            {"doc_type": "contract", "number": "7-П", "date": "2024-02-01"},
        ),
        (
            "УПД 318 20.03.2024 70000,00 руб.pdf",
            {
                "doc_type": "waybill",
                "number": "318",
                "date": "2024-03-20",
                "amount": "70000.00",
                "currency": "RUB",
            },
        ),
        ("ТОРГ-12 № 55.tiff", {"doc_type": "waybill", "number": "55"}),
        (
            "C:\\scans\\Счет_123_от_12.03.2024 (2).pdf",
            {"doc_type": "invoice", "number": "123", "date": "2024-03-12"},
        ),
        ("scan0001.pdf", {}),
        ("31.02.2024.pdf", {}),
        # a number alone is not a field: test files, part numbers, scanner counters
        ("test_4423.pdf", {}),
        ("6-2-10-t02.pdf", {}),
        ("IMG_20240312_0042.jpg", {}),
        # a scanner's time stamp is the day of the scan, not of the document
        ("scan 2024-03-12.pdf", {}),
        (
            "оплата 1500,00 руб 12.03.2024.pdf",
            {"date": "2024-03-12", "amount": "1500.00", "currency": "RUB"},
        ),
        ("from 12.03.24 copy.pdf", {"date": "2024-03-12"}),
    ],
)
def test_parse_filename(profile: Profile, name: str, expected: dict[str, str]) -> None:
    result = parse_filename(name, profile)
    assert set(result) == FIELD_KEYS | {"doc_type"}
    assert {k: v for k, v in result.items() if v is not None} == expected
