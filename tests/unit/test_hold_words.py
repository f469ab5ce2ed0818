"""A held job's reason names its mode in the reader's language: the Russian line used
to read "(режим sync)", the setting's raw value inside a Russian sentence."""

from __future__ import annotations

import pytest

from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import JobState, ProcessingMode
from docbatch_gui.engine.holds import Holds


def queued(mode: ProcessingMode) -> Job:
    return Job(1, "акт.pdf", "акт.pdf", "0" * 64, 10, mode, JobState.QUEUED, None)


@pytest.mark.parametrize(
    ("mode", "english", "russian"),
    [
        (ProcessingMode.SYNC, "(sync mode)", "(синхронный режим)"),
        (ProcessingMode.BATCH, "(batch mode)", "(пакетный режим)"),
    ],
)
def test_the_key_hold_names_the_mode_in_words(
    mode: ProcessingMode, english: str, russian: str
) -> None:
    hold = Holds(has_anthropic_key=False).of(queued(mode))
    assert hold is not None
    assert english in hold.message.words("en")
    said = hold.message.words("ru")
    assert russian in said
    assert mode.value not in said  # no raw setting value in a Russian sentence
    assert hold.message.params["mode"] == mode.value  # scripts still read the value
