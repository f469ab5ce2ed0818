"""What went wrong, as a message parameter (:func:`cause`).

Log lines are plain English ``logging`` calls (lazy %-formatting, an exception passed
as itself); this module only turns an exception into the parameter of a message an
operator reads.
"""

from __future__ import annotations

from typing import Any

from docbatch_gui.domain.messages import message_of


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
