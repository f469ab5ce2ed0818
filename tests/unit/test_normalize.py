"""Normalisation helpers: concrete RU/EN examples plus round-trip properties."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docbatch_gui.domain.normalize import (
    find_dates,
    inn_is_valid,
    normalize_amount,
    normalize_date,
    normalize_number,
    normalize_text,
)

RU_MONTHS_GENITIVE = [
    "января",
    "февраля",
    "марта",
    "апреля",
    "мая",
    "июня",
    "июля",
    "августа",
    "сентября",
    "октября",
    "ноября",
    "декабря",
]
EN_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


# ----------------------------------------------------------------------- text


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("  Счёт-фактура №12, от «12»  ", "счет фактура 12 от 12"),
        ('ООО "Ромашка"', "ооо ромашка"),
        ("ООО\u00a0«Ромашка»\n\tИНН", "ооо ромашка инн"),
        ("ACME  Widgets, LLC.", "acme widgets llc"),
        ("", ""),
        (None, ""),
    ],
)
def test_normalize_text_examples(raw: str | None, expected: str) -> None:
    assert normalize_text(raw) == expected


@pytest.mark.slow
@given(st.text())
def test_normalize_text_is_idempotent(text: str) -> None:
    once = normalize_text(text)
    assert normalize_text(once) == once
    assert once == once.strip()
    assert "  " not in once
    assert "ё" not in once


# --------------------------------------------------------------------- number


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("№ АБ-0123/24", "012324"),
        ("INV-2024-0042", "20240042"),
        ("7-П", "7"),
        ("", ""),
        (None, ""),
        ("без номера", ""),
    ],
)
def test_normalize_number(raw: str | None, expected: str) -> None:
    assert normalize_number(raw) == expected


# ----------------------------------------------------------------------- date


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("12.03.2024", "2024-03-12"),
        ("12.03.24", "2024-03-12"),
        ("12/03/2024", "2024-03-12"),
        ("2024-03-12", "2024-03-12"),
        ("2024-03-12 00:00:00", "2024-03-12"),
        ("2024-03-12T10:30:00", "2024-03-12"),
        ("12 марта 2024 г.", "2024-03-12"),
        ("«12» марта 2024", "2024-03-12"),
        ("«01» февраля 2024 года", "2024-02-01"),
        ("5 мая 2024", "2024-05-05"),
        ("March 12, 2024", "2024-03-12"),
        ("12 March 2024", "2024-03-12"),
        ("Mar 12 2024", "2024-03-12"),
        ("от 12.03.2024", "2024-03-12"),
        (date(2024, 3, 12), "2024-03-12"),
        (datetime(2024, 3, 12, 23, 59), "2024-03-12"),
        (45363, "2024-03-12"),
        (45363.75, "2024-03-12"),
    ],
)
def test_normalize_date_formats(raw: object, expected: str) -> None:
    assert normalize_date(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        "31.02.2024",  # no such day
        "12/31/2024",  # US order: never swap day and month
        "29.02.2023",
        "12.13.2024",
        "1234",
        "45363",  # a serial only counts as a number, not as text
        "hello",
        "",
        None,
        True,
        10,  # 1900-01-10: outside the sane Excel range
        10_000_000,
        -5,
        "12 марта",  # no year
        "2024-03-12 and 2024-03-13",
    ],
)
def test_normalize_date_refuses_to_guess(raw: object) -> None:
    assert normalize_date(raw) is None


def test_find_dates_positions_and_invalid_dates() -> None:
    text = "Счет № 123 от 12 марта 2024 г., оплатить до 15.03.24; 31.02.2024 не дата"
    found = find_dates(text)
    assert [iso for _s, _e, iso in found] == ["2024-03-12", "2024-03-15"]
    start, end, _iso = found[0]
    assert text[start:end] == "12 марта 2024"


_dates = st.dates(min_value=date(1950, 1, 1), max_value=date(2099, 12, 31))


@given(_dates)
def test_date_round_trip_numeric(day: date) -> None:
    iso = day.isoformat()
    assert normalize_date(day.strftime("%d.%m.%Y")) == iso
    assert normalize_date(day.strftime("%d/%m/%Y")) == iso
    assert normalize_date(iso) == iso
    assert normalize_date(f"{day.day}.{day.month}.{day.year} г.") == iso


@given(_dates)
def test_date_round_trip_month_names(day: date) -> None:
    iso = day.isoformat()
    ru = f"{day.day} {RU_MONTHS_GENITIVE[day.month - 1]} {day.year} г."
    assert normalize_date(ru) == iso
    assert normalize_date(f"«{day.day:02d}» {RU_MONTHS_GENITIVE[day.month - 1]} {day.year}") == iso
    en = EN_MONTHS[day.month - 1]
    assert normalize_date(f"{en} {day.day}, {day.year}") == iso
    assert normalize_date(f"{day.day} {en} {day.year}") == iso
    assert normalize_date(f"{en[:3]} {day.day} {day.year}") == iso


@given(st.dates(min_value=date(1900, 3, 1), max_value=date(2100, 12, 31)))
def test_excel_serial_round_trip(day: date) -> None:
    serial = (day - date(1899, 12, 30)).days
    assert normalize_date(serial) == day.isoformat()
    assert normalize_date(float(serial) + 0.5) == day.isoformat()


# --------------------------------------------------------------------- amount


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1 234,56", "1234.56"),
        ("1,234.56", "1234.56"),
        ("118 000,00 руб.", "118000.00"),
        ("118000", "118000.00"),
        ("1.234,56", "1234.56"),
        ("1\u00a0234,56", "1234.56"),
        ("1\u202f234,56", "1234.56"),
        ("1\u2009234\u2009567,8", "1234567.80"),
        ("$1,234.56", "1234.56"),
        ("1,234.56 USD", "1234.56"),
        ("€ 99,90", "99.90"),
        ("118 000 руб. 00 коп.", "118000.00"),
        ("-1 234,56", "-1234.56"),
        ("\u22125,00", "-5.00"),
        ("(1 234,56)", "-1234.56"),
        ("0", "0.00"),
        ("12,5", "12.50"),
        ("12.3400", "12.34"),
        (Decimal("1234.565"), "1234.57"),
        (1234, "1234.00"),
        (1234.56, "1234.56"),
        (0.1 + 0.2, "0.30"),
    ],
)
def test_normalize_amount_examples(raw: object, expected: str) -> None:
    assert normalize_amount(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        "1,234",  # 1234 (EN) or 1.234 (RU)
        "1.234",
        "12 34",  # broken grouping
        "1,23,456.00",
        "12.3456",  # more than cents
        "1.234.567,891",
        "abc 12",
        "12 марта 2024",
        "руб.",
        "",
        None,
        True,
        float("nan"),
        float("inf"),
    ],
)
def test_normalize_amount_refuses_ambiguous(raw: object) -> None:
    assert normalize_amount(raw) is None


_amounts = st.decimals(
    min_value=Decimal("-999999999.99"),
    max_value=Decimal("999999999.99"),
    places=2,
    allow_nan=False,
    allow_infinity=False,
)


def _ru_style(value: Decimal, space: str = " ") -> str:
    return f"{value:,.2f}".replace(",", space).replace(".", ",")


@given(_amounts, st.sampled_from([" ", "\u00a0", "\u202f", "\u2009"]))
def test_amount_round_trip_ru_and_en(value: Decimal, space: str) -> None:
    expected = f"{value:.2f}"
    assert normalize_amount(_ru_style(value, space)) == expected
    assert normalize_amount(f"{value:,.2f}") == expected  # EN: 1,234.56
    assert normalize_amount(f"{value:.2f}") == expected
    assert normalize_amount(f"{_ru_style(value)} руб.") == expected
    assert normalize_amount(value) == expected


@given(st.text(alphabet=st.characters(categories=["L"]), min_size=1))
def test_amount_without_digits_is_none(text: str) -> None:
    assert normalize_amount(text) is None


# --------------------------------------------------------------------- INN


@pytest.mark.parametrize("inn", ["7701234560", "5003123458", "7810987652", "500100732259"])
def test_inn_checksum_valid(inn: str) -> None:
    assert inn_is_valid(inn)


@pytest.mark.parametrize(
    "inn", ["7701234561", "0000000000", "123", "77012345600", "500100732258", "77O1234560"]
)
def test_inn_checksum_invalid(inn: str) -> None:
    assert not inn_is_valid(inn)


@given(st.from_regex(r"[1-9]\d{8}", fullmatch=True))
def test_exactly_one_check_digit_completes_an_inn(prefix: str) -> None:
    valid = [d for d in "0123456789" if inn_is_valid(prefix + d)]
    assert len(valid) == 1


def test_amounts_beyond_any_document_are_unreadable_not_a_crash() -> None:
    from docbatch_gui.domain.normalize import normalize_amount

    for huge in ("1" * 27, "1" * 30 + ",00", 1e40, "123 456 789 012 345 678 901 234 567 890"):
        assert normalize_amount(huge) is None
    assert normalize_amount("999 999 999 999 999,99") == "999999999999999.99"
    assert normalize_amount("-100.50") == "-100.50" and normalize_amount("(1 000,00)") == "-1000.00"


def test_the_offline_extractor_keeps_the_minus_of_a_credit_note() -> None:
    from docbatch_gui.config.profile import load_profile
    from docbatch_gui.pipeline.amounts import extract_amounts

    profile = load_profile()
    assert extract_amounts(["Итого к оплате: -100,50 руб."], profile).total == "-100.50"
    assert extract_amounts(["Total due: −1,234.56 USD"], profile).total == "-1234.56"
    assert extract_amounts(["Итого - 100,00"], profile).total == "100.00"  # a dash, not a sign
    assert extract_amounts(["Счет 12-100 Итого 5 000,00"], profile).total == "5000.00"
