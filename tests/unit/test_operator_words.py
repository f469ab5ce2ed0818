"""Refusals of the operator's own actions carry a code: the window words them in
Russian (the state they name too), the CLI keeps its English."""

from __future__ import annotations

import pytest

from docbatch_gui.app.review import ReviewError, normalize_field
from docbatch_gui.domain.errors import InvalidTransition
from docbatch_gui.domain.messages import template
from docbatch_gui.domain.registry import RegistryStatus
from docbatch_gui.domain.state_names import STATE_NAMES, state_name
from docbatch_gui.domain.states import JobState, check_operator_move, state_words


@pytest.mark.parametrize("state", list(JobState))
def test_every_job_state_has_words_in_both_languages(state: JobState) -> None:
    """A message naming a state words it from the one table, ``domain.state_names``."""
    assert (
        state_words(state).words("en")
        == state_name(state, "en")
        == template(f"state_{state.value}")
    )
    assert template(f"state_{state.value}", "ru") == state_name(state, "ru")
    assert state_name(state, "ru") not in (state.value, state_name(state, "en")) or state is (
        JobState.OCR
    )


def test_the_state_names_name_every_state_and_only_those() -> None:
    assert set(STATE_NAMES) == {state.value for state in JobState}
    assert state_name("a_newer_state", "ru") == "a_newer_state"


@pytest.mark.parametrize("status", list(RegistryStatus))
def test_every_registry_status_has_words_in_both_languages(status: RegistryStatus) -> None:
    assert template(f"registry_status_{status.value}", "en") == status.value
    assert template(f"registry_status_{status.value}", "ru") not in (None, status.value)


def test_a_refused_retry_and_cancel_name_the_state_in_russian() -> None:
    with pytest.raises(InvalidTransition) as retry:
        check_operator_move(4, "a.pdf", JobState.PROCESSING, JobState.QUEUED)
    assert str(retry.value).startswith("job 4 (a.pdf) is In batch: only a finished")
    assert retry.value.words("ru").startswith("задание 4 (a.pdf) в состоянии «В пакете»")
    with pytest.raises(InvalidTransition) as cancel:
        check_operator_move(4, "a.pdf", JobState.DONE, JobState.CANCELED)
    assert "уже в состоянии «Готово»: отменить можно только" in cancel.value.words("ru")
    with pytest.raises(InvalidTransition) as waiting:
        check_operator_move(4, "a.pdf", JobState.QUEUED, JobState.QUEUED)
    assert "already waiting for the worker" in str(waiting.value)
    assert "«уже ждёт обработчика»" in waiting.value.words("ru")


@pytest.mark.parametrize(
    ("name", "value", "english", "russian"),
    [
        ("date", "31.13.2024", "is not a date", "— не дата; введите её как дд.мм.гггг"),
        ("amount", "twelve", "is not an amount", "— не сумма"),
    ],
)
def test_an_edit_that_cannot_be_saved_says_why_in_russian(
    name: str, value: str, english: str, russian: str
) -> None:
    with pytest.raises(ReviewError) as caught:
        normalize_field(name, value)
    assert english in str(caught.value)
    assert caught.value.words("ru").startswith(f"{value!r} {russian}")
