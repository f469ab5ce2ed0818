"""Refusals of the operator's own actions carry a code: the window words them in
Russian (the state they name too), the CLI keeps its English."""

from __future__ import annotations

import pytest

from docbatch_gui.app.review import ReviewError, normalize_field
from docbatch_gui.domain.errors import InvalidTransition
from docbatch_gui.domain.messages import template
from docbatch_gui.domain.registry import RegistryStatus
from docbatch_gui.domain.states import JobState, check_operator_move, state_words


@pytest.mark.parametrize("state", list(JobState))
def test_every_job_state_has_words_in_both_languages(state: JobState) -> None:
    assert state_words(state) == state.value  # the English is the stored value
    assert template(f"state_{state.value}", "ru") not in (None, state.value)


@pytest.mark.parametrize("status", list(RegistryStatus))
def test_every_registry_status_has_words_in_both_languages(status: RegistryStatus) -> None:
    assert template(f"registry_status_{status.value}", "en") == status.value
    assert template(f"registry_status_{status.value}", "ru") not in (None, status.value)


def test_a_refused_retry_and_cancel_name_the_state_in_russian() -> None:
    with pytest.raises(InvalidTransition) as retry:
        check_operator_move(4, "a.pdf", JobState.PROCESSING, JobState.QUEUED)
    assert str(retry.value).startswith("job 4 (a.pdf) is processing: only a finished")
    assert retry.value.words("ru").startswith("задание 4 (a.pdf) в состоянии «в пакете»")
    with pytest.raises(InvalidTransition) as cancel:
        check_operator_move(4, "a.pdf", JobState.DONE, JobState.CANCELED)
    assert "уже в состоянии «готово»: отменить можно только" in cancel.value.words("ru")
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
