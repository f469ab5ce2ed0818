"""Log lines that are messages: a code and its parameters, like every other thing the
core says to an operator.

``logs/docbatch.log`` keeps the English line (support reads it, and it is what a
search on the web finds); the window's Log panel words the same line again in the
interface language from the message it carries (``extra={"worded": Message}``). So a
line logged with :func:`say` reads in Russian in a Russian window, and a test
(``tests/unit/test_log_lines.py``) keeps every line of INFO and above going this way.
"""

from __future__ import annotations

import logging
from typing import Any

from docbatch_gui.domain.messages import Message, Worded, english, message_of


def say(
    logger: logging.Logger,
    level: int,
    code: str,
    /,
    *,
    exc_info: Any = None,
    extra: dict[str, Any] | None = None,
    **params: Any,
) -> None:
    """Log message ``code`` with ``params`` at ``level``: English text, worded message."""
    if not logger.isEnabledFor(level):
        return
    text = english(code, **params)
    logger.log(
        level,
        str(text),
        exc_info=exc_info,
        extra={**(extra or {}), "worded": text.message},
        stacklevel=2,
    )


def cause(exc: BaseException | str | None) -> Any:
    """What went wrong, as a message parameter: the error's own message when it has a
    code (worded again in the reader's language), else its text, else its class."""
    if exc is None:
        return "?"
    if isinstance(exc, str):
        found = message_of(exc)
        return found.as_dict() if found else exc
    found = message_of(getattr(exc, "message", None)) or message_of(str(exc))
    if found is not None:
        return found.as_dict()
    return str(exc) or type(exc).__name__


def worded_line(record: logging.LogRecord) -> Message | None:
    """The message a log record carries, when it was logged as one."""
    found = getattr(record, "worded", None)
    if isinstance(found, Message):
        return found
    return message_of(record.msg) if isinstance(record.msg, Worded) else None
