"""The one table of job state names: what the queue, the command line and the
exports call each state (the stored value, ``JobState``, is what scripts read); and
the one of processing mode names, as a sentence names a job's mode ("held: to be read
by Claude (sync mode)", "Forecast … (batch mode)").

The names are marked for the catalogue with the context ``job state``, since "Done"
or "Failed" may be worded differently elsewhere; they are worded when shown, in the
language asked for or the current one.
"""

from __future__ import annotations

from docbatch_gui.i18n import NP_, current_language, translation

CONTEXT = "job state"


#: state (its stored value; a ``JobState`` finds its entry too, being a ``StrEnum``) →
#: its English name (the catalogue's msgid under :data:`CONTEXT`). Keyed by value so
#: that ``domain.messages`` can word a message naming a state without importing the
#: states module, which imports it.
STATE_NAMES: dict[str, str] = {
    "queued": NP_("job state", "Queued"),
    "preparing": NP_("job state", "Preparing"),
    "ocr": NP_("job state", "OCR"),
    "extracting": NP_("job state", "Reading"),
    "submitted": NP_("job state", "Submitted"),
    "processing": NP_("job state", "In batch"),
    "building": NP_("job state", "Building"),
    "done": NP_("job state", "Done"),
    "needs_review": NP_("job state", "Needs review"),
    "failed": NP_("job state", "Failed"),
    "timed_out": NP_("job state", "Timed out"),
    "canceled": NP_("job state", "Canceled"),
    "duplicate": NP_("job state", "Duplicate"),
}


def _named(table: dict[str, str], context: str, value: str, language: str | None) -> str:
    """``value``'s name from ``table`` in ``language`` (the current one when None); an
    unknown value (a newer version's) is shown as stored."""
    english = table.get(str(value))
    if english is None:
        return str(value)
    return translation(language or current_language()).pgettext(context, english)


def state_name(state: str, language: str | None = None) -> str:
    """The name of ``state`` (a ``JobState`` or its value) in ``language``."""
    return _named(STATE_NAMES, CONTEXT, state, language)


MODE_CONTEXT = "processing mode"
#: a job's mode (its stored value) → its name in a sentence (an adjective in Russian:
#: "синхронный режим"); the Settings list words the modes at length, on its own
MODE_NAMES: dict[str, str] = {
    "sync": NP_("processing mode", "sync"),
    "batch": NP_("processing mode", "batch"),
    "offline": NP_("processing mode", "offline"),
    "data": NP_("processing mode", "data"),
}


def mode_name(mode: str, language: str | None = None) -> str:
    """The name of ``mode`` (a ``ProcessingMode`` or its value) in ``language``."""
    return _named(MODE_NAMES, MODE_CONTEXT, mode, language)
