"""Core messages: worded from their code in the reader's language; errors, jobs and
registry warnings keep their code beside their English text. (The catalogue itself,
every code's template and its Russian: ``test_catalogue_words.py``.)"""

from __future__ import annotations

import pickle

from docbatch_gui.domain.errors import UnsupportedInput
from docbatch_gui.domain.messages import (
    Message,
    Worded,
    english,
    from_wire,
    wire,
    word,
    worded_list,
)


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
    inner = english("claude_timeout")
    outer = english("crashed_repeatedly", error=inner, times=3)
    assert outer.message.params["error"] == {"code": "claude_timeout", "params": {}}
    assert "тайм-аут" in outer.message.words("ru")
    assert str(outer).startswith("Claude did not answer in time")


def test_worded_text_survives_pickle_and_the_child_wire() -> None:
    text = english("pdf_password", file="x.pdf")
    assert isinstance(text, str) and text.startswith("x.pdf: the PDF is password-protected")
    again = pickle.loads(pickle.dumps(text))
    assert isinstance(again, Worded) and again.message == text.message
    body = {"message": str(text), **wire(text)}
    rebuilt = from_wire(body)
    assert isinstance(rebuilt, Worded) and rebuilt.message.code == "pdf_password"
    assert from_wire({"message": "plain"}) == "plain"


def test_an_error_raised_with_a_code_words_itself_and_fills_the_job_fields() -> None:
    exc = UnsupportedInput.coded("file_empty", {"file": "a.pdf"}, file="/tmp/a.pdf")
    assert exc.file == "/tmp/a.pdf"
    assert exc.message.startswith("a.pdf: the file is empty")
    assert exc.words("ru").startswith("a.pdf: файл пуст")
    fields = exc.job_error()
    assert fields["error_code"] == "file_empty" and fields["error_params"] == {"file": "a.pdf"}
    plain = UnsupportedInput("no code")
    assert plain.words("ru") == "no code" and plain.job_error()["error_code"] is None
    assert pickle.loads(pickle.dumps(exc)).words("ru") == exc.words("ru")


def test_worded_list_needs_matching_codes() -> None:
    codes = [Message("match_no_candidates").as_dict()]
    assert worded_list(["no candidates"], codes, "ru") == ["нет кандидатов"]
    assert worded_list(["no candidates"], [], "ru") == ["no candidates"]
    assert worded_list(["a", "b"], codes, "ru") == ["a", "b"]


def test_a_librarys_own_text_is_quoted_in_another_language() -> None:
    """MuPDF's or the system's reason cannot be translated: a Russian line quotes it as
    data, an English one keeps it as it is, and a worded reason is not quoted."""
    params = {"file": "a.pdf", "detail": "Failed to open file a.pdf as type pdf."}
    assert "(«Failed to open file a.pdf as type pdf.»)" in word("pdf_damaged", params, "ru")
    assert "(Failed to open file a.pdf as type pdf.)" in word("pdf_damaged", params, "en")
    assert "(7)" in word("pdf_damaged", {"file": "a.pdf", "detail": "7"}, "ru")
    inner = english("claude_timeout").message.as_dict()
    nested = word("crashed_repeatedly", {"error": inner, "times": 2}, "ru")
    assert "«" not in nested and "тайм-аут" in nested
