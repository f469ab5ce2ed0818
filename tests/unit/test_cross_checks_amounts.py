"""An amount that parses as a decimal but is no number is left out of the checks."""

import pytest

from docbatch_gui.pipeline.cross_checks import _decimal


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-inf", "sNaN"])
def test_not_a_number_is_no_amount(text: str) -> None:
    assert _decimal(text) is None


def test_a_plain_amount_is_kept() -> None:
    assert str(_decimal("12.50")) == "12.50"
