"""File-name hints count only in a recognised document pattern: scanner counters,
time stamps and copy numbers give nothing that could contradict the content."""

from __future__ import annotations

import pytest

from docbatch_gui.config.profile import Profile, load_profile
from docbatch_gui.pipeline.filename import parse_filename
from docbatch_gui.pipeline.offline import PageText, extract_documents


@pytest.fixture(scope="module")
def profile() -> Profile:
    return load_profile()


# name → the number, date and amount hints it gives (None: none)
NAMES: list[tuple[str, str | None, str | None, str | None]] = [
    # accounting programs and people: the document's own number and date
    ("УПД_789_от_20.05.2024.pdf", "789", "2024-05-20", None),
    ("Счет_123_от_12.03.2024_118000.pdf", "123", "2024-03-12", "118000.00"),
    ("Счет на оплату № 123 от 12 марта 2024 г..pdf", "123", "2024-03-12", None),  # 1C
    ("УПД № 45 от 20.05.2024.pdf", "45", "2024-05-20", None),
    ("Счет-фактура № 00000012 от 01.04.2024.pdf", "00000012", "2024-04-01", None),
    ("Счет-фактура_№_0042_от_15.01.2024.pdf", "0042", "2024-01-15", None),
    ("Акт № 7 от 31.03.2024.pdf", "7", "2024-03-31", None),
    ("ТОРГ-12 № 15 от 02.02.2024.pdf", "15", "2024-02-02", None),
    ("СФ 12 от 01.02.2024.pdf", "12", "2024-02-01", None),
    ("Договор поставки №7-П от 01.02.2024.pdf", "7-П", "2024-02-01", None),
    ("Счет_№_15_на_сумму_25000,00_руб.pdf", "15", None, "25000.00"),
    ("Invoice INV-2024-0042.pdf", "INV-2024-0042", None, None),
    ("invoice-INV-2024-001 2024-03-12.pdf", "INV-2024-001", "2024-03-12", None),
    ("Copy of Invoice #1043.pdf", "1043", None, None),
    ("act 45 12.03.24.pdf", "45", "2024-03-12", None),
    ("Реализация товаров и услуг 00ЦБ-000123 от 12.03.2024.pdf", None, "2024-03-12", None),
    # a document word with a counter, a copy number or nothing after it
    ("inv_000.pdf", None, None, None),
    ("inv_039.pdf", None, None, None),
    ("invoice (2).pdf", None, None, None),
    ("Счет (1).pdf", None, None, None),
    ("Invoice_12345.pdf", None, None, None),
    ("invoice v2.pdf", None, None, None),
    ("Акт_45.pdf", None, None, None),
    ("ТОРГ-12.pdf", None, None, None),
    ("Акт сверки взаимных расчетов за 1 квартал 2024.pdf", None, None, None),
    ("Invoice-2024-03-12.pdf", None, "2024-03-12", None),
    # scanners, phones and exports: counters and time stamps
    ("scan_001.pdf", None, None, None),
    ("IMG_2024.jpg", None, None, None),
    ("Scan_20240312_0001.pdf", None, None, None),
    ("DOC001.pdf", None, None, None),
    ("20240312_153012.jpg", None, None, None),
    ("SCAN0001.PDF", None, None, None),  # Canon
    ("Xerox Scan_03122024094512.pdf", None, None, None),
    ("HP Scan 2024-03-12 09-45-12.pdf", None, None, None),
    ("Scan_20240312 (2).pdf", None, None, None),  # HP Smart
    ("doc00123420240312094512.pdf", None, None, None),  # Kyocera
    ("img-240312094512-0001.pdf", None, None, None),  # Brother
    ("SKMBT_C22424031209450.pdf", None, None, None),  # Konica Minolta
    ("img20240312_09451234.pdf", None, None, None),  # Epson
    ("WhatsApp Image 2024-03-12 at 15.30.12.jpeg", None, None, None),
    ("Screenshot 2024-03-12 at 15.30.12.png", None, None, None),
    ("scan 2024-03-12.pdf", None, None, None),
]


@pytest.mark.parametrize(("name", "number", "day", "amount"), NAMES)
def test_file_name_hints(
    profile: Profile, name: str, number: str | None, day: str | None, amount: str | None
) -> None:
    hints = parse_filename(name, profile)
    assert (hints["number"], hints["date"], hints["amount"]) == (number, day, amount)


def test_the_table_is_large() -> None:
    assert len(NAMES) >= 25


INVOICE = (
    "Счет на оплату № 17 от 12 марта 2024 г.\n"
    "Поставщик: ПАО Сбербанк, ИНН 7707083893\n"
    "Покупатель: ООО «Яндекс», ИНН 7736207543\n"
    "Итого к оплате: 118 000,00 руб.\n"
)


@pytest.mark.parametrize("name", ["inv_000.pdf", "invoice (2).pdf", "Scan_20240312_0001.pdf"])
def test_a_counter_in_the_name_never_contradicts_the_content(profile: Profile, name: str) -> None:
    (doc,) = extract_documents(1, name, [PageText(1, INVOICE)], profile)
    assert doc.fields["number"] == "17"
    assert not any(c.code == "filename_mismatch" for c in doc.review_codes), doc.review_reasons


def test_a_document_pattern_still_cross_checks(profile: Profile) -> None:
    (doc,) = extract_documents(1, "Счет_18_от_12.03.2024.pdf", [PageText(1, INVOICE)], profile)
    assert [(c.code, c.field) for c in doc.review_codes] == [("filename_mismatch", "number")]
