"""The one table of job state names: what the queue, the command line and the
exports call each state (the stored value, ``JobState``, is what scripts read).

The names are marked for the catalogue with the context ``job state``, since "Done"
or "Failed" may be worded differently elsewhere; they are worded when shown, in the
language asked for or the current one.
"""

from __future__ import annotations

from docbatch_gui.domain.states import JobState
from docbatch_gui.i18n import NP_, current_language, translation

CONTEXT = "job state"


#: state → its English name (the catalogue's msgid under :data:`CONTEXT`)
STATE_NAMES: dict[JobState, str] = {
    JobState.QUEUED: NP_("job state", "Queued"),
    JobState.PREPARING: NP_("job state", "Preparing"),
    JobState.OCR: NP_("job state", "OCR"),
    JobState.EXTRACTING: NP_("job state", "Reading"),
    JobState.SUBMITTED: NP_("job state", "Submitted"),
    JobState.PROCESSING: NP_("job state", "In batch"),
    JobState.BUILDING: NP_("job state", "Building"),
    JobState.DONE: NP_("job state", "Done"),
    JobState.NEEDS_REVIEW: NP_("job state", "Needs review"),
    JobState.FAILED: NP_("job state", "Failed"),
    JobState.TIMED_OUT: NP_("job state", "Timed out"),
    JobState.CANCELED: NP_("job state", "Canceled"),
    JobState.DUPLICATE: NP_("job state", "Duplicate"),
}


def state_name(state: JobState | str, language: str | None = None) -> str:
    """The name of ``state`` in ``language`` (the current one when None); an unknown
    value (a newer version's state) is shown as stored."""
    try:
        english = STATE_NAMES[JobState(state)]
    except ValueError:
        return str(state)
    return translation(language or current_language()).pgettext(CONTEXT, english)
