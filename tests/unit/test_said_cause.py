"""``domain.said.cause``: an exception as a message parameter."""

from __future__ import annotations

from docbatch_gui.domain.errors import UnsupportedInput
from docbatch_gui.domain.said import cause


def test_cause_words_coded_errors_and_names_plain_ones() -> None:
    assert cause(OSError("disk full")) == "disk full"
    assert cause(KeyError()) == "KeyError"
    assert cause(None) == "?"
    coded = cause(UnsupportedInput.coded("claude_timeout"))
    assert coded == {"code": "claude_timeout", "params": {}}
