"""Property tests of the job state contract (seed 004)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from docbatch_gui.domain.errors import InvalidTransition
from docbatch_gui.domain.models import NewJob
from docbatch_gui.domain.states import (
    ACTIVE_STATES,
    FAILURE_STATES,
    FINAL_STATES,
    RECOVERABLE_STATES,
    JobState,
    allowed_targets,
    can_transition,
    check_transition,
)
from docbatch_gui.storage.sqlite import SQLiteStore

states = st.sampled_from(list(JobState))


@given(states, states)
def test_check_transition_agrees_with_can_transition(a: JobState, b: JobState) -> None:
    if can_transition(a, b):
        check_transition(a, b)
    else:
        with pytest.raises(InvalidTransition):
            check_transition(a, b)


@given(st.lists(states, max_size=30))
def test_timed_out_reaches_done_only_through_a_new_attempt(path: list[JobState]) -> None:
    """Walk any sequence of allowed moves from timed_out: done needs queued first."""
    current = JobState.TIMED_OUT
    requeued = False
    for target in path:
        if not can_transition(current, target):
            continue
        requeued |= target is JobState.QUEUED
        current = target
        if current is JobState.DONE:
            assert requeued


@given(states)
def test_final_states_only_leave_through_the_queue(state: JobState) -> None:
    if state in FINAL_STATES:
        review_done = {JobState.DONE} if state is JobState.NEEDS_REVIEW else set()
        assert allowed_targets(state) <= {JobState.QUEUED} | review_done


@given(states)
def test_every_active_state_can_fail_time_out_or_cancel(state: JobState) -> None:
    if state in ACTIVE_STATES:
        assert allowed_targets(state) >= FAILURE_STATES


def test_done_is_reachable_in_sync_batch_and_offline_paths() -> None:
    paths = [
        ["queued", "preparing", "ocr", "extracting", "building", "done"],
        ["queued", "preparing", "submitted", "processing", "building", "needs_review", "done"],
        ["queued", "preparing", "extracting", "building", "done"],
    ]
    for path in paths:
        for a, b in itertools.pairwise(path):
            assert can_transition(JobState(a), JobState(b)), (a, b)


def test_only_local_active_states_are_recoverable() -> None:
    assert JobState.SUBMITTED not in RECOVERABLE_STATES
    assert JobState.PROCESSING not in RECOVERABLE_STATES
    for state in RECOVERABLE_STATES:
        assert can_transition(state, JobState.QUEUED)


class StoreFollowsContract(RuleBasedStateMachine):
    """Random moves against a real SQLite store: it accepts exactly the allowed ones,
    records each, and refuses a stale worker."""

    def __init__(self) -> None:
        super().__init__()
        self.store = SQLiteStore(":memory:")
        self.job = self.store.create_job(NewJob("a.pdf", "/a.pdf", "a" * 64, 1))
        self.model = JobState.QUEUED
        self.moves = 1

    @rule(to=states)
    def move(self, to: JobState) -> None:
        if can_transition(self.model, to):
            self.store.transition(self.job.id, to)
            self.model = to
            self.moves += 1
        else:
            with pytest.raises(InvalidTransition):
                self.store.transition(self.job.id, to)

    @precondition(lambda self: self.model is JobState.QUEUED)
    @rule()
    def claim(self) -> None:
        before = self.store.get_job(self.job.id).attempts
        assert self.store.claim(self.job.id, JobState.PREPARING) is not None
        assert self.store.get_job(self.job.id).attempts == before + 1
        self.model = JobState.PREPARING
        self.moves += 1

    @precondition(lambda self: self.store.get_job(self.job.id).attempts > 0)
    @rule()
    def stale_worker_is_refused(self) -> None:
        stale = self.store.get_job(self.job.id).attempts - 1
        with pytest.raises(InvalidTransition):
            self.store.transition(self.job.id, JobState.DONE, attempt=stale)

    @invariant()
    def store_matches_model(self) -> None:
        assert self.store.get_job(self.job.id).state is self.model
        assert len(self.store.job_events(self.job.id)) == self.moves

    def teardown(self) -> None:
        self.store.close()


TestStoreFollowsContract = StoreFollowsContract.TestCase
TestStoreFollowsContract.settings = settings(max_examples=60, stateful_step_count=25, deadline=None)
TestStoreFollowsContract.pytestmark = [pytest.mark.slow]
