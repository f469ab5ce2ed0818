"""What went wrong, as a message parameter (:func:`cause`).

Log lines are plain English ``logging`` calls (lazy %-formatting, an exception passed
as itself); this module only turns an exception into the parameter of a message an
operator reads.
"""

from __future__ import annotations

from typing import Any

from docbatch_gui.domain.messages import Message


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
