"""Core messages: worded from their code in the reader's language; errors, jobs and
registry warnings keep their code beside their English text. (The catalogue itself,
every code's template and its Russian: ``test_catalogue_words.py``.)"""

from __future__ import annotations

import json
import pickle

from docbatch_gui.domain.errors import UnsupportedInput
from docbatch_gui.domain.messages import (
    Message,
    coded,
    stored,
    word,
)
from docbatch_gui.domain.registry import SearchResult


def test_words_in_russian_and_english() -> None:
    params = {"file": "a.pdf", "count": 12, "max": 10}
    assert word("pdf_too_many_pages", params, "en").startswith("a.pdf: the PDF has 12 pages")
    assert word("pdf_too_many_pages", params, "ru").startswith("a.pdf: в PDF 12 страниц")


def test_unknown_code_or_broken_params_fall_back_to_the_stored_text() -> None:
    assert word("no_such_code", {"x": 1}, "ru", fallback="as stored") == "as stored"
    assert word("pdf_too_many_pages", {"file": "a"}, "ru", fallback="old") == "old"
    assert word("no_such_code", {"x": 1}) == "no_such_code (x=1)"
    assert word(None, None, "ru", fallback="plain") == "plain"


def test_a_nested_message_is_worded_in_the_same_language() -> None:
    inner = coded("claude_timeout")
    outer = coded("crashed_repeatedly", error=inner, times=3)
    assert outer.params["error"] == {"code": "claude_timeout", "params": {}}
    assert "тайм-аут" in outer.words("ru")
    assert outer.english.startswith("Claude did not answer in time")
    assert str(outer) == outer.english


def test_a_message_is_plain_data_that_pickles_and_goes_through_json() -> None:
    message = coded("pdf_password", file="x.pdf")
    assert not isinstance(message, str)
    assert message.english.startswith("x.pdf: the PDF is password-protected")
    assert pickle.loads(pickle.dumps(message)) == message
    assert Message.from_dict(json.loads(json.dumps(message.as_dict()))) == message
    assert message.columns() == (message.english, "pdf_password", {"file": "x.pdf"})


def test_a_plain_text_is_a_message_without_a_code_shown_as_it_is() -> None:
    plain = Message.plain("as it was stored")
    assert plain.words("ru") == plain.english == "as it was stored"
    assert plain.columns() == ("as it was stored", None, None)
    assert coded("crashed_repeatedly", error=plain, times=2).params["error"] == "as it was stored"


def test_a_stored_message_reads_back_as_its_text_when_its_code_cannot_be_worded() -> None:
    assert stored("x: empty", "file_empty", {"file": "x"}) == coded("file_empty", file="x")
    assert stored("old text", None, None) == Message.plain("old text")
    assert stored("newer", "a_code_of_a_newer_version", {}) == Message.plain("newer")
    assert stored("broken", "pdf_too_many_pages", {"file": "a"}) == Message.plain("broken")
    assert stored("", None, None) is None


def test_an_error_raised_with_a_code_words_itself_and_fills_the_job_fields() -> None:
    exc = UnsupportedInput.coded("file_empty", {"file": "a.pdf"}, file="/tmp/a.pdf")
    assert exc.file == "/tmp/a.pdf"
    assert exc.message == Message("file_empty", {"file": "a.pdf"})
    assert str(exc).startswith("a.pdf: the file is empty") and exc.text == str(exc)
    assert exc.words("ru").startswith("a.pdf: файл пуст")
    _, code, params = exc.message.columns()  # what a job records of the failure
    assert code == "file_empty" and params == {"file": "a.pdf"}
    plain = UnsupportedInput("no code")
    assert plain.message == Message.plain("no code")
    assert plain.words("ru") == "no code" and plain.message.columns()[1] is None
    again = pickle.loads(pickle.dumps(exc))  # a child process, a Celery result
    assert again.message == exc.message and again.words("ru") == exc.words("ru")
    # Celery's JSON result backend rebuilds an exception as ``cls(*args)``
    rebuilt = UnsupportedInput(*json.loads(json.dumps(exc.args)))
    assert rebuilt.message == exc.message and str(rebuilt) == str(exc)


def test_registry_warnings_are_messages_stored_as_texts_and_codes() -> None:
    result = SearchResult(
        row=1, document_id=None, score=0.0, warnings=[coded("match_no_candidates")]
    )
    body = json.loads(json.dumps(result.body()))
    assert body["warnings"] == ["no candidates"]
    assert body["warning_codes"] == [{"code": "match_no_candidates", "params": {}}]
    assert SearchResult.from_body(body) == result
    assert SearchResult.from_body(body).warnings_in("ru") == ["нет кандидатов"]
    old = {**body, "warnings": ["no candidates"], "warning_codes": []}  # before codes
    assert SearchResult.from_body(old).warnings == [Message.plain("no candidates")]
    mismatched = {**body, "warnings": ["a", "b"]}
    assert SearchResult.from_body(mismatched).warnings_in("ru") == ["a", "b"]


def test_a_librarys_own_text_is_quoted_in_another_language() -> None:
    """MuPDF's or the system's reason cannot be translated: a Russian line quotes it as
    data, an English one keeps it as it is, and a worded reason is not quoted."""
    params = {"file": "a.pdf", "detail": "Failed to open file a.pdf as type pdf."}
    assert "(«Failed to open file a.pdf as type pdf.»)" in word("pdf_damaged", params, "ru")
    assert "(Failed to open file a.pdf as type pdf.)" in word("pdf_damaged", params, "en")
    assert "(7)" in word("pdf_damaged", {"file": "a.pdf", "detail": "7"}, "ru")
    inner = coded("claude_timeout").as_dict()
    nested = word("crashed_repeatedly", {"error": inner, "times": 2}, "ru")
    assert "«" not in nested and "тайм-аут" in nested


def test_an_amount_in_a_russian_sentence_is_written_as_russian_accountants_do() -> None:
    """The registry's warning read "в реестре 15500.00" beside a sheet that prints
    "15 500,00"; English and the stored text keep the dot-decimal value."""
    from docbatch_gui.domain.messages import Message

    differs = Message("match_amount_differs", {"registry": "15500.00", "document": "—"})
    assert differs.words("ru") == "сумма расходится: в реестре 15\u00a0500,00, в документе —"
    assert differs.english == "amount differs: registry 15500.00, document —"
    assert differs.params["registry"] == "15500.00"  # the data is not changed
