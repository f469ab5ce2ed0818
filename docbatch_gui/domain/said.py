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

from docbatch_gui.domain.messages import Message, coded


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
    message = coded(code, **params)
    logger.log(
        level,
        message.english,
        exc_info=exc_info,
        extra={**(extra or {}), "worded": message},
        stacklevel=2,
    )


def cause(exc: BaseException | Message | str | None) -> Any:
    """What went wrong, as a message parameter: the error's own message when it has a
    code (worded again in the reader's language), else its text, else its class."""
    if exc is None:
        return "?"
    if isinstance(exc, Message):
        return exc.as_dict() if exc.code else exc.english
    if isinstance(exc, str):
        return exc
    found = getattr(exc, "message", None)
    if isinstance(found, Message) and found.code:
        return found.as_dict()
    return str(exc) or type(exc).__name__


def worded_line(record: logging.LogRecord) -> Message | None:
    """The message a log record carries, when it was logged as one."""
    found = getattr(record, "worded", None)
    return found if isinstance(found, Message) else None
