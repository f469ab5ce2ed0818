"""Dates and numbers of a CSV export, in the export's language by Babel."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from docbatch_gui.outbound.text_values import date_text, number_text


def test_russian_dates_are_the_locales_short_form_and_english_ones_iso() -> None:
    assert date_text(date(2024, 5, 20), "ru") == "20.05.2024"
    assert date_text(datetime(2024, 5, 20, 14, 3, 59), "ru") == "20.05.2024 14:03"
    assert date_text(date(2024, 5, 20), "en") == "2024-05-20"
    assert date_text(datetime(2024, 5, 20, 14, 3), "en") == "2024-05-20 14:03"


def test_numbers_take_the_languages_decimal_sign_and_never_group_thousands() -> None:
    assert number_text(118000.0, "ru", ";", places=2) == "118000,00"
    assert number_text(118000.0, "en", ",", places=2) == "118000.00"
    assert number_text(1234567.5, "en", "\t", places=2) == "1234567.50"
    assert number_text(Decimal("1.5"), "ru", ";", places=None) == "1,5"
    assert number_text(Decimal("2"), "ru", ";", places=None) == "2"
    assert number_text(Decimal("0.12345678"), "en", ",", places=None) == "0.12345678"


def test_amounts_round_half_up_as_written_not_as_the_float_is_stored() -> None:
    # 2.675 is stored as 2.67499999…; f"{2.675:.2f}" gives 2.67
    assert number_text(2.675, "en", ",", places=2) == "2.68"
    assert number_text(0.125, "ru", ";", places=2) == "0,13"  # half up, not to even


def test_a_decimal_sign_equal_to_the_delimiter_becomes_a_point() -> None:
    assert number_text(1.5, "ru", ",", places=2) == "1.50"
    assert number_text(1.5, "ru", "\t", places=2) == "1,50"
