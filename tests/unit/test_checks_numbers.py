"""Registration numbers and VAT arithmetic, on published numbers and one-digit misreads."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from docbatch_gui.checks.ids import (
    account_key_is_valid,
    bik_is_valid,
    inn_is_valid,
    kpp_is_valid,
    ogrn_is_valid,
)
from docbatch_gui.checks.vat import expected_vat, load_rates, tolerance, vat_codes
from docbatch_gui.domain.errors import ConfigError


def one_digit_changed(number: str, position: int) -> str:
    digit = int(number[position])
    return number[:position] + str((digit + 1) % 10) + number[position + 1 :]


# ------------------------------------------------------------------ published numbers

# company cards of Sberbank, Yandex and Gazprom; a sole trader's INN and OGRNIP
# as printed in examples of the tax service's forms
VALID_INNS = ["7707083893", "7736207543", "7736050003", "500100732259"]
VALID_OGRNS = ["1027700132195", "1027700229193", "1027700070518", "304500116000157"]
# the Bank of Russia's worked examples (order 515 of 1997) and Sberbank's own pair:
# (account, BIK)
VALID_ACCOUNTS = [
    ("30101810400000000225", "044525225"),  # Sberbank's correspondent account
    ("30101810800000000746", "049805000"),  # a correspondent account at an RKC
    ("40602810700000000025", "049805746"),  # a client's account at a bank
    ("40702810938000012345", "044525225"),  # built with the rule (the bundled samples')
]


@pytest.mark.parametrize("inn", VALID_INNS)
def test_published_inns_pass_and_every_misread_digit_fails(inn: str) -> None:
    assert inn_is_valid(inn)
    for position in range(len(inn)):
        assert not inn_is_valid(one_digit_changed(inn, position)), position


@pytest.mark.parametrize("ogrn", VALID_OGRNS)
def test_published_ogrns_pass_and_a_misread_digit_fails(ogrn: str) -> None:
    assert ogrn_is_valid(ogrn)
    assert ogrn_is_valid(ogrn[:4] + " " + ogrn[4:])  # printed with a space
    # the control digit is a residue mod 11 (13) taken mod 10, so some single-digit
    # changes keep it; the last digit itself and the one before it never do
    assert not ogrn_is_valid(one_digit_changed(ogrn, len(ogrn) - 1))
    assert not ogrn_is_valid(one_digit_changed(ogrn, len(ogrn) - 2))


@pytest.mark.parametrize("value", ["102770013219", "10277001321955", "0000000000000", "abc"])
def test_ogrn_of_the_wrong_length_or_form_fails(value: str) -> None:
    assert not ogrn_is_valid(value)


@pytest.mark.parametrize(
    ("kpp", "valid"),
    [
        ("773601001", True),  # Sberbank
        ("770101001", True),
        ("7736AB001", True),  # a reason code in capital Latin letters
        ("7736 01 001", True),
        ("77360100", False),
        ("7736010011", False),
        ("7736ab001", False),
        ("77А601001", False),  # a Cyrillic letter where a digit belongs
        ("", False),
    ],
)
def test_kpp_form(kpp: str, valid: bool) -> None:
    assert kpp_is_valid(kpp) is valid


@pytest.mark.parametrize(
    ("bik", "valid"),
    [
        ("044525225", True),
        ("049805746", True),
        ("04 45 25 225", True),
        ("144525225", False),  # not a Russian bank
        ("04452522", False),
        ("0445252250", False),
    ],
)
def test_bik_form(bik: str, valid: bool) -> None:
    assert bik_is_valid(bik) is valid


@pytest.mark.parametrize(("account", "bik"), VALID_ACCOUNTS)
def test_published_accounts_match_their_bik_and_a_misread_digit_does_not(
    account: str, bik: str
) -> None:
    assert account_key_is_valid(account, bik)
    assert account_key_is_valid(account[:5] + " " + account[5:], bik)
    for position in range(len(account)):
        assert not account_key_is_valid(one_digit_changed(account, position), bik), position
    # the same account is no good with another bank's BIK (the digits the key uses:
    # the 5th and 6th for a correspondent account, the last three for a client's)
    assert not account_key_is_valid(
        account, one_digit_changed(bik, 5 if account[:5] == "30101" else 8)
    )


def test_an_account_needs_twenty_digits_and_a_valid_bik() -> None:
    assert not account_key_is_valid("4070281093800001234", "044525225")
    assert not account_key_is_valid("40702810938000012345", "144525225")


# ----------------------------------------------------------------------- VAT


def test_the_bundled_rate_table_follows_the_law() -> None:
    table = load_rates()
    assert Decimal(18) in table.rates_on(date(2018, 12, 31))
    assert Decimal(20) not in table.rates_on(date(2018, 12, 31))
    assert Decimal(20) in table.rates_on(date(2019, 1, 1))
    assert Decimal(22) in table.rates_on(date(2026, 1, 1))
    assert Decimal(20) not in table.rates_on(date(2026, 1, 1))
    assert {Decimal(10), Decimal(0)} <= set(table.rates_on(date(2024, 3, 12)))
    assert Decimal(5) not in table.rates_on(date(2024, 12, 31))
    assert {Decimal(5), Decimal(7)} <= set(table.rates_on(date(2025, 1, 1)))


def test_expected_vat_is_inside_the_total() -> None:
    assert expected_vat(Decimal("118000.00"), Decimal(20)) == Decimal("19666.67")
    assert expected_vat(Decimal("118000.00"), Decimal(18)) == Decimal("18000.00")
    assert expected_vat(Decimal("122000.00"), Decimal(22)) == Decimal("22000.00")
    assert tolerance(Decimal("1.00")) == Decimal("0.02")
    assert tolerance(Decimal("19666.67")) == Decimal("19.66667")


def codes(
    vat: str | None,
    amount: str | None,
    day: date | None = date(2024, 3, 12),
    currency: str | None = "RUB",
    text: str = "",
) -> list[str]:
    return [c.code for c in vat_codes("vat_amount", vat, amount, day, currency, text, load_rates())]


@pytest.mark.parametrize(
    ("vat", "amount", "day"),
    [
        ("19666.67", "118000.00", date(2024, 3, 12)),  # 20 %
        ("19666.66", "118000.00", date(2024, 3, 12)),  # a kopeck of line rounding
        ("10727.27", "118000.00", date(2024, 3, 12)),  # 10 %, reduced
        ("18000.00", "118000.00", date(2018, 6, 1)),  # 18 % before 2019
        ("22000.00", "122000.00", date(2026, 2, 1)),  # 22 % from 2026
        ("5000.00", "105000.00", date(2025, 4, 1)),  # 5 %, simplified system
        ("0.00", "118000.00", date(2024, 3, 12)),  # 0 %
        (None, "118000.00", date(2024, 3, 12)),
        ("-19666.67", "-118000.00", date(2024, 3, 12)),  # a credit note
    ],
)
def test_vat_at_a_rate_in_force_passes(vat: str | None, amount: str, day: date) -> None:
    assert codes(vat, amount, day) == []


@pytest.mark.parametrize(
    ("vat", "amount", "day", "code"),
    [
        ("19666.67", "118000.00", date(2018, 6, 1), "vat_mismatch"),  # 20 % in 2018
        ("18000.00", "118000.00", date(2024, 3, 12), "vat_mismatch"),  # 18 % in 2024
        ("19666.67", "118000.00", date(2026, 2, 1), "vat_mismatch"),  # 20 % in 2026
        ("19606.67", "118000.00", date(2024, 3, 12), "vat_mismatch"),  # a digit misread
        ("5000.00", "105000.00", date(2024, 4, 1), "vat_mismatch"),  # 5 % before 2025
        ("118000.00", "118000.00", date(2024, 3, 12), "vat_over_total"),
        ("120000.00", "118000.00", None, "vat_over_total"),
    ],
)
def test_vat_that_is_not_the_vat_of_the_total_fails(
    vat: str, amount: str, day: date | None, code: str
) -> None:
    assert codes(vat, amount, day) == [code]


def test_the_mismatch_names_the_rates_and_the_closest_vat() -> None:
    (code,) = vat_codes(
        "vat_amount", "18000.00", "118000.00", date(2024, 3, 12), "RUB", "", load_rates()
    )
    assert code.params["rates"] == "20%/10%"
    assert code.params["expected"] == "19666.67"
    assert code.words() == (
        "vat_amount: VAT 18000.00 is not 20%/10% of the total 118000.00 as of "
        "2024-03-12 (expected 19666.67)"
    )
    assert "НДС 18000.00 не равен" in code.words("ru")


def test_other_currencies_and_undated_documents_skip_the_rate_check() -> None:
    assert codes("18.00", "118.00", currency="USD") == []
    assert codes("18.00", "118.00", day=None) == []
    assert codes("18.00", "118.00", currency=None) == ["vat_mismatch"]


@pytest.mark.parametrize(
    "line",
    ["Без НДС", "НДС не облагается", "Без налога (НДС)", "В том числе НДС: без НДС", "VAT exempt"],
)
def test_vat_on_a_document_marked_without_vat(line: str) -> None:
    text = f"Счет на оплату № 5 от 12.03.2024\nИтого: 1 000,00\n{line}\n"
    assert codes("166.67", "1000.00", text=text) == ["vat_without"]
    assert codes("0.00", "1000.00", text=text) == []
    assert codes(None, "1000.00", text=text) == []


def test_a_net_column_is_not_a_without_vat_marker() -> None:
    text = "Сумма без НДС: 98 333,33\nНДС 20%: 19 666,67\nВсего с НДС: 118 000,00"
    assert codes("19666.67", "118000.00", text=text) == []


def test_a_broken_rate_table_stops_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "rates.json"
    path.write_text(json.dumps({"rates": [{"rate": 20}]}), encoding="utf-8")
    with pytest.raises(ConfigError, match="row 1 needs a numeric 'rate' and a 'from' date"):
        load_rates(path)
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid JSON"):
        load_rates(path)


def test_an_ogrnip_whose_rest_modulo_13_is_ten_or_more_takes_its_last_digit() -> None:
    """The tax service's rule: the control digit is the last digit of the rest (here
    30450011600005 mod 13 = 10, so 0); python-stdnum alone would compare 10 and refuse."""
    from stdnum.ru import ogrn

    assert int("30450011600005") % 13 == 10
    assert not ogrn.is_valid("304500116000050")  # what the check corrects
    assert ogrn_is_valid("304500116000050")
    assert not ogrn_is_valid("304500116000051")
    assert not ogrn_is_valid("104500116000050")  # 15 digits belong to a sole trader (3, 4)
