"""Written dates in the profile's languages, and never across them."""

from __future__ import annotations

import pytest

from docbatch_gui.pipeline.written_dates import find_written_dates

LANGUAGES = ("ru", "en", "de", "fr", "nl")


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("Invoice date: August 3, 2014", "2014-08-03"),
        ("Rechnungsdatum 7. Mai 2014", "2014-05-07"),
        ("Factuurdatum: 19 april 2014", "2014-04-19"),
        ("Date : 28 novembre 2022", "2022-11-28"),
        ("Счет на оплату № 5 от 12 марта 2024 г.", "2024-03-12"),
        ("Aug 3rd, 2014", "2014-08-03"),
    ],
)
def test_a_written_date_is_read_in_the_profiles_languages(text: str, iso: str) -> None:
    assert [found[2] for found in find_written_dates(text, LANGUAGES)] == [iso]


def test_a_month_in_a_language_the_profile_does_not_name_is_not_read() -> None:
    assert find_written_dates("7. Mai 2014", ("en",)) == []
    assert find_written_dates("7. Mai 2014", ()) == []


def test_words_that_dateparser_reads_as_relative_dates_are_no_dates() -> None:
    assert find_written_dates("delivered on 12 now 2014", LANGUAGES) == []
