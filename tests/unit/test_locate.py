"""Extracted values found among a page's words, in every way they are written, and
values found nowhere flagged for review."""

from __future__ import annotations

import pytest

from docbatch_gui.checks.locate import (
    NOT_ON_PAGE_CONFIDENCE,
    PageWords,
    find,
    find_amount,
    find_date,
    find_name,
    find_number,
    find_tax_id,
    located,
)
from docbatch_gui.config.profile import Profile, load_profile
from docbatch_gui.domain.models import Document
from docbatch_gui.pipeline.words import Word

PROFILE: Profile = load_profile()


def page(*lines: str) -> PageWords:
    """Words set left to right, one line of text per line of the page."""
    out: list[Word] = []
    for row, line in enumerate(lines):
        x = 0.05
        for token in line.split(" "):
            width = 0.012 * len(token)
            top = round(0.05 + row * 0.03, 4)
            out.append((token, round(x, 4), top, round(x + width, 4), round(top + 0.02, 4)))
            x += width + 0.01
    return PageWords(out)


def box_of(page: PageWords, *tokens: str) -> tuple[float, float, float, float]:
    """The union box of the consecutive words ``tokens``."""
    texts = [w[0] for w in page.words]
    for start in range(len(texts)):
        if texts[start : start + len(tokens)] == list(tokens):
            chosen = page.words[start : start + len(tokens)]
            return (
                min(w[1] for w in chosen),
                min(w[2] for w in chosen),
                max(w[3] for w in chosen),
                max(w[4] for w in chosen),
            )
    raise AssertionError(f"{tokens} not on the page")


@pytest.mark.parametrize(
    ("line", "tokens"),
    [
        ("Итого: 118 000,00", ("118", "000,00")),
        ("Итого: 118000.00 руб", ("118000.00", "руб")),
        ("Всего 118 000 руб. 00 коп.", ("118", "000", "руб.", "00", "коп.")),
        ("Total: 118,000.00", ("118,000.00",)),
        ("Total $118,000.00 due", ("$118,000.00",)),
        ("Сумма 118\u00a0000,00;", ("118\u00a0000,00;",)),
        ("Итого 118 000", ("118", "000")),
        ("Возврат (118 000,00)", ("(118", "000,00)")),
    ],
)
def test_an_amount_in_every_written_form(line: str, tokens: tuple[str, ...]) -> None:
    words = page("Счёт № 5", line)
    assert find_amount("118000.00", words) == box_of(words, *tokens)


def test_an_amount_is_not_found_inside_a_larger_one() -> None:
    assert find_amount("1000.00", page("Итого 1 000 000,00")) is None
    assert find_amount("200.00", page("Итого 1 200,00")) is None
    words = page("Итого 1 200,00", "Скидка 200,00")
    assert find_amount("200.00", words) == box_of(
        PageWords(words.words[3:]), "200,00"
    )  # the second line


@pytest.mark.parametrize(
    ("line", "tokens"),
    [
        ("Счёт № 5 от 12.03.2024", ("12.03.2024",)),
        ("Счёт № 5 от 12 марта 2024 г.", ("12", "марта", "2024")),
        ("от «12» марта 2024 г.", ("«12»", "марта", "2024")),
        ("Invoice Date: March 12, 2024", ("March", "12,", "2024")),
        ("Date 12th March 2024", ("12th", "March", "2024")),
        ("Дата: 2024-03-12", ("2024-03-12",)),
    ],
)
def test_a_date_in_every_written_form(line: str, tokens: tuple[str, ...]) -> None:
    words = page("Поставщик ООО «Ромашка»", line)
    assert find_date("2024-03-12", words) == box_of(words, *tokens)


def test_another_date_is_not_the_date() -> None:
    assert find_date("2024-03-12", page("от 13.03.2024", "срок 12.04.2024")) is None


def test_a_number_with_its_mark() -> None:
    words = page("Счёт на оплату № 2024-1000 от 12.03.2024")
    assert find_number("№ 2024-1000", words) == box_of(words, "2024-1000")
    assert find_number("2024-1000", page("Счёт №2024-1000")) is not None
    spaced = page("Invoice No. 2024 - 1000")
    assert find_number("2024-1000", spaced) == box_of(spaced, "2024", "-", "1000")
    invoice = page("Invoice No.: INV-2024-0042")
    assert find_number("INV-2024-0042", invoice) == box_of(invoice, "INV-2024-0042")


def test_a_short_number_prefers_the_one_after_its_mark() -> None:
    words = page("Кол-во 45 шт", "Акт № 45 от 15.03.2024")
    assert find_number("45", words) == box_of(PageWords(words.words[3:]), "45")  # the second line


def test_digits_of_a_date_are_not_a_number() -> None:
    assert find_number("15", page("от 15.03.2024")) is None
    assert find_number("7-П", page("Договор поставки № 7-П")) is not None


def test_an_inn_inside_inn_and_kpp() -> None:
    words = page("ИНН/КПП 7707083893/770701001")
    _, x0, y0, x1, y1 = words.words[1]
    box = find_tax_id("7707083893", words)
    assert box is not None
    assert box[0] == x0 and box[2] < (x0 + x1) / 2 + 0.01  # the first half of the word
    assert (box[1], box[3]) == (y0, y1)
    assert find_tax_id("770701001", words) is not None  # the KPP half
    assert find_tax_id("7707083894", words) is None
    tax = page("Tax ID: 12-3456789")
    assert find_tax_id("12-3456789", tax) == box_of(tax, "12-3456789")


