"""Review reasons are codes: worded in both languages, stored and read back."""

from __future__ import annotations

import string

import pytest

from docbatch_gui.domain.models import Document
from docbatch_gui.domain.reasons import TEMPLATES, ReviewCode, codes_from_body
from docbatch_gui.i18n import Plural


def _english(code: str) -> str:
    """The template of ``code`` (its plural form when a number picks it)."""
    found = TEMPLATES[code]
    return found.plural if isinstance(found, Plural) else found


@pytest.mark.parametrize("code", sorted(TEMPLATES))
def test_every_code_is_worded_in_russian_with_the_same_parameters(code: str) -> None:
    """(The catalogue's own checks are in ``test_catalogue_words.py``.)"""
    params = {name: 7 for _, name, _, _ in string.Formatter().parse(_english(code)) if name}
    params.pop("field", None)
    name, _, kind = code.partition(":")
    reason = ReviewCode(name, "amount", {**params, **({"kind": kind} if kind else {})})
    russian = reason.words("ru", {"amount": "Сумма"})
    assert russian != reason._raw(), code
    assert russian != reason.words("en") or code == "note", code
    assert "amount" not in russian, code


def test_a_code_is_worded_with_the_field_label_of_the_language() -> None:
    """In per cent, as the field's mark beside it says it (it said 0.40 beside 40%)."""
    code = ReviewCode("low_confidence", "amount", {"confidence": 0.4})
    assert code.words() == "amount uncertain (confidence 40%)"
    assert code.words("ru", {"amount": "Сумма"}) == "Сумма: неуверенно (уверенность 40%)"


@pytest.mark.parametrize("code", sorted(c for c in TEMPLATES if "{pages}" in _english(c)))
def test_page_numbers_are_worded_in_russian_too(code: str) -> None:
    """``page_ranges`` stores "pages 1-3, 5" in English: the Russian says "стр. 1-3, 5"."""
    params = {"pages": "pages 1-3, 5", "engine": "tesseract"}
    english = ReviewCode(code, None, params).words("en")
    russian = ReviewCode(code, None, params).words("ru")
    assert "pages 1-3, 5" in english
    assert "стр. 1-3, 5" in russian and "page" not in russian
    assert "стр. 2" in ReviewCode(code, None, {**params, "pages": "page 2"}).words("ru")


def test_a_code_with_missing_parameters_or_unknown_to_this_version_is_still_readable() -> None:
    assert ReviewCode("vat_mismatch", "vat_amount").words() == "vat_amount: vat_mismatch"
    newer = ReviewCode("from_the_future", None, {"x": 1})
    assert newer.words("ru") == "from_the_future (x=1)"


def test_a_document_round_trips_its_codes_and_locations() -> None:
    document = Document(
        1, 0, "invoice", 1, 1,
        fields={"number": "7"},
        review_codes=[ReviewCode("field_missing", "date")],
        locations={"number": {"page": 1, "box": [0.1, 0.2, 0.3, 0.25]}},
    )  # fmt: skip
    body = document.as_dict()
    assert body["review_reasons"] == ["date not found"]
    assert body["review_codes"] == [{"code": "field_missing", "field": "date", "params": {}}]
    assert Document.from_body(body) == document


def test_reasons_stored_before_codes_become_notes() -> None:
    body = {"review_reasons": ["number differs from file name (1 vs 2)"]}
    (code,) = codes_from_body(body)
    assert code.code == "note" and code.words() == "number differs from file name (1 vs 2)"
    old = {"job_id": 1, "doc_index": 0, "doc_type": "act", "page_from": 1, "page_to": 1,
           "review_reasons": ["date not found"], "retired_key": 1}  # fmt: skip
    assert Document.from_body(old).review_reasons == ["date not found"]
