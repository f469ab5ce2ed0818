"""Why a batch request came back without an answer, in words the operator reads in
either language; the code survives the request record's trip through the store."""

from __future__ import annotations

import json

import pytest

from docbatch_gui.config.profile import load_profile
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.domain.models import RequestRecord
from docbatch_gui.engine.batch_results import unanswered
from docbatch_gui.llm.answers import InvalidAnswer, parse_answer
from docbatch_gui.llm.batches import BatchResult


def _result(kind: str, error_type: str | None = None) -> BatchResult:
    message = "scripted" if error_type else None
    return BatchResult("job_1_batch_1", kind, None, error_type, message)


@pytest.mark.parametrize(
    ("kind", "error_type", "code", "russian"),
    [
        ("expired", None, "batch_request_expired", "срок запроса истёк"),
        ("canceled", None, "batch_request_canceled", "пакет был отменён"),
        ("errored", "overloaded_error", "batch_request_overloaded", "Claude был перегружен"),
        ("errored", "api_error", "batch_request_api_error", "внутренний сбой"),
        ("errored", "rate_limit_error", "batch_request_rate_limited", "ограничением частоты"),
        ("errored", "authentication_error", "batch_request_key_refused", "API-ключ"),
        ("errored", "permission_error", "batch_request_key_refused", "API-ключ"),
        ("errored", "billing_error", "batch_request_billing", "из-за оплаты"),
        ("errored", "new_kind_error", "batch_request_errored", "Claude вернул ошибку"),
        ("vanished", None, "batch_request_unknown", "запрос вернулся со статусом «vanished»"),
    ],
)
def test_every_unanswered_request_has_a_code_and_russian_words(
    kind: str, error_type: str | None, code: str, russian: str
) -> None:
    text = unanswered(_result(kind, error_type))
    found = text
    assert found is not None and found.code == code
    assert russian in found.words("ru")
    if error_type:
        assert found.params["detail"] == f"{error_type}: scripted"


def test_a_request_record_keeps_its_error_code_through_json() -> None:
    record = RequestRecord(
        1, "job_1_batch_1", 1, [1], "retry", error=coded("batch_request_expired")
    )
    again = RequestRecord.from_body(json.loads(json.dumps(record.body())))
    assert again == record
    found = again.error
    assert found is not None and found.code == "batch_request_expired"
    assert record.body()["error"] == coded("batch_request_expired").english
    plain = RequestRecord(1, "job_1_batch_1", 1, [1], "retry", error=Message.plain("old text"))
    again = RequestRecord.from_body(json.loads(json.dumps(plain.body())))
    assert again.error == Message.plain("old text")
    assert "error_message" not in plain.body()
    # a record an older version stored: the English text only
    old = {**plain.body(), "error": "stored before codes"}
    assert RequestRecord.from_body(old).error == Message.plain("stored before codes")


def test_an_invalid_answer_is_worded_in_russian() -> None:
    with pytest.raises(InvalidAnswer) as caught:
        parse_answer("not json", [1], load_profile())
    assert str(caught.value).startswith("invalid answer: not JSON")
    assert caught.value.words("ru").startswith("ответ Claude не соответствует схеме")


@pytest.mark.parametrize(
    ("code", "params", "russian"),
    [
        ("sync_needs_key", {"file": "a.pdf"}, "a.pdf: для синхронного режима нужен"),
        ("claude_job_timeout", {"file": "a.pdf", "seconds": "60"}, "a.pdf: Claude не закончил"),
        ("stored_copy_unwritable", {"file": "a.pdf"}, "a.pdf: не удалось записать"),
        ("tesseract_not_installed", {}, "Tesseract OCR не установлен"),
    ],
)
def test_worker_failures_that_had_no_code_now_word_themselves(
    code: str, params: dict[str, str], russian: str
) -> None:
    text = coded(code, **params)
    found = text
    assert found is not None and found.words("ru").startswith(russian)


def test_a_damaged_pdf_page_keeps_the_english_it_had() -> None:
    """The code's English is the text the job stored before it had a code."""
    text = coded("pdf_page_damaged", file="a.pdf", page=3, detail="syntax error")
    assert str(text) == (
        "a.pdf: page 3 is damaged and cannot be rendered (syntax error). Get a fresh copy "
        "from its source, or re-save it with a PDF tool."
    )
    found = text
    assert found is not None and found.words("ru").startswith("a.pdf: страница 3 повреждена")
