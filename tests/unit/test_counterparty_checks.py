"""The counterparty rules as plain functions: shapes, rates, names and the verdict."""

from __future__ import annotations

import pytest

from docbatch_gui.checks.counterparty import (
    PRIOR_CONFIDENCE,
    choose_seller,
    confirmed_entry,
    fits_format,
    inns_in,
    number_format,
    same_name,
    sellers_read,
    vat_rate,
    with_priors,
)
from docbatch_gui.config.profile import load_profile
from docbatch_gui.domain.counterparty import ConfirmedDocument, Counterparty, summarise
from docbatch_gui.domain.models import Document
from docbatch_gui.llm.prompt import counterparty_examples

INN, BUYER = "7701234560", "5003123458"


def invoice(**fields: str | None) -> Document:
    values: dict[str, str | None] = {
        "number": "12-0045",
        "amount": "118000.00",
        "vat_amount": "19666.67",
        "seller": "ООО «Ромашка»",
        "seller_tax_id": INN,
    }
    values.update(fields)
    confidence = dict.fromkeys(values, 0.9)
    return Document(1, 0, "invoice", 1, 1, fields=values, confidence=confidence, id=7)


def known(*documents: Document) -> Counterparty:
    entries = [confirmed_entry(d, f"2025-01-0{i + 1}T00:00:00") for i, d in enumerate(documents)]
    found = summarise(INN, [e for e in entries if e is not None])
    assert found is not None
    return found


@pytest.mark.parametrize(
    ("amount", "vat", "rate"),
    [
        ("118000.00", "19666.67", 20),
        ("110000.00", "10000.00", 10),
        ("122000.00", "22000.00", 22),
        ("105000", "5000", 5),
        ("100.00", "0", 0),
        ("115000.00", "15000.00", None),  # 15%: a mix of rates, or a misread
        ("100.00", None, None),
        ("100.00", "100.00", None),
        ("abc", "1", None),
    ],
)
def test_vat_rate_is_snapped_to_a_known_rate(
    amount: str, vat: str | None, rate: int | None
) -> None:
    assert vat_rate(amount, vat) == rate


def test_number_shapes_keep_letters_and_code_digits() -> None:
    assert number_format("АБ-0123/24") == "АБ-####/##"
    assert number_format("inv 2024 0042") == "INV########"
    assert number_format("  ") is None
    assert number_format(None) is None


def test_shapes_fit_give_or_take_a_digit_and_across_look_alike_letters() -> None:
    assert fits_format("####-####", ["####-####"])
    assert fits_format("####", ["###"])  # 999 then 1000
    assert fits_format("AB-###", ["АВ-###"])  # Latin and Cyrillic look-alikes
    assert not fits_format("##", ["####"])
    assert not fits_format("###", ["###-#"])
    assert not fits_format("ВГ-###", ["АБ-###"])


def test_names_compare_without_legal_form_quotes_or_case() -> None:
    assert same_name("ООО «Ромашка»", "Общество с ограниченной ответственностью Ромашка")
    assert same_name('ООО "РОМАШКА"', "Ромашка")
    assert same_name("Romashka LLC", "Romashka")
    assert not same_name("ООО «Ромашка»", "АО «Вектор»")


def test_a_confirmed_document_is_filed_under_a_valid_seller_inn_only() -> None:
    entry = confirmed_entry(invoice(), "2025-01-01T00:00:00")
    assert isinstance(entry, ConfirmedDocument)
    assert (entry.inn, entry.vat_rate, entry.number_format, entry.name) == (
        INN,
        20,
        "##-####",
        "ООО «Ромашка»",
    )
    assert confirmed_entry(invoice(seller_tax_id="7701234561"), "x") is None  # checksum
    assert confirmed_entry(invoice(seller_tax_id=None), "x") is None


def test_a_document_that_agrees_is_left_alone() -> None:
    history = known(invoice())
    document = invoice(number="12-0046", seller="Ромашка")
    assert with_priors(document, history) == document
    assert with_priors(document, None) == document


def test_each_disagreement_is_a_code_and_lowers_that_confidence() -> None:
    history = known(invoice(), invoice(), invoice())
    document = invoice(number="A7", vat_amount="10000.00", amount="110000.00", seller="АО «Вектор»")
    document = Document(**{**document.__dict__, "doc_type": "act"})
    checked = with_priors(document, history)
    codes = {c.code: c for c in checked.review_codes}
    assert set(codes) == {"counterparty_name", "counterparty_vat_rate", "counterparty_type"}
    assert codes["counterparty_vat_rate"].params == {"rate": "10%", "usual": "20%"}
    assert codes["counterparty_name"].params == {"value": "АО «Вектор»", "usual": "ООО «Ромашка»"}
    assert codes["counterparty_type"].params == {"value": "act", "usual": "invoice"}
    assert checked.needs_review
    assert checked.confidence["vat_amount"] == PRIOR_CONFIDENCE
    assert checked.confidence["seller"] == PRIOR_CONFIDENCE
    assert checked.confidence["number"] == 0.9  # an act: invoices' numbers are no guide
    for code in checked.review_codes:  # worded in both languages, never the raw code
        assert code.code not in code.words("en") and code.code not in code.words("ru")


def test_a_number_of_another_shape_is_flagged_for_the_same_type() -> None:
    checked = with_priors(invoice(number="АБ-7"), known(invoice(), invoice()))
    (code,) = checked.review_codes
    assert code.code == "counterparty_number_format"
    assert code.params == {"value": "АБ-7", "usual": "##-####"}
    assert checked.confidence["number"] == PRIOR_CONFIDENCE


def test_the_seller_is_guessed_from_the_text_before_any_model_reads_it() -> None:
    text = (
        "Счет на оплату № 12-0045 от 01.03.2025\n"
        f"Поставщик: ООО «Ромашка», ИНН {INN}, КПП 770101001\n"
        f"Покупатель: АО «Вектор», ИНН {BUYER}, КПП 500301001\n"
        "Итого к оплате: 110 000,00 руб."
    )
    assert inns_in(text + " 40702810938000012345 7701234561") == [INN, BUYER]
    read = sellers_read("scan.pdf", [(1, text)], load_profile())
    assert read == [INN]
    assert choose_seller(read, [INN, BUYER], {INN, BUYER}) == INN
    assert choose_seller(read, [INN, BUYER], {BUYER}) is None  # the seller is new
    assert choose_seller([], [INN, BUYER], {BUYER}) == BUYER  # nothing read: any known


def test_examples_say_they_are_a_guide_and_carry_the_confirmed_values() -> None:
    history = known(invoice())
    text = counterparty_examples(INN, "ООО «Ромашка»", list(history.recent))
    assert INN in text and "never copy a value" in text
    assert '"number": "12-0045"' in text
    assert "<page" not in text  # the page tags are the pages' own
    assert counterparty_examples(INN, None, []) == ""
