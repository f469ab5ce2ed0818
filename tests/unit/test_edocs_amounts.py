"""An e-document's amount that Python reads as a float but is no number is left out."""

import pytest

from docbatch_gui.pipeline.edocs import decimal_text


@pytest.mark.parametrize("text", ["nan", "NaN", "inf", "-Infinity", "abc", ""])
def test_no_number_is_no_amount(text: str) -> None:
    assert decimal_text(text) is None


def test_the_formats_amounts_are_kept_with_a_dot() -> None:
    assert decimal_text(" 1 234,50 ") == "1234.50"
    assert decimal_text("99.9") == "99.9"
