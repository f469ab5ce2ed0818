"""Randomized kill -9 schedules in batch mode: nothing paid twice, every good file done.

Each schedule kills the real worker process with SIGKILL at seeded moments of the run
(crash points between the store writes, ``tests/kill_schedules.py``) until every job
is final. CI runs three seeds; ``bench/kill_schedules.py`` runs any number (the issue
asks for ten at least) and ends with one JSON line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes.anthropic_server import FakeAnthropic
from tests.kill_schedules import run_schedule

pytestmark = pytest.mark.slow  # a worker started and killed several times per schedule


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_kill_schedule_never_pays_twice_nor_fails_a_good_file(
    seed: int, tmp_path: Path, fake_anthropic: FakeAnthropic
) -> None:
    outcome = run_schedule(seed, tmp_path, fake_anthropic)
    assert outcome.paid_twice == {}, outcome
    assert set(outcome.states.values()) <= {"done", "needs_review"}, outcome
    assert len(outcome.states) == 6
    assert outcome.most_attempts == 1, outcome  # the kills were not counted as tries
