"""Every log line an operator can see is a message: the Log panel words it in the
interface language, so a Russian window shows no English line.

A line of INFO and above in ``docbatch_gui`` goes through ``domain.said.say`` (or
carries its message in ``extra``, as ``engine.job_log`` does; a line with ``extra``
marked file-only never reaches the panel). DEBUG lines are for developers and stay
English.
"""

from __future__ import annotations

import ast
import logging
from pathlib import Path

import pytest

from docbatch_gui.domain.errors import UnsupportedInput
from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.said import cause, say, worded_line

PACKAGE = Path(__file__).resolve().parents[2] / "docbatch_gui"
LEVELS = {"info", "warning", "error", "exception", "critical"}


def _is_logger(node: ast.expr) -> bool:
    name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", "")
    return name.lstrip("_").lower() in {"log", "logger"}


def unworded_lines(source: str) -> list[int]:
    """Line numbers of ``log.info(…)``-style calls that carry no message."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in LEVELS | {"log"} or not _is_logger(node.func.value):
            continue
        if not any(k.arg == "extra" for k in node.keywords):
            found.append(node.lineno)
    return found


def test_the_check_finds_a_plain_line_and_spares_a_worded_one() -> None:
    source = (
        "log.info('engine %s', state)\n"
        "_log.warning('x')\n"
        "say(log, logging.INFO, 'log_engine_state', state=1)\n"
        "log.debug('developers only')\n"
        "log.info('x', extra={'worded': m})\n"
        "self.log.error('y')\n"
    )
    assert unworded_lines(source) == [1, 2, 6]


def test_every_log_line_of_info_and_above_is_a_message() -> None:
    plain = [
        f"{path.relative_to(PACKAGE.parent)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line in unworded_lines(path.read_text(encoding="utf-8"))
    ]
    assert not plain, "log with domain.said.say: " + ", ".join(plain)


def test_say_logs_english_and_carries_the_message(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("docbatch_gui.test_said")
    error = UnsupportedInput.coded("pdf_too_many_pages", {"file": "a.pdf", "count": 12, "max": 10})
    with caplog.at_level(logging.INFO, logger=logger.name):
        say(logger, logging.WARNING, "crashed_repeatedly", error=cause(error), times=3)
        say(logger, logging.DEBUG, "crashed_repeatedly", error="x", times=1)
    (record,) = caplog.records
    assert record.levelno == logging.WARNING
    assert record.getMessage().startswith("a.pdf: the PDF has 12 pages")
    message = worded_line(record)
    assert isinstance(message, Message) and message.code == "crashed_repeatedly"
    assert message.words("ru").startswith("a.pdf: в PDF 12 страниц")
    assert record.funcName == "test_say_logs_english_and_carries_the_message"


def test_cause_words_coded_errors_and_names_plain_ones() -> None:
    assert cause(OSError("disk full")) == "disk full"
    assert cause(KeyError()) == "KeyError"
    assert cause(None) == "?"
    coded = cause(UnsupportedInput.coded("claude_timeout"))
    assert coded == {"code": "claude_timeout", "params": {}}