@pytest.mark.parametrize(
    ("value", "line", "tokens"),
    [
        ("ООО «Ромашка»", "Поставщик: ООО «Ромашка», ИНН 7701234560", ("ООО", "«Ромашка»,")),
        ('ООО "Ромашка"', "Поставщик: ООО «Ромашка»", ("ООО", "«Ромашка»")),
        (
            "ООО «Ромашка»",
            "Общество с ограниченной ответственностью «Ромашка», именуемое",
            ("Общество", "с", "ограниченной", "ответственностью", "«Ромашка»,"),
        ),
        (
            "Общество с ограниченной ответственностью «Альфа-Снаб»",
            "Грузоотправитель: ООО «Альфа-Снаб»",
            ("ООО", "«Альфа-Снаб»"),
        ),
        ("ИП Иванов Иван Иванович", "Исполнитель ИП Иванов И.И.", ("ИП", "Иванов", "И.И.")),
        ("Acme Widgets LLC", "From: Acme Widgets LLC", ("Acme", "Widgets", "LLC")),
        ("ООО «Ромашка»", "Покупатель: «Ромашка» (ООО)", ("«Ромашка»",)),
        ("ООО «Ромашка»", "Поставщик: ООО «Ромашкa»", ("ООО", "«Ромашкa»")),  # Latin a: OCR
    ],
)
def test_a_name_over_several_words(value: str, line: str, tokens: tuple[str, ...]) -> None:
    words = page("Счёт № 5", line)
    assert find_name(value, words) == box_of(words, *tokens)


def test_another_name_is_not_the_name() -> None:
    words = page("Поставщик: ООО «Ромашка»", "Покупатель: АО «Вектор»")
    assert find_name("ООО «Лютик»", words) is None
    # the legal form is the last thing relied on: the name itself is printed
    assert find_name("АО «Ромашка»", words) == box_of(words, "«Ромашка»")
    assert find_name("ООО «Василёк Плюс»", words) is None
    address = page("г. Москва, ул. Ленина, д. 1, Покупатель: АО «Вектор»")
    assert find_name("АО «Другое»", address) is None  # "д." is no initial of a name


def test_a_currency_is_found_by_its_markers() -> None:
    words = page("Итого 118 000,00 руб.")
    assert find("RUB", "currency", [(1, words)], PROFILE) == (1, box_of(words, "руб."))
    assert find("USD", "currency", [(1, page("Total $1,234.56"))], PROFILE) is not None
    assert find("EUR", "currency", [(1, words)], PROFILE) is None


def _document(fields: dict[str, str | None], page_to: int = 1) -> Document:
    return Document(
        1, 0, "invoice", 1, page_to, fields=fields, confidence=dict.fromkeys(fields, 0.9)
    )


INVOICE = page(
    "Счёт на оплату № 123 от 12 марта 2024 г.",
    "Поставщик: ООО «Ромашка», ИНН 7701234560",
    "Покупатель: АО «Вектор», ИНН 5003123458",
    "Итого к оплате: 118 000,00 руб.",
    "В том числе НДС 20%: 19 666,67 руб.",
)
FIELDS: dict[str, str | None] = {
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


def test_every_value_of_a_document_is_located() -> None:
    result = located(_document(FIELDS), {1: INVOICE}, PROFILE)
    assert set(result.locations) == set(FIELDS)
    assert not result.needs_review and not result.review_codes
    for spot in result.locations.values():
        x0, y0, x1, y1 = spot["box"]
        assert spot["page"] == 1 and 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1


def test_a_value_found_nowhere_is_flagged() -> None:
    """The tripwire: an invented amount and a swapped buyer INN are on no page."""
    fields = {**FIELDS, "amount": "987654.32", "buyer_tax_id": "7707083893"}
    result = located(_document(fields), {1: INVOICE}, PROFILE)
    assert result.needs_review
    flagged = {c.field: c for c in result.review_codes}
    assert set(flagged) == {"amount", "buyer_tax_id"}
    assert flagged["amount"].code == "not_on_page"
    assert flagged["amount"].params == {"value": "987654.32"}
    assert "987654.32 was not found on the page" in flagged["amount"].words()
    assert result.confidence["amount"] == NOT_ON_PAGE_CONFIDENCE
    assert result.confidence["number"] == 0.9
    assert "amount" not in result.locations and "number" in result.locations


def test_what_is_not_printed_as_it_is_is_never_flagged() -> None:
    fields = {**FIELDS, "currency": "EUR", "vat_amount": "0.00"}
    result = located(_document(fields), {1: INVOICE}, PROFILE)
    assert not result.review_codes and not result.needs_review


def test_pages_without_words_cannot_tell() -> None:
    """A scan without OCR, or a page of a multi-page document without words: no flag."""
    fields = {**FIELDS, "amount": "987654.32"}
    assert not located(_document(fields), {1: PageWords([])}, PROFILE).review_codes
    two_pages = located(_document(fields, page_to=2), {1: INVOICE}, PROFILE)
    assert not two_pages.review_codes
    assert two_pages.locations["number"]["page"] == 1
    assert not located(_document(fields), {1: page("Счёт 5")}, PROFILE).review_codes


def test_a_value_on_a_later_page_has_that_page() -> None:
    second = page("Итого по документу: 118 000,00")
    result = located(
        _document(FIELDS, page_to=2), {1: PageWords(INVOICE.words[:6]), 2: second}, PROFILE
    )
    assert result.locations["amount"]["page"] == 2
